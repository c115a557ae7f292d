package io.webindex.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.check.CheckRunner.Mode;
import org.junit.jupiter.api.Test;

/**
 * What {@code --mode auto} runs: one process unless a cluster's map tasks would share the work;
 * through the tablet servers while the tables are small.
 */
class CheckRunnerAutoTest {
  @Test
  void smallRunsThroughTheTabletServers() {
    assertEquals(Mode.SCANNER, CheckRunner.auto(0, false));
    assertEquals(Mode.SCANNER, CheckRunner.auto(999_999, true));
    assertEquals(Mode.SCANNER, CheckRunner.auto(999_999, false));
    assertEquals(Mode.FILES, CheckRunner.auto(0, false, 0));
  }

  @Test
  void filesUpToTheLimitOnAnyFramework() {
    assertEquals(Mode.FILES, CheckRunner.auto(1_000_000, false));
    assertEquals(Mode.FILES, CheckRunner.auto(1_000_000, true));
    assertEquals(Mode.FILES, CheckRunner.auto(50_000_000, false));
    assertEquals(Mode.FILES, CheckRunner.auto(50_000_000, true));
  }

  @Test
  void beyondItTheJobOnlyWhereThereIsACluster() {
    assertEquals(Mode.MAPREDUCE, CheckRunner.auto(50_000_001, false));
    assertEquals(Mode.MAPREDUCE, CheckRunner.auto(187_678_169, false));
    // the local job runner has no more cores than this process: 10M pages stay in files mode
    assertEquals(Mode.FILES, CheckRunner.auto(187_678_169, true));
  }
}
