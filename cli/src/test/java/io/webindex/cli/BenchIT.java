package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.testkit.oracle.Oracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/webindex bench check} on a small synthetic web: the recompute, the floor and the check
 * run, the figures are written, the recomputed table has exactly the cells the independent oracle
 * computes from the generated input, and the check finds it consistent with its clone. (The
 * figures themselves are not judged: a benchmark measures, a test does not time.)
 *
 * <p>{@code bench all} (with load) is not run here: on this very input ({@code --pages 1500
 * --deltas 2 --delta-pages 150 --seed 5}) it finds the Fluo-maintained table INCONSISTENT with
 * the recompute (two URIs' counts), an engine bug open in the notes, and so exits 1, as it should.
 */
class BenchIT {
  @TempDir Path tmp;

  @Test
  @Timeout(600)
  void recomputeFloorAndCheckOnASyntheticWeb() throws Exception {
    Path out = tmp.resolve("bench-out");
    Run r =
        Run.of(
            tmp,
            "bench",
            "check",
            "--pages",
            "1500",
            "--deltas",
            "2",
            "--delta-pages",
            "150",
            "--seed",
            "5",
            "--out",
            out.toString(),
            "--keep");
    assertEquals(0, r.status(), r.toString());
    JsonNode b = new ObjectMapper().readTree(out.resolve("bench.json").toFile());
    JsonNode stages = b.path("stages");

    Matcher kept = Pattern.compile("bench: kept (\\S+)").matcher(r.err());
    assertTrue(kept.find(), r.err());
    Path store = Path.of(kept.group(1)).resolve("store");
    Oracle batch0 = Oracle.ofStore(store, 0);
    assertEquals(batch0.dump().size(), stages.path("recompute").path("cells").asLong());
    assertEquals(1500, b.path("input").path("pages").asLong());

    assertEquals("CONSISTENT", stages.path("check").path("verdict").asText());
    assertEquals(
        stages.path("recompute").path("cells").asLong(),
        stages.path("check").path("cellsCompared").asLong());
    assertTrue(stages.path("load").isMissingNode(), "bench check does not load");
    assertTrue(stages.path("recompute").path("floor").path("seconds").asDouble() > 0);
    assertTrue(b.path("memory").path("thisJvmPeakHeapBytes").asLong() > 0);
    assertTrue(r.out().contains("x the floor"), r.out());
    assertTrue(r.out().contains("figures: " + out.resolve("bench.json")), r.out());
    EmbeddedAccumulo.deleteRecursively(Path.of(kept.group(1)));
    assertTrue(Files.exists(out.resolve("bench.json")));
  }
}
