package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
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
      LocalRunnerTuning.tune(conf, heap, -1);
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
    LocalRunnerTuning.tune(conf, 384 * MB, -1);
    // sort buffers: 384 MB / 4 / 2 maps = 48 MB each; each reducer as much: 48 MB / 0.70
    assertEquals("48", conf.get("mapreduce.task.io.sort.mb"));
    assertEquals("71902354", conf.get("mapreduce.reduce.memory.totalbytes"));
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 64 * MB, -1);
    // 64 / 4 / 2 = 8 MB, raised to the 16 MB least; reducers: 64 MB × 0.70 / 2 = 22.4 MB > 16 MB
    assertEquals("16", conf.get("mapreduce.task.io.sort.mb"));
    assertEquals("23967451", conf.get("mapreduce.reduce.memory.totalbytes"));
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 40 * MB, -1);
    // sort buffers 16 MB (the least); reducers: 40 MB × 0.70 / 2 = 14 MB, less than a sort buffer
    assertEquals("16", conf.get("mapreduce.task.io.sort.mb"));
    assertEquals(Long.toString(20 * MB), conf.get("mapreduce.reduce.memory.totalbytes"));
  }

  @Test
  void aSmallRunsMapTasksGetABufferSizedByItsInput() {
    // a few hundred pages, 200 KB: 8 x 200 KB = 1.6 MB, raised to the 16 MB least
    Configuration conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 2048 * MB, 200 * 1024);
    assertEquals("16", conf.get("mapreduce.task.io.sort.mb"));
    // each reducer as much: 16 MB / 0.70
    assertEquals("23967451", conf.get("mapreduce.reduce.memory.totalbytes"));
    // 5 MB of input: 40 MB
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 2048 * MB, 5 * MB);
    assertEquals("40", conf.get("mapreduce.task.io.sort.mb"));
    // one byte more than 5 MB: rounded up to 41 MB
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 2048 * MB, 5 * MB + 1);
    assertEquals("41", conf.get("mapreduce.task.io.sort.mb"));
    // a large input leaves the heap's rule: Hadoop's 100 MB, or a small heap's share
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 2048 * MB, 1024 * MB);
    assertEquals("100", conf.get("mapreduce.task.io.sort.mb"));
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 384 * MB, 1024 * MB);
    assertEquals("48", conf.get("mapreduce.task.io.sort.mb"));
    // an empty input: the least
    conf = new Configuration(false);
    LocalRunnerTuning.tune(conf, 2048 * MB, 0);
    assertEquals("16", conf.get("mapreduce.task.io.sort.mb"));
  }

  @Test
  void hadoopsDefaultsDoNotCountAsSettings() {
    // a JobConf reads mapred-default.xml (100 MB, merge factor 10, 5 s polling), as every
    // configuration of a JVM that has loaded JobConf does
    Configuration conf = new JobConf();
    assertEquals("100", conf.get("mapreduce.task.io.sort.mb"));
    LocalRunnerTuning.tune(conf, 2048 * MB, 200 * 1024);
    assertEquals("16", conf.get("mapreduce.task.io.sort.mb"));
    assertEquals("100", conf.get("mapreduce.task.io.sort.factor"));
    assertEquals("50", conf.get("mapreduce.client.completion.pollinterval"));
    // a value set in code (or a site file, or -D) stays
    conf = new JobConf();
    conf.setInt("mapreduce.task.io.sort.mb", 64);
    LocalRunnerTuning.tune(conf, 2048 * MB, 200 * 1024);
    assertEquals("64", conf.get("mapreduce.task.io.sort.mb"));
  }

  @Test
  void followsTheOperatorsSettings() {
    Configuration conf = new Configuration(false);
    conf.setInt("mapreduce.task.io.sort.mb", 50);
    conf.set("mapreduce.reduce.shuffle.input.buffer.percent", "0.50");
    conf.set("mapreduce.local.reduce.tasks.maximum", "4");
    LocalRunnerTuning.tune(conf, 1024 * MB, -1);
    // min(50 MB, 1024 MB × 0.70 / 4 = 179.2 MB) = 50 MB, / 0.50
    assertEquals(Long.toString(100 * MB), conf.get("mapreduce.reduce.memory.totalbytes"));
  }

  @Test
  void leavesAClusterAlone() {
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.framework.name", "yarn");
    LocalRunnerTuning.tune(conf, 1024 * MB, -1);
    assertNull(conf.get("mapreduce.reduce.memory.totalbytes"));
    assertNull(conf.get("mapreduce.local.reduce.tasks.maximum"));
  }
}
