package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.files.LocalFiles;
import io.webindex.core.schema.BatchLayout;
import io.webindex.testkit.oracle.Oracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/webindex bench all} on a small synthetic web: every stage runs (the frontier's for two
 * seconds), the figures are written, the recomputed table has exactly the cells the independent
 * oracle computes from the generated input, and both checks find the tables consistent. (The
 * figures themselves are not judged: a benchmark measures, a test does not time.)
 *
 * <p>This input ({@code --pages 1500 --seed 5}) holds two URI keys of equal length and equal hash
 * in one combine-queue bucket, {@code uk.org.site9.www/links/qp} and {@code …/s2}: before the queue
 * keys got their trailer ({@code WebindexSerializer}), Fluo 1.2's {@code Bytes.equals} merged them
 * and the load's check was INCONSISTENT.
 *
 * <p>(Named {@code BenchIT} before 2026-11-29: failsafe runs the module's classes in reverse
 * alphabetical order, and as the last class this one, about a minute, ran alone at the end of the
 * suite with half the machine idle; the classes after it now are the short ones.)
 */
class StagesBenchIT {
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
            "--samples",
            "4",
            "--seconds",
            "4",
            "--warmup",
            "1",
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
    // the query table's cells and the history table's (one line of the history oracle each: the
    // crawl versions, the schedule and the run's urc point of every URI; their number does not
    // depend on the run's start or the schedule's constants)
    long historyCells =
        io.webindex.testkit.oracle.HistoryOracle.dump(
                store,
                0,
                java.util.List.of(
                    new io.webindex.testkit.oracle.HistoryOracle.Run(java.time.Instant.EPOCH, 0)),
                16,
                new io.webindex.testkit.oracle.HistoryOracle.Rule(
                    30 * 86_400L, 60, 365 * 86_400L, 0.4, 0.2, true, 0.3))
            .size();
    // and the frontier table's (one line of the oracle's frontier each)
    long frontierCells =
        io.webindex.testkit.oracle.HistoryOracle.frontier(
                store,
                0,
                new io.webindex.testkit.oracle.HistoryOracle.Rule(
                    30 * 86_400L, 60, 365 * 86_400L, 0.4, 0.2, true, 0.3))
            .size();
    assertEquals(
        stages.path("recompute").path("cells").asLong() + historyCells + frontierCells,
        stages.path("check").path("cellsCompared").asLong());
    // frontier: two servers, four clients over the served b0 (its frontier table: one URL a line
    // of the oracle's frontier); URLs were handed out, each once, and every one put back
    JsonNode fr = stages.path("frontier");
    assertEquals(frontierCells, fr.path("urls").asLong(), fr.toString());
    assertEquals("no URL handed out twice", fr.path("verdict").asText(), fr.toString());
    assertTrue(fr.path("urlsHandedOut").asLong() > 0, fr.toString());
    assertEquals(0, fr.path("duplicates").asLong(), fr.toString());
    assertEquals(fr.path("handedOutInAll").asLong(), fr.path("distinctUrls").asLong());
    assertEquals(fr.path("urlsHandedOut").asLong(), fr.path("acks").asLong(), fr.toString());
    assertTrue(
        fr.path("getP50Ms").asDouble() <= fr.path("getMaxMs").asDouble()
            && fr.path("getMaxMs").asDouble() > 0,
        fr.toString());
    assertTrue(r.out().contains("no URL handed out twice"), r.out());
    assertEquals(300, stages.path("load").path("versions").asLong());
    assertEquals("CONSISTENT", stages.path("load").path("verdict").asText());

    // latency: every sample's page became visible in the served table, and the guard after it
    // (a recompute of batches 0..6: the two deltas and the four one-page batches) is consistent
    JsonNode lat = stages.path("latency");
    double max = allVisible(lat, 4);
    assertTrue(lat.path("p99Ms").asDouble() <= max, lat.toString());
    assertEquals("CONSISTENT", lat.path("verdict").asText());
    for (int batch = 3; batch <= 6; batch++) {
      assertTrue(
          Files.isDirectory(
              store.resolve(BatchLayout.BATCHES_DIR).resolve(BatchLayout.dirName(batch))));
    }
    // the independent oracle over the store: each one-page batch added a page (its page:cur
    // line) and its inlink in the target's row, both carrying the sample's title/anchor
    assertEquals(8, latencyLines(Oracle.ofStore(store, 6)));
    assertEquals(0, latencyLines(Oracle.ofStore(store, 2)));
    assertTrue(r.out().contains("latency"), r.out());

    // latency under load: two more deltas of 150 versions (the web's deltas 3 and 4) as batches 7
    // and 10, each followed by its two one-page batches, written while the loader was in it; every
    // sample visible, and the guard (a recompute of batches 0..12) consistent
    JsonNode ul = stages.path("latencyUnderLoad");
    assertEquals(2, ul.path("deltas").asInt(), ul.toString());
    assertEquals(300, ul.path("versions").asLong(), ul.toString());
    double ulMax = allVisible(ul, 4);
    // the part until the loader had loaded a sample's batch is part of the sample
    assertTrue(ul.path("loadedP99Ms").asDouble() <= ulMax, ul.toString());
    assertEquals("CONSISTENT", ul.path("verdict").asText(), ul.toString());
    Path batchDirs = store.resolve(BatchLayout.BATCHES_DIR);
    for (int batch = 7; batch <= 12; batch++) {
      java.util.List<String> lines = batchLines(batchDirs.resolve(BatchLayout.dirName(batch)));
      if (batch == 7 || batch == 10) {
        assertEquals(150, lines.size(), "batch " + batch);
      } else {
        assertEquals(1, lines.size(), "batch " + batch);
        assertTrue(lines.get(0).contains("latency sample under load "), lines.get(0));
      }
    }
    assertTrue(!Files.exists(batchDirs.resolve(BatchLayout.dirName(13))));
    // the independent oracle over the store: each probe added its page and its inlink
    assertEquals(8, underLoadLines(Oracle.ofStore(store, 12)));
    assertEquals(0, underLoadLines(Oracle.ofStore(store, 6)));
    assertTrue(r.out().contains("  under load one page complete"), r.out());
    assertTrue(stages.path("recompute").path("floor").path("seconds").asDouble() > 0);
    assertTrue(b.path("memory").path("thisJvmPeakHeapBytes").asLong() > 0);
    // a use of the heap, never more than the heap (the memory pools' peaks summed were)
    assertTrue(
        b.path("memory").path("thisJvmPeakHeapBytes").asLong()
            <= b.path("memory").path("thisJvmMaxHeapBytes").asLong(),
        b.path("memory").toString());
    // the heap left after a collection: measured (collections ran), and within what was used
    long afterGc = b.path("memory").path("thisJvmPeakHeapAfterGcBytes").asLong();
    assertTrue(
        afterGc > 0 && afterGc <= b.path("memory").path("thisJvmMaxHeapBytes").asLong(),
        b.path("memory").toString());
    assertTrue(r.out().contains("x the floor"), r.out());
    assertTrue(r.out().contains("figures: " + out.resolve("bench.json")), r.out());
    LocalFiles.deleteRecursively(Path.of(kept.group(1)));
    assertTrue(Files.exists(out.resolve("bench.json")));

    // the history: this run's line, with the commit of this build and the figures of bench.json
    java.util.List<String> history = Files.readAllLines(out.resolve("history.jsonl"));
    assertEquals(1, history.size(), history.toString());
    JsonNode h = new ObjectMapper().readTree(history.get(0));
    assertEquals(b.path("started").asText(), h.path("when").asText());
    assertEquals(b.path("commit").asText(), h.path("commit").asText());
    assertEquals(BuildInfo.current().commit(), h.path("commit").asText());
    assertEquals(1500, h.path("input").path("pages").asInt());
    assertEquals(false, h.path("failed").asBoolean(true), h.toString());
    assertEquals("[]", h.path("failedGuards").toString(), h.toString());
    assertEquals(
        stages.path("recompute").path("seconds").asDouble(),
        h.path("figures").path("recompute.seconds").asDouble());
    assertEquals(
        fr.path("urlsPerSecond").asDouble(),
        h.path("figures").path("frontier.urlsPerSecond").asDouble());
    assertEquals(lat.path("p99Ms").asDouble(), h.path("figures").path("latency.p99Ms").asDouble());
    assertEquals(
        ul.path("p99Ms").asDouble(), h.path("figures").path("latencyUnderLoad.p99Ms").asDouble());
    assertEquals("all visible", h.path("guards").path("latencyUnderLoad.samples").asText());
    String page = Files.readString(out.resolve("history.html"));
    assertTrue(page.contains("<section class=\"figure\" id=\"recompute.seconds\">"), page);
    assertTrue(page.contains("<section class=\"figure\" id=\"latency.p99Ms\">"), page);
    assertTrue(
        r.out()
            .contains(
                "history: "
                    + out.resolve("history.jsonl")
                    + " (1 run), drawn in "
                    + out.resolve("history.html")),
        r.out());
  }

  /**
   * A latency stage's report: {@code samples} samples, each visible, none failed, each time
   * positive, the reported max their maximum and p50 not above p99; returns the max.
   */
  private static double allVisible(JsonNode stage, int samples) {
    assertEquals(samples, stage.path("samples").asInt(), stage.toString());
    assertEquals(samples, stage.path("visible").asInt(), stage.toString());
    assertEquals(0, stage.path("failures").asInt(), stage.toString());
    assertEquals(samples, stage.path("millis").size(), stage.toString());
    double max = 0;
    for (JsonNode m : stage.path("millis")) {
      assertTrue(m.asDouble() > 0, stage.toString());
      max = Math.max(max, m.asDouble());
    }
    assertEquals(max, stage.path("maxMs").asDouble(), stage.toString());
    assertTrue(stage.path("p50Ms").asDouble() <= stage.path("p99Ms").asDouble(), stage.toString());
    return max;
  }

  private static long latencyLines(Oracle oracle) {
    return oracle.dump().stream().filter(l -> l.contains("latency sample ")).count();
  }

  private static long underLoadLines(Oracle oracle) {
    return oracle.dump().stream().filter(l -> l.contains("latency sample under load ")).count();
  }

  /** The input lines of a batch directory's part files. */
  private static java.util.List<String> batchLines(Path dir) throws java.io.IOException {
    java.util.List<String> lines = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    return lines;
  }
}
