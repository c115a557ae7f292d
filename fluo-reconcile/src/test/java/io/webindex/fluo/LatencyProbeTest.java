package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.schema.Cell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The latency probe's waiting and its figures, without a Fluo application. */
class LatencyProbeTest {
  private static final Cell A = new Cell("p:a", "page", "cur", "{}");
  private static final Cell B = new Cell("p:b", "inlinks", "a", "anchor");

  @Test
  void percentilesAreNearestRankOverTheSortedSeries() {
    // 1..100 shuffled: p50 = 50, p90 = 90, p99 = 99 by hand (the k-th smallest for k = p)
    List<Double> series = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      series.add((double) ((i * 37) % 100 + 1));
    }
    LatencyProbe.Summary s = LatencyProbe.summarize(series);
    assertEquals(100, s.samples());
    assertEquals(50.0, s.p50());
    assertEquals(90.0, s.p90());
    assertEquals(99.0, s.p99());
    assertEquals(100.0, s.max());
    assertEquals(50.5, s.mean(), 1e-9);
  }

  @Test
  void aShortSeriesTakesItsHighestValueForTheHighPercentiles() {
    // 4 samples: p50 is the 2nd smallest (ceil 2.0), p90 and p99 the 4th (ceil 3.6, ceil 3.96)
    LatencyProbe.Summary s = LatencyProbe.summarize(List.of(40.0, 10.0, 30.0, 20.0));
    assertEquals(20.0, s.p50());
    assertEquals(40.0, s.p90());
    assertEquals(40.0, s.p99());
    assertEquals(25.0, s.mean(), 1e-9);
    assertEquals(7.0, LatencyProbe.summarize(List.of(7.0)).p99());
    assertThrows(IllegalArgumentException.class, () -> LatencyProbe.summarize(List.of()));
  }

  @Test
  void waitsUntilEveryCellWasSeenAndLooksAgainOnlyAtTheMissingOnes() {
    Map<Cell, Integer> looks = new HashMap<>();
    // A appears at the 3rd look, B at the 5th
    boolean seen =
        LatencyProbe.awaitCells(
            c -> {
              int n = looks.merge(c, 1, Integer::sum);
              return c.equals(A) ? n >= 3 : n >= 5;
            },
            List.of(A, B),
            System.nanoTime(),
            Duration.ofSeconds(30),
            Duration.ofMillis(1));
    assertTrue(seen);
    assertEquals(3, looks.get(A));
    assertEquals(5, looks.get(B));
  }

  @Test
  void givesUpAfterTheTimeLimitWhenACellNeverAppears() {
    long start = System.nanoTime();
    boolean seen =
        LatencyProbe.awaitCells(
            A::equals, List.of(A, B), start, Duration.ofMillis(100), Duration.ofMillis(5));
    long waited = System.nanoTime() - start;
    assertFalse(seen);
    assertTrue(waited >= 100_000_000L, "waited " + waited + " ns");
    assertTrue(waited < 5_000_000_000L, "waited " + waited + " ns");
  }
}
