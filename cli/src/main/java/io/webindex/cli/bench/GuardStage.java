package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.secs;

import io.webindex.store.RunRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The guard after load and the latency stages: a recompute of every batch applied, and the check of
 * the Fluo-maintained table against it. Its verdict is reported with each of those stages.
 */
final class GuardStage {
  private GuardStage() {}

  /**
   * Recomputes batches 0 to {@code lastBatch} and checks the table Fluo maintained from {@code b0};
   * puts the verdict into the load and latency stages; returns true when the check failed.
   */
  static boolean run(
      BenchEnv env, RunRecord b0, int lastBatch, Map<String, Map<String, Object>> stages)
      throws Exception {
    long t = System.nanoTime();
    String applied = Integer.toString(lastBatch);
    env.steps().status("recompute", "--conf", env.conf(), "--run", "all", "--snapshot", applied);
    Path dir = env.tmp().resolve("check-fluo");
    int status =
        env.steps()
            .status(
                "check",
                "--conf",
                env.conf(),
                "--run",
                "all",
                "--actual",
                b0.table(),
                "--applied",
                applied,
                "--out",
                dir.toString());
    String verdict = CheckStage.report(dir).path("verdict").asText();
    for (String stage : List.of("load", "latency", BenchRun.UNDER_LOAD)) {
      if (stages.containsKey(stage)) {
        stages.get(stage).put("verdict", verdict);
      }
    }
    env.err()
        .printf(
            Locale.ROOT,
            "bench: recompute of batches 0..%d and check against the Fluo-maintained table:"
                + " %s in %.1f s%n",
            lastBatch,
            verdict,
            secs(t));
    return status != 0;
  }
}
