package io.webindex.store.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The operator's progress line for a running job (values hand-checked). */
class JobProgressTest {
  @Test
  void mapAndReduceWithRateAndTimeLeft() {
    // half done after 10 s (map 100 %, reduce 0 %): 10 s left; 1,000,000 records in 10 s
    assertEquals(
        "recompute 2/3: map 100% reduce 0%, 1,000,000 records in (100,000/s), about 10 s left",
        JobProgress.format("recompute 2/3", 1f, 0f, 1_000_000, 10_000));
  }

  @Test
  void mapOnlyJobsShowNoReduce() {
    // a quarter done after 3 s: 9 s left
    assertEquals(
        "check: map 25%, 300 records in (100/s), about 9 s left",
        JobProgress.format("check", 0.25f, -1, 300, 3_000));
  }

  @Test
  void noEstimateAtTheStartOrTheEndNorWithoutCounters() {
    assertEquals("j: map 1% reduce 0%", JobProgress.format("j", 0.01f, 0f, -1, 500));
    assertEquals(
        "j: map 100% reduce 100%, 5 records in (5/s)", JobProgress.format("j", 1f, 1f, 5, 1_000));
  }
}
