package io.webindex.mr;

import io.webindex.store.mapreduce.Jobs;
import org.apache.hadoop.conf.Configuration;

/** The recompute's settings for Hadoop's local job runner (no effect on a cluster). */
final class LocalRunnerTuning {
  private LocalRunnerTuning() {}

  /** The smallest sort buffer the local runner sets, in MB. */
  static final int MIN_SORT_MB = 16;

  /**
   * How many times the bytes of the raw input a map task's output may be, at most: a gzipped page
   * file expands about five to ten times, and job 1 writes each link as a reference carrying both
   * URIs. A sort buffer larger than the run's whole input times this holds nothing more.
   */
  static final int INPUT_EXPANSION = 8;

  /** Share of the heap Hadoop lets one reducer's shuffle hold in memory (its default). */
  static final double SHUFFLE_HEAP_SHARE = 0.70;

  /**
   * On the local job runner: real parallelism, fast completion polling (5 s by default), and memory
   * bounded by the settings rather than by the input or the heap. Each map task holds its sort
   * buffer ({@code mapreduce.task.io.sort.mb}); each reducer's shuffle would hold up to 70 % of the
   * whole heap ({@code mapreduce.reduce.shuffle.input.buffer.percent} of {@code
   * Runtime.maxMemory()}), assuming it owns the JVM: two local reducers claimed 140 % of it, a
   * 1M-page recompute under {@code -Xmx1g} died with {@code OutOfMemoryError} in a shuffle, and the
   * heap in use grew with the input until the heap was full. Here a map task's sort buffer is
   * Hadoop's 100 MB, or less in a small heap (at most a quarter of it among the parallel maps), and
   * each local reducer's in-memory shuffle gets what a sort buffer gets (at most its share of 70 %
   * of the heap), through {@code mapreduce.reduce.memory.totalbytes}, the heap size the shuffle
   * sizes itself from: in either phase the JVM holds at most the parallel tasks times {@code
   * io.sort.mb} of records, whatever the input's size and the heap given. And a small run's map
   * tasks get a buffer of {@link #INPUT_EXPANSION} times its input (at least {@link #MIN_SORT_MB}):
   * a task allocates its whole buffer as it starts, and with Hadoop's 100 MB a recompute of a few
   * hundred pages allocated 100 MB per map task, too large for the young generation, so that every
   * few tasks filled the old one (`OperatorGuardsIT`'s test JVM: 10.3 of its 13.5 GB allocated and
   * 35 full collections, against 1.6 of 3.5 GB and 2; docs/performance.md).
   *
   * @param inputBytes the run's raw input in bytes, or a negative number when not known
   */
  static void tune(Configuration conf, long inputBytes) {
    tune(conf, Runtime.getRuntime().maxMemory(), inputBytes);
  }

  static void tune(Configuration conf, long maxHeap, long inputBytes) {
    if (Jobs.runLocally(conf)) {
      Jobs.setUnlessConfigured(conf, "mapreduce.client.completion.pollinterval", "50");
      Jobs.setUnlessConfigured(conf, "mapreduce.local.map.tasks.maximum", "2");
      Jobs.setUnlessConfigured(conf, "mapreduce.local.reduce.tasks.maximum", "2");
      // job 2's reducers each merge the outputs of every map task (about 40 at 1M pages): in one
      // pass instead of Hadoop's default of 10 segments a pass
      Jobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.factor", "100");
      // a map task allocates its whole sort buffer as it starts: at most a quarter of the heap
      // among the parallel maps (a small heap failed there at once, in Hadoop's 100 MB default)
      int maps = Math.max(1, conf.getInt("mapreduce.local.map.tasks.maximum", 1));
      long sortMb = Math.min(100, (maxHeap >> 20) / 4 / maps);
      if (inputBytes >= 0) {
        sortMb = Math.min(sortMb, (inputBytes * INPUT_EXPANSION + (1L << 20) - 1) >> 20);
      }
      sortMb = Math.max(MIN_SORT_MB, sortMb);
      Jobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.mb", Long.toString(sortMb));
      int reducers = Math.max(1, conf.getInt("mapreduce.local.reduce.tasks.maximum", 1));
      long sortBuffer = conf.getInt("mapreduce.task.io.sort.mb", 100) * (1L << 20);
      long inMemory = Math.min(sortBuffer, (long) (maxHeap * SHUFFLE_HEAP_SHARE / reducers));
      double share =
          conf.getDouble("mapreduce.reduce.shuffle.input.buffer.percent", SHUFFLE_HEAP_SHARE);
      Jobs.setUnlessConfigured(
          conf, "mapreduce.reduce.memory.totalbytes", Long.toString((long) (inMemory / share)));
    }
  }
}
