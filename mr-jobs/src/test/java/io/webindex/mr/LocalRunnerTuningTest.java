package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The local runner's in-memory shuffle: the heap size each reducer sizes itself from, by hand from
 * Hadoop's rule (in memory = {@code totalbytes} × {@code shuffle.input.buffer.percent}).
 */
class LocalRunnerTuningTest {
  private static final long MB = 1L << 20;

  @Test
  void eachReducerHoldsAsMuchAsASortBufferWhateverTheHeap() {
    for (long heap : new long[] {1024 * MB, 2048 * MB, 16384 * MB}) {
      Configuration conf = new Configuration(false);
      LocalRunnerTuning.tune(conf, heap);
      // 100 MB in memory (the default sort buffer) / 0.70 = 149,796,571 bytes
      assertEquals(
          "149796571", conf.get("mapreduce.reduce.memory.totalbytes"), "heap " + heap / MB);
      assertEquals("100", conf.get("mapreduce.task.io.sort.factor"));
      assertEquals("100", conf.get("mapreduce.task.io.sort.mb"), "Hadoop's default sort buffer");
    }
  }

  @Test
  void aSmallHeapIsSharedAmongTheTasks() {
    Configuration conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 384 * MB);
    // sort buffers: 384 MB / 4 / 2 maps = 48 MB each; each reducer as much: 48 MB / 0.70
    assertEquals("48", conf.get("mapreduce.task.io.sort.mb"));
    assertEquals("71902354", conf.get("mapreduce.reduce.memory.totalbytes"));
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 64 * MB);
    // 64 / 4 / 2 = 8 MB, raised to the 16 MB least; reducers: 64 MB × 0.70 / 2 = 22.4 MB > 16 MB
    assertEquals("16", conf.get("mapreduce.task.io.sort.mb"));
    assertEquals("23967451", conf.get("mapreduce.reduce.memory.totalbytes"));
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 40 * MB);
    // sort buffers 16 MB (the least); reducers: 40 MB × 0.70 / 2 = 14 MB, less than a sort buffer
    assertEquals("16", conf.get("mapreduce.task.io.sort.mb"));
    assertEquals(Long.toString(20 * MB), conf.get("mapreduce.reduce.memory.totalbytes"));
  }

  @Test
  void followsTheOperatorsSettings() {
    Configuration conf = new Configuration(false);
    conf.setInt("mapreduce.task.io.sort.mb", 50);
    conf.set("mapreduce.reduce.shuffle.input.buffer.percent", "0.50");
    conf.set("mapreduce.local.reduce.tasks.maximum", "4");
    LocalRunnerTuning.tune(conf, 1024 * MB);
    // min(50 MB, 1024 MB × 0.70 / 4 = 179.2 MB) = 50 MB, / 0.50
    assertEquals(Long.toString(100 * MB), conf.get("mapreduce.reduce.memory.totalbytes"));
  }

  @Test
  void leavesAClusterAlone() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "yarn");
    LocalRunnerTuning.tune(conf, 1024 * MB);
    assertNull(conf.get("mapreduce.reduce.memory.totalbytes"));
    assertNull(conf.get("mapreduce.local.reduce.tasks.maximum"));
  }
}
