package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import io.webindex.core.schema.BatchLayout;
import io.webindex.store.RunRecord;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.accumulo.core.client.BatchScanner;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;

/**
 * The batch recompute of batch 0 ({@code recompute --run b0 --snapshot 0}), end to end, and the
 * single-pass floor measured in the same run ({@link FloorStage}). Every other stage starts from
 * its run.
 */
final class RecomputeStage {
  /** The run every stage starts from. */
  static final String RUN = "b0";

  /** The batch scanner's threads that count the run's cells. */
  private static final int COUNT_THREADS = 4;

  private RecomputeStage() {}

  /** Times the recompute and its floor into {@code rec}; returns the run. */
  static RunRecord run(BenchEnv env, Map<String, Object> rec) throws Exception {
    long t = System.nanoTime();
    env.steps().status("recompute", "--conf", env.conf(), "--run", RUN, "--snapshot", "0");
    double recSecs = secs(t);
    RunRecord b0 =
        env.runs().get(RUN).orElseThrow(() -> new IllegalStateException("no run " + RUN));
    long cells = countCells(env.conn(), b0.table());
    rec.put("seconds", round(recSecs));
    rec.put("pagesPerSecond", Math.round(env.options().pages() / recSecs));
    rec.put("cells", cells);
    rec.put("counters", b0.counters());
    Map<String, Object> floor =
        FloorStage.run(
            env.batches().resolve(BatchLayout.dirName(0)),
            cells,
            env.tmp(),
            env.accumulo().config().recomputeCompression());
    rec.put("floor", floor);
    rec.put("ratioToFloor", round(recSecs / (double) floor.get("seconds")));
    env.err()
        .printf(
            Locale.ROOT,
            "bench: recompute %.1f s (%,d cells), floor %.1f s%n",
            recSecs,
            cells,
            (double) floor.get("seconds"));
    return b0;
  }

  /**
   * The table's cells, read by a batch scanner over its tablets in {@value #COUNT_THREADS} threads
   * (one scanner, tablet after tablet, took about a minute of every 1M-page bench).
   */
  private static long countCells(Connector conn, String table) throws Exception {
    long n = 0;
    BatchScanner s = conn.createBatchScanner(table, Authorizations.EMPTY, COUNT_THREADS);
    try {
      s.setRanges(List.of(new Range()));
      for (Map.Entry<Key, Value> ignored : s) {
        n++;
      }
    } finally {
      s.close();
    }
    return n;
  }
}
