package io.webindex.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of {@code bench.json} as the aligned table the bench prints: one row per stage that
 * ran (and measured), then memory and the machine.
 */
final class BenchTable {
  private final List<String[]> rows = new ArrayList<>();

  private BenchTable() {}

  /** The figures as an aligned table. */
  @SuppressWarnings("unchecked")
  static String format(Map<String, Object> report) {
    BenchTable t = new BenchTable();
    t.input((Map<String, Object>) report.get("input"));
    Map<String, Map<String, Object>> stages =
        (Map<String, Map<String, Object>>) report.get("stages");
    t.recompute(stages.get("recompute"));
    t.check(stages.get("check"));
    t.load(stages.get("load"));
    t.latency(stages.get("latency"));
    t.underLoad(stages.get(BenchRun.UNDER_LOAD));
    t.frontier(stages.get("frontier"));
    t.memory((Map<String, Object>) report.get("memory"));
    t.machine((Map<String, Object>) report.get("machine"));
    StringBuilder sb = new StringBuilder();
    for (String[] row : t.rows) {
      sb.append(String.format(Locale.ROOT, "%-10s %s%n", row[0], row[1]));
    }
    return sb.toString();
  }

  private void row(String name, String format, Object... values) {
    rows.add(new String[] {name, String.format(Locale.ROOT, format, values)});
  }

  private void input(Map<String, Object> in) {
    row(
        "input",
        "%,d pages, %,d links, %,d MB (seed %s)",
        in.get("pages"),
        in.get("links"),
        (long) in.get("bytes") >> 20,
        in.get("seed"));
  }

  @SuppressWarnings("unchecked")
  private void recompute(Map<String, Object> rec) {
    if (rec == null || !rec.containsKey("seconds")) {
      return;
    }
    Map<String, Object> f = (Map<String, Object>) rec.get("floor");
    row(
        "recompute",
        "%s s, %,d pages/s, %,d cells",
        rec.get("seconds"),
        rec.get("pagesPerSecond"),
        rec.get("cells"));
    row(
        "  floor",
        "%s s (parse %s s, write %s s): recompute is %s x the floor",
        f.get("seconds"),
        f.get("parseSeconds"),
        f.get("writeSeconds"),
        rec.get("ratioToFloor"));
  }

  private void check(Map<String, Object> chk) {
    if (chk == null || !chk.containsKey("seconds")) {
      return;
    }
    row(
        "check",
        "%s s, %,d cells compared, %,.0f cells/s (%s), %s",
        chk.get("seconds"),
        chk.get("cellsCompared"),
        ((Number) chk.get("cellsPerSecond")).doubleValue(),
        chk.get("mode"),
        chk.get("verdict"));
  }

  private void load(Map<String, Object> ld) {
    if (ld == null || !ld.containsKey("seconds")) {
      return;
    }
    row(
        "load",
        "%,d page versions in %s s: %,d pages/s end to end (loader alone %s pages/s), check %s",
        ld.get("versions"),
        ld.get("seconds"),
        ld.get("pagesPerSecond"),
        ld.getOrDefault("loaderPagesPerSecond", "?"),
        ld.getOrDefault("verdict", "not run"));
  }

  private void latency(Map<String, Object> lat) {
    if (lat == null || !lat.containsKey("p50Ms")) {
      return;
    }
    row(
        "latency",
        "one page loaded -> its cells served, %d samples (%d visible): p50 %s ms,"
            + " p90 %s ms, p99 %s ms, max %s ms, mean %s ms (loader committed: p50 %s"
            + " ms, then served: p50 %s ms), check %s",
        lat.get("samples"),
        lat.get("visible"),
        lat.get("p50Ms"),
        lat.get("p90Ms"),
        lat.get("p99Ms"),
        lat.get("maxMs"),
        lat.get("meanMs"),
        lat.get("committedP50Ms"),
        lat.get("afterCommitP50Ms"),
        lat.getOrDefault("verdict", "not run"));
  }

  private void underLoad(Map<String, Object> lat) {
    if (lat == null || !lat.containsKey("p50Ms")) {
      return;
    }
    row(
        "  under load",
        "one page complete -> its cells served while %,d versions in %d deltas load (%s s),"
            + " %d samples (%d visible): p50 %s ms, p90 %s ms, p99 %s ms, max %s ms, mean %s ms"
            + " (loaded: p50 %s ms, p99 %s ms; then served: p50 %s ms, p99 %s ms), check %s",
        lat.get("versions"),
        lat.get("deltas"),
        lat.get("loadSeconds"),
        lat.get("samples"),
        lat.get("visible"),
        lat.get("p50Ms"),
        lat.get("p90Ms"),
        lat.get("p99Ms"),
        lat.get("maxMs"),
        lat.get("meanMs"),
        lat.getOrDefault("loadedP50Ms", "-"),
        lat.getOrDefault("loadedP99Ms", "-"),
        lat.getOrDefault("afterLoadedP50Ms", "-"),
        lat.getOrDefault("afterLoadedP99Ms", "-"),
        lat.getOrDefault("verdict", "not run"));
  }

  private void frontier(Map<String, Object> fr) {
    if (fr == null || !fr.containsKey("urlsPerSecond")) {
      return;
    }
    row(
        "frontier",
        "%,d queues (hosts), %,d URLs (%,d due); %s servers, %s clients for %s s: %s URLs/s"
            + " handed out, %s GetURLs/s (p50 %s ms, p90 %s ms, p99 %s ms, max %s ms),"
            + " %s acks/s; %s",
        fr.get("queues"),
        fr.get("urls"),
        fr.get("dueUrls"),
        fr.get("servers"),
        fr.get("clients"),
        fr.get("seconds"),
        fr.get("urlsPerSecond"),
        fr.get("getCallsPerSecond"),
        fr.getOrDefault("getP50Ms", "-"),
        fr.getOrDefault("getP90Ms", "-"),
        fr.getOrDefault("getP99Ms", "-"),
        fr.getOrDefault("getMaxMs", "-"),
        fr.get("acksPerSecond"),
        fr.get("verdict"));
  }

  @SuppressWarnings("unchecked")
  private void memory(Map<String, Object> mem) {
    if (mem == null) {
      return;
    }
    row(
        "memory",
        "this JVM: peak heap %,d MB of %,d MB (after a GC at most %,d MB), peak RSS %,d MB",
        (long) mem.get("thisJvmPeakHeapBytes") >> 20,
        (long) mem.get("thisJvmMaxHeapBytes") >> 20,
        (long) mem.getOrDefault("thisJvmPeakHeapAfterGcBytes", 0L) >> 20,
        (long) mem.getOrDefault("thisJvmPeakRssBytes", 0L) >> 20);
    ((Map<String, Long>) mem.get("childPeakRssBytes"))
        .forEach((k, v) -> row("", "%s: peak RSS %,d MB", k, v >> 20));
  }

  private void machine(Map<String, Object> mc) {
    rows.add(
        new String[] {
          "machine",
          mc.get("cores")
              + " cores, "
              + mc.getOrDefault("cpu", "?")
              + ", "
              + mc.get("java")
              + (mc.containsKey("accumuloMemoryMap")
                  ? ", Accumulo's "
                      + ("java".equals(mc.get("accumuloMemoryMap"))
                          ? "Java"
                          : mc.get("accumuloMemoryMap"))
                      + " in-memory map"
                  : "")
        });
  }
}
