package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.store.RunRecord;
import io.webindex.store.RunTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
    // and the tables that go with it (history, frontier), which the check compares too
    List<String> companions = RunTables.companions(b0.table());
    List<String> cloneCompanions = RunTables.companions(clone);
    for (int i = 0; i < companions.size(); i++) {
      if (env.conn().tableOperations().exists(companions.get(i))) {
        env.conn()
            .tableOperations()
            .clone(companions.get(i), cloneCompanions.get(i), true, Map.of(), Set.of());
      }
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
