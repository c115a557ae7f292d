package io.webindex.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The table {@code bench} prints, byte for byte: a row per stage that measured, none for a stage
 * that failed before it did, and the defaults of figures a stage did not get to.
 */
class BenchTableTest {
  @Test
  void everyStage() {
    assertEquals(
        "input      1,500 pages, 21,765 links, 3 MB (seed 5)\n"
            + "recompute  12.3 s, 122 pages/s, 48,211 cells\n"
            + "  floor    0.4 s (parse 0.3 s, write 0.1 s): recompute is 30.8 x the floor\n"
            + "check      3.2 s, 48,211 cells compared, 15,066 cells/s (files), CONSISTENT\n"
            + "load       300 page versions in 4.5 s: 67 pages/s end to end (loader alone 71 pages/s), check CONSISTENT\n"
            + "latency    one page loaded -> its cells served, 4 samples (4 visible): p50 120.5 ms, p90 180.0 ms, p99 201.3 ms, max 201.3 ms, mean 140.2 ms (loader committed: p50 60.1 ms, then served: p50 55.0 ms), check INCONSISTENT\n"
            + "memory     this JVM: peak heap 700 MB of 2,048 MB (after a GC at most 210 MB), peak RSS 1,200 MB\n"
            + "           Main tserver (pid 12): peak RSS 400 MB\n"
            + "           ZooKeeperServerMain (pid 11): peak RSS 90 MB\n"
            + "machine    2 cores, Some CPU @ 2.0GHz 100%, OpenJDK 64-Bit Server VM 17.0.9,"
            + " Accumulo's native in-memory map\n",
        BenchTable.format(report(false)));
  }

  @Test
  void stagesThatDidNotFinish() {
    assertEquals(
        "input      1,500 pages, 21,765 links, 3 MB (seed 5)\n"
            + "recompute  12.3 s, 122 pages/s, 48,211 cells\n"
            + "  floor    0.4 s (parse 0.3 s, write 0.1 s): recompute is 30.8 x the floor\n"
            + "load       300 page versions in 4.5 s: 67 pages/s end to end (loader alone ? pages/s), check not run\n"
            + "latency    one page loaded -> its cells served, 4 samples (4 visible): p50 120.5 ms, p90 180.0 ms, p99 201.3 ms, max 201.3 ms, mean 140.2 ms (loader committed: p50 60.1 ms, then served: p50 55.0 ms), check not run\n"
            + "machine    2 cores, ?, OpenJDK 64-Bit Server VM 17.0.9\n",
        BenchTable.format(report(true)));
  }

  @Test
  @SuppressWarnings("unchecked")
  void javaMemoryMap() {
    Map<String, Object> r = report(false);
    ((Map<String, Object>) r.get("machine")).put("accumuloMemoryMap", "java");
    assertEquals(
        "machine    2 cores, Some CPU @ 2.0GHz 100%, OpenJDK 64-Bit Server VM 17.0.9,"
            + " Accumulo's Java in-memory map",
        BenchTable.format(r).lines().filter(l -> l.startsWith("machine")).findFirst().orElse(""));
  }

  @Test
  @SuppressWarnings("unchecked")
  void frontierRowAfterLatency() {
    Map<String, Object> r = report(false);
    Map<String, Object> fr = new LinkedHashMap<>();
    fr.put("servers", 2);
    fr.put("clients", 4);
    fr.put("queues", 9_925L);
    fr.put("urls", 1_500_000L);
    fr.put("dueUrls", 1_200_000L);
    fr.put("seconds", 30.1);
    fr.put("urlsPerSecond", 812.5);
    fr.put("getCallsPerSecond", 9.3);
    fr.put("getP50Ms", 410.2);
    fr.put("getP90Ms", 600.0);
    fr.put("getP99Ms", 900.5);
    fr.put("getMaxMs", 1_002.0);
    fr.put("acksPerSecond", 810.0);
    fr.put("verdict", "no URL handed out twice");
    ((Map<String, Map<String, Object>>) r.get("stages")).put("frontier", fr);
    String table = BenchTable.format(r);
    assertEquals(
        "frontier   9,925 queues (hosts), 1,500,000 URLs (1,200,000 due); 2 servers, 4 clients"
            + " for 30.1 s: 812.5 URLs/s handed out, 9.3 GetURLs/s (p50 410.2 ms, p90 600.0 ms,"
            + " p99 900.5 ms, max 1002.0 ms), 810.0 acks/s; no URL handed out twice",
        table.lines().filter(l -> l.startsWith("frontier")).findFirst().orElse(table));
    // after latency, before memory
    assertEquals(
        table.indexOf("memory"), table.indexOf('\n', table.indexOf("frontier   ")) + 1, table);
  }

  @Test
  @SuppressWarnings("unchecked")
  void underLoadRowAfterLatency() {
    Map<String, Object> r = report(false);
    Map<String, Object> u = new LinkedHashMap<>();
    u.put("deltas", 4);
    u.put("versions", 20_000L);
    u.put("samples", 50);
    u.put("visible", 50);
    u.put("p50Ms", 2_310.4);
    u.put("p90Ms", 5_000.0);
    u.put("p99Ms", 6_100.2);
    u.put("maxMs", 6_100.2);
    u.put("meanMs", 2_500.0);
    u.put("loadedP50Ms", 2_100.0);
    u.put("loadedP99Ms", 5_900.9);
    u.put("afterLoadedP50Ms", 200.1);
    u.put("afterLoadedP99Ms", 800.0);
    u.put("loadSeconds", 80.5);
    u.put("verdict", "CONSISTENT");
    ((Map<String, Map<String, Object>>) r.get("stages")).put(BenchRun.UNDER_LOAD, u);
    String table = BenchTable.format(r);
    String row =
        "  under load one page complete -> its cells served while 20,000 versions in 4 deltas"
            + " load (80.5 s), 50 samples (50 visible): p50 2310.4 ms, p90 5000.0 ms,"
            + " p99 6100.2 ms, max 6100.2 ms, mean 2500.0 ms (loaded: p50 2100.0 ms,"
            + " p99 5900.9 ms; then served: p50 200.1 ms, p99 800.0 ms), check CONSISTENT\n";
    // right after the latency row
    int latency = table.indexOf("latency    ");
    assertEquals(table.indexOf('\n', latency) + 1, table.indexOf(row), table);
    // a stage that failed before it measured has no row
    u.remove("p50Ms");
    assertEquals(-1, BenchTable.format(r).indexOf("under load"));
  }

  private static Map<String, Object> report(boolean partial) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("command", "bench all");
    Map<String, Object> machine = new LinkedHashMap<>();
    machine.put("cores", 2);
    machine.put("java", "OpenJDK 64-Bit Server VM 17.0.9");
    if (!partial) machine.put("cpu", "Some CPU @ 2.0GHz 100%");
    if (!partial) machine.put("accumuloMemoryMap", "native");
    r.put("machine", machine);
    Map<String, Object> in = new LinkedHashMap<>();
    in.put("pages", 1500);
    in.put("seed", 5L);
    in.put("links", 21_765L);
    in.put("bytes", 3_500_000L);
    r.put("input", in);
    Map<String, Map<String, Object>> stages = new LinkedHashMap<>();
    r.put("stages", stages);
    Map<String, Object> rec = new LinkedHashMap<>();
    stages.put("recompute", rec);
    rec.put("seconds", 12.3);
    rec.put("pagesPerSecond", 122L);
    rec.put("cells", 48_211L);
    Map<String, Object> floor = new LinkedHashMap<>();
    floor.put("seconds", 0.4);
    floor.put("parseSeconds", 0.3);
    floor.put("writeSeconds", 0.1);
    rec.put("floor", floor);
    rec.put("ratioToFloor", 30.8);
    Map<String, Object> chk = new LinkedHashMap<>();
    stages.put("check", chk);
    if (!partial) {
      chk.put("seconds", 3.2);
      chk.put("cellsCompared", 48_211L);
      chk.put("cellsPerSecond", 15066.0);
      chk.put("mode", "files");
      chk.put("verdict", "CONSISTENT");
    }
    Map<String, Object> ld = new LinkedHashMap<>();
    stages.put("load", ld);
    ld.put("versions", 300L);
    ld.put("seconds", 4.5);
    ld.put("pagesPerSecond", 67L);
    if (!partial) {
      ld.put("loaderPagesPerSecond", 71L);
      ld.put("verdict", "CONSISTENT");
    }
    Map<String, Object> lat = new LinkedHashMap<>();
    stages.put("latency", lat);
    lat.put("samples", 4);
    lat.put("visible", 4);
    lat.put("p50Ms", 120.5);
    lat.put("p90Ms", 180.0);
    lat.put("p99Ms", 201.3);
    lat.put("maxMs", 201.3);
    lat.put("meanMs", 140.2);
    lat.put("committedP50Ms", 60.1);
    lat.put("afterCommitP50Ms", 55.0);
    if (!partial) lat.put("verdict", "INCONSISTENT");
    if (!partial) {
      Map<String, Object> mem = new LinkedHashMap<>();
      mem.put("thisJvmPeakHeapBytes", 700L << 20);
      mem.put("thisJvmPeakHeapAfterGcBytes", 210L << 20);
      mem.put("thisJvmMaxHeapBytes", 2048L << 20);
      mem.put("thisJvmPeakRssBytes", 1200L << 20);
      Map<String, Long> children = new TreeMap<>();
      children.put("Main tserver (pid 12)", 400L << 20);
      children.put("ZooKeeperServerMain (pid 11)", 90L << 20);
      mem.put("childPeakRssBytes", children);
      r.put("memory", mem);
    }
    return r;
  }
}
