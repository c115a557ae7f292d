package io.webindex.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The figures and guards the history keeps, from hand-written {@code bench.json} documents; the
 * expected values are read off those documents by hand (bytes divided by 2^20 for MB).
 */
class BenchFiguresTest {
  @Test
  void everyStage() throws IOException {
    Map<String, Object> report = report("bench-all.json");
    Map<String, Double> expected = new LinkedHashMap<>();
    expected.put("recompute.seconds", 12.3);
    expected.put("recompute.pagesPerSecond", 122.0);
    expected.put("recompute.floorSeconds", 0.4);
    expected.put("recompute.ratioToFloor", 30.8);
    expected.put("check.seconds", 3.2);
    expected.put("check.cellsPerSecond", 15066.0);
    expected.put("load.endToEndPagesPerSecond", 67.0);
    expected.put("load.loaderPagesPerSecond", 71.0);
    expected.put("latency.p50Ms", 120.5);
    expected.put("latency.p99Ms", 201.3);
    expected.put("latency.maxMs", 201.3);
    expected.put("latencyUnderLoad.p50Ms", 850.5);
    expected.put("latencyUnderLoad.p99Ms", 2400.7);
    expected.put("latencyUnderLoad.maxMs", 2400.7);
    expected.put("frontier.urlsPerSecond", 812.5);
    expected.put("frontier.getUrlsPerSecond", 9.3);
    expected.put("frontier.getUrlsP50Ms", 410.2);
    expected.put("frontier.getUrlsP99Ms", 900.5);
    expected.put("frontier.acksPerSecond", 810.0);
    // 734,003,200 B = 700 MB; 220,200,960 B = 210 MB; 1,258,291,200 B = 1,200 MB;
    // 419,430,400 + 94,371,840 B = 400 + 90 MB
    expected.put("memory.peakHeapMb", 700.0);
    expected.put("memory.peakHeapAfterGcMb", 210.0);
    expected.put("memory.peakRssMb", 1200.0);
    expected.put("memory.childrenPeakRssMb", 490.0);
    Map<String, Double> figures = BenchFigures.of(report);
    assertEquals(expected, figures);
    // in the order the page draws them
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(figures.keySet()));
    for (String name : figures.keySet()) {
      assertEquals(name, BenchFigures.figure(name).name());
    }

    Map<String, String> guards = new LinkedHashMap<>();
    guards.put("check", "CONSISTENT");
    guards.put("load", "CONSISTENT");
    guards.put("latency", "INCONSISTENT");
    guards.put("latencyUnderLoad", "CONSISTENT");
    guards.put("frontier", "no URL handed out twice");
    guards.put("latency.samples", "1 never visible");
    guards.put("latencyUnderLoad.samples", "all visible");
    assertEquals(guards, BenchFigures.guards(report));
    assertEquals(List.copyOf(guards.keySet()), List.copyOf(BenchFigures.guards(report).keySet()));
    assertEquals(List.of("latency", "latency.samples"), BenchFigures.failedGuards(guards));
  }

  @Test
  void aRunThatFailedInLoadKeepsTheRecomputesFigures() throws IOException {
    Map<String, Object> report = report("bench-load-failed.json");
    Map<String, Double> expected = new LinkedHashMap<>();
    expected.put("recompute.seconds", 20.1);
    expected.put("recompute.pagesPerSecond", 4975.0);
    expected.put("recompute.floorSeconds", 3.8);
    expected.put("recompute.ratioToFloor", 5.3);
    assertEquals(expected, BenchFigures.of(report));
    assertEquals(Map.of(), BenchFigures.guards(report));
  }

  @Test
  void guardsThatFail() {
    Map<String, String> g = new LinkedHashMap<>();
    g.put("check", "INCONSISTENT");
    g.put("load", "CONSISTENT");
    g.put("frontier", "3 URLs handed out twice");
    g.put("latency.samples", "all visible");
    assertEquals(List.of("check", "frontier"), BenchFigures.failedGuards(g));
    g.put("latencyUnderLoad.samples", "2 never visible");
    assertEquals(
        List.of("check", "frontier", "latencyUnderLoad.samples"), BenchFigures.failedGuards(g));
    g.remove("latencyUnderLoad.samples");
    g.put("frontier", "a client failed");
    assertEquals(List.of("check", "frontier"), BenchFigures.failedGuards(g));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> report(String name) throws IOException {
    try (InputStream in = BenchFiguresTest.class.getResourceAsStream(name)) {
      return new ObjectMapper().readValue(in, Map.class);
    }
  }
}
