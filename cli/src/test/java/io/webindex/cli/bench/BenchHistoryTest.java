package io.webindex.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.cli.BuildInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history's lines: appended one per run, read back, a line that is not a run skipped. */
class BenchHistoryTest {
  private static final BuildInfo BUILD =
      new BuildInfo("0123456789abcdef0123456789abcdef01234567", "0123456789", "2026-11-25T09:00Z");
  private static final BuildInfo UNKNOWN = new BuildInfo(BuildInfo.UNKNOWN, BuildInfo.UNKNOWN, "");

  @TempDir Path tmp;

  @Test
  void twoRunsAreTwoLines() throws Exception {
    Path history = tmp.resolve("not-yet").resolve("history.jsonl");
    BenchHistory.append(
        history, BenchHistory.entry(BenchFiguresTest.report("bench-all.json"), true, null, BUILD));
    BenchHistory.append(
        history,
        BenchHistory.entry(
            BenchFiguresTest.report("bench-load-failed.json"),
            true,
            new BenchHistory.Failure(
                "load", "load --embedded failed with status 1:\nthe output\nof the command"),
            UNKNOWN));
    List<String> lines = Files.readAllLines(history);
    assertEquals(2, lines.size(), lines.toString());

    ObjectMapper json = new ObjectMapper();
    JsonNode first = json.readTree(lines.get(0));
    assertEquals("2026-11-26T10:00:00Z", first.path("when").asText());
    assertEquals("0123456789abcdef0123456789abcdef01234567", first.path("commit").asText());
    assertEquals("0123456789", first.path("shortCommit").asText());
    assertEquals("bench all --pages 1500 --seed 5", first.path("command").asText());
    assertEquals(2, first.path("machine").path("cores").asInt());
    assertEquals("AMD EPYC 7B13", first.path("machine").path("cpu").asText());
    assertEquals(1500, first.path("input").path("pages").asInt());
    assertEquals(37, first.path("input").path("domains").asInt());
    assertTrue(first.path("failed").asBoolean());
    assertTrue(first.path("failure").isMissingNode());
    assertEquals("INCONSISTENT", first.path("guards").path("latency").asText());
    assertEquals("[\"latency\",\"latency.samples\"]", first.path("failedGuards").toString());
    // every figure of bench-all.json: 20, and the 3 of latency under load
    assertEquals(23, first.path("figures").size());
    assertEquals(2400.7, first.path("figures").path("latencyUnderLoad.p99Ms").asDouble());
    assertEquals(12.3, first.path("figures").path("recompute.seconds").asDouble());
    assertEquals(490.0, first.path("figures").path("memory.childrenPeakRssMb").asDouble());

    JsonNode second = json.readTree(lines.get(1));
    assertEquals("unknown", second.path("commit").asText());
    assertEquals("load", second.path("failure").path("stage").asText());
    // the first line of the error only
    assertEquals(
        "load --embedded failed with status 1:", second.path("failure").path("message").asText());
    assertEquals(4, second.path("figures").size());

    StringWriter warnings = new StringWriter();
    List<BenchHistory.Run> runs = BenchHistory.read(history, new PrintWriter(warnings, true));
    assertEquals("", warnings.toString());
    assertEquals(2, runs.size());
    BenchHistory.Run a = runs.get(0);
    assertEquals("0123456789", a.commit());
    assertEquals("1,500 pages, 37 domains", a.input());
    assertEquals("2 cores, AMD EPYC 7B13", a.machine());
    assertNull(a.failure());
    assertEquals(List.of("latency", "latency.samples"), a.failedGuards());
    assertEquals(812.5, a.figures().get("frontier.urlsPerSecond"));
    BenchHistory.Run b = runs.get(1);
    assertEquals("unknown", b.commit());
    assertEquals("100,000 pages, 2,500 domains", b.input());
    assertEquals("4 cores, CPU unknown", b.machine());
    assertEquals(
        new BenchHistory.Failure("load", "load --embedded failed with status 1:"), b.failure());
    assertEquals(
        Map.of(
            "recompute.seconds", 20.1,
            "recompute.pagesPerSecond", 4975.0,
            "recompute.floorSeconds", 3.8,
            "recompute.ratioToFloor", 5.3),
        b.figures());
  }

  @Test
  void aLineThatIsNotARunIsSkippedWithAWarning() throws Exception {
    Path history = tmp.resolve("history.jsonl");
    String good =
        "{\"when\":\"2026-11-20T10:00:00Z\",\"commit\":\"abc\",\"input\":{\"pages\":10,"
            + "\"domains\":4},\"figures\":{\"recompute.seconds\":2.5}}";
    // a run cut off while it wrote its line: no line end
    Files.writeString(
        history,
        good + "\n{not json\n\n[1,2]\n{\"when\":\"2026-11-21T10:00:00Z\"}\n" + good,
        StandardCharsets.UTF_8);
    BenchHistory.append(
        history,
        BenchHistory.entry(BenchFiguresTest.report("bench-load-failed.json"), false, null, BUILD));
    List<String> lines = Files.readAllLines(history);
    assertEquals(7, lines.size(), lines.toString());
    assertEquals(good, lines.get(5));
    assertTrue(lines.get(6).startsWith("{\"when\":\"2026-11-27T08:30:00Z\""), lines.get(6));

    StringWriter warnings = new StringWriter();
    List<BenchHistory.Run> runs = BenchHistory.read(history, new PrintWriter(warnings, true));
    assertEquals(3, runs.size());
    assertEquals(2.5, runs.get(0).figures().get("recompute.seconds"));
    assertEquals(2.5, runs.get(1).figures().get("recompute.seconds"));
    assertEquals("0123456789", runs.get(2).commit());
    assertFalse(runs.get(2).failed());
    List<String> w = warnings.toString().lines().toList();
    assertEquals(3, w.size(), warnings.toString());
    assertTrue(w.get(0).startsWith("bench: history.jsonl line 2 is not a bench run, skipped ("));
    assertTrue(w.get(1).startsWith("bench: history.jsonl line 4 is not a bench run, skipped ("));
    assertEquals(
        "bench: history.jsonl line 5 is not a bench run, skipped (no 'when' or no 'figures')",
        w.get(2));
  }

  @Test
  void noHistoryYetIsNoRuns() throws Exception {
    assertEquals(
        List.of(),
        BenchHistory.read(tmp.resolve("none.jsonl"), new PrintWriter(new StringWriter())));
  }
}
