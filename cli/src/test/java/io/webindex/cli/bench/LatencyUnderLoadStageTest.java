package io.webindex.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The pure parts of the latency-under-load stage: how samples are spread over the deltas. */
class LatencyUnderLoadStageTest {
  @Test
  void samplesSpreadOverTheDeltasTheFirstOnesOneMore() {
    assertArrayEquals(new int[] {13, 13, 12, 12}, LatencyUnderLoadStage.perDelta(50, 4));
    assertArrayEquals(new int[] {2, 2}, LatencyUnderLoadStage.perDelta(4, 2));
    assertArrayEquals(new int[] {1, 1, 0, 0}, LatencyUnderLoadStage.perDelta(2, 4));
    assertArrayEquals(new int[] {7}, LatencyUnderLoadStage.perDelta(7, 1));
  }

  @Test
  void probePointsAreAscendingInsideTheDelta() {
    SplittableRandom random = new SplittableRandom(3);
    for (int round = 0; round < 200; round++) {
      long[] at = LatencyUnderLoadStage.probePoints(13, 5_000, random);
      assertEquals(13, at.length);
      for (int i = 0; i < at.length; i++) {
        assertTrue(at[i] >= 0 && at[i] < 5_000, at[i] + " outside the delta");
        assertTrue(i == 0 || at[i - 1] <= at[i], "not ascending at " + i);
      }
    }
    // a delta of one version: every probe at its start
    assertArrayEquals(new long[] {0, 0, 0}, LatencyUnderLoadStage.probePoints(3, 1, random));
    assertEquals(0, LatencyUnderLoadStage.probePoints(0, 10, random).length);
  }

  @Test
  void probePointsCoverTheDeltaEvenly() {
    // 40,000 points over a delta of 1,000 versions: each tenth holds 4,000 ± 5 standard
    // deviations (binomial, n = 40,000, p = 0.1: sd = 60)
    SplittableRandom random = new SplittableRandom(11);
    int[] tenths = new int[10];
    for (int round = 0; round < 1_000; round++) {
      for (long p : LatencyUnderLoadStage.probePoints(40, 1_000, random)) {
        tenths[(int) (p / 100)]++;
      }
    }
    for (int t : tenths) {
      assertTrue(Math.abs(t - 4_000) <= 300, java.util.Arrays.toString(tenths));
    }
  }
}
