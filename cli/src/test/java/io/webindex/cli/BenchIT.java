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
 * {@code bin/webindex bench all} on a small synthetic web: every stage runs, the figures are
 * written, the recomputed table has exactly the cells the independent oracle computes from the
 * generated input, and both checks find the tables consistent. (The figures themselves are not
 * judged: a benchmark measures, a test does not time.)
 *
 * <p>This input ({@code --pages 1500 --seed 5}) holds two URI keys of equal length and equal hash
 * in one combine-queue bucket, {@code uk.org.site9.www/links/qp} and {@code …/s2}: before the queue
 * keys got their trailer ({@code WebindexSerializer}), Fluo 1.2's {@code Bytes.equals} merged them
 * and the load's check was INCONSISTENT.
 */
class BenchIT {
  @TempDir Path tmp;

  @Test
  @Timeout(600)
  void allStagesRunOnASyntheticWeb() throws Exception {
    Path out = tmp.resolve("bench-out");
    Run r =
        Run.of(
            tmp,
            "bench",
            "all",
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
    assertEquals(300, stages.path("load").path("versions").asLong());
    assertEquals("CONSISTENT", stages.path("load").path("verdict").asText());
    assertTrue(stages.path("recompute").path("floor").path("seconds").asDouble() > 0);
    assertTrue(b.path("memory").path("thisJvmPeakHeapBytes").asLong() > 0);
    assertTrue(r.out().contains("x the floor"), r.out());
    assertTrue(r.out().contains("figures: " + out.resolve("bench.json")), r.out());
    EmbeddedAccumulo.deleteRecursively(Path.of(kept.group(1)));
    assertTrue(Files.exists(out.resolve("bench.json")));
  }
}
