package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.store.RunRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The consistency check of the recomputed table (and its history and frontier tables) against a
 * clone of it ({@code check --actual}).
 */
final class CheckStage {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CheckStage() {}

  /** Times the check into {@code chk}; returns true when it failed (found the tables differ). */
  static boolean run(BenchEnv env, RunRecord b0, Map<String, Object> chk) throws Exception {
    String clone = b0.table() + "_clone";
    env.conn().tableOperations().clone(b0.table(), clone, true, Map.of(), Set.of());
    // and its crawl history, which the check compares too
    String history = io.webindex.core.schema.HistorySchema.historyTable(b0.table());
    if (env.conn().tableOperations().exists(history)) {
      env.conn()
          .tableOperations()
          .clone(
              history,
              io.webindex.core.schema.HistorySchema.historyTable(clone),
              true,
              Map.of(),
              Set.of());
    }
    // and its frontier, which it compares too
    String frontier = io.webindex.core.schema.FrontierSchema.frontierTable(b0.table());
    if (env.conn().tableOperations().exists(frontier)) {
      env.conn()
          .tableOperations()
          .clone(
              frontier,
              io.webindex.core.schema.FrontierSchema.frontierTable(clone),
              true,
              Map.of(),
              Set.of());
    }
    Path dir = env.tmp().resolve("check-clone");
    long t = System.nanoTime();
    int status =
        env.steps()
            .status(
                "check",
                "--conf",
                env.conf(),
                "--run",
                RecomputeStage.RUN,
                "--actual",
                clone,
                "--out",
                dir.toString());
    double s = secs(t);
    JsonNode r = report(dir);
    chk.put("seconds", round(s));
    chk.put("cellsCompared", r.path("totals").path("compared").asLong());
    chk.put("cellsPerSecond", r.path("cellsPerSecond").asDouble());
    chk.put("mode", r.path("mode").asText());
    chk.put("verdict", r.path("verdict").asText());
    env.err().printf(Locale.ROOT, "bench: check %.1f s, %s%n", s, r.path("verdict").asText());
    return status != 0;
  }

  /** The report {@code check --out dir} wrote. */
  static JsonNode report(Path dir) throws IOException {
    return JSON.readTree(dir.resolve("check.json").toFile());
  }
}
