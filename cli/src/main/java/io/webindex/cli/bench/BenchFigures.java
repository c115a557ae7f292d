package io.webindex.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of a bench run that its history keeps, as a flat map of named numbers derived from
 * {@code bench.json}, and the guards' verdicts: what {@link BenchHistory} appends and {@link
 * HistoryPlot} draws.
 */
final class BenchFigures {
  private BenchFigures() {}

  /** Which way a figure should move. */
  enum Better {
    HIGHER("higher is better"),
    LOWER("lower is better");

    final String words;

    Better(String words) {
      this.words = words;
    }
  }

  /**
   * A figure the history keeps.
   *
   * @param name its name in the history, {@code <stage>.<figure>}
   * @param unit what it counts
   * @param better which way is better
   * @param what one line of what it is
   */
  record Figure(String name, String unit, Better better, String what) {
    /** The stage whose guard covers it (the part of the name before the dot). */
    String stage() {
      return name.substring(0, name.indexOf('.'));
    }
  }

  private static final long MB = 1L << 20;

  /** Every figure, in the order the page draws them. */
  static final List<Figure> FIGURES =
      List.of(
          new Figure(
              "recompute.seconds", "s", Better.LOWER, "the recompute of batch 0, end to end"),
          new Figure("recompute.pagesPerSecond", "pages/s", Better.HIGHER, "the recompute's rate"),
          new Figure("recompute.floorSeconds", "s", Better.LOWER, "its single-pass floor"),
          new Figure("recompute.ratioToFloor", "× floor", Better.LOWER, "recompute ÷ floor"),
          new Figure("check.seconds", "s", Better.LOWER, "the check against a clone"),
          new Figure("check.cellsPerSecond", "cells/s", Better.HIGHER, "the check's rate"),
          new Figure(
              "load.endToEndPagesPerSecond",
              "pages/s",
              Better.HIGHER,
              "load: page versions applied and drained, per second"),
          new Figure(
              "load.loaderPagesPerSecond", "pages/s", Better.HIGHER, "load: the loader's own rate"),
          new Figure("latency.p50Ms", "ms", Better.LOWER, "one page loaded → served, median"),
          new Figure("latency.p99Ms", "ms", Better.LOWER, "one page loaded → served, 99th pct"),
          new Figure("latency.maxMs", "ms", Better.LOWER, "one page loaded → served, slowest"),
          new Figure(
              "latencyUnderLoad.p50Ms",
              "ms",
              Better.LOWER,
              "one page complete → served while load applies deltas, median"),
          new Figure(
              "latencyUnderLoad.p99Ms",
              "ms",
              Better.LOWER,
              "one page complete → served while load applies deltas, 99th pct"),
          new Figure(
              "latencyUnderLoad.maxMs",
              "ms",
              Better.LOWER,
              "one page complete → served while load applies deltas, slowest"),
          new Figure("frontier.urlsPerSecond", "URLs/s", Better.HIGHER, "URLs handed out"),
          new Figure(
              "frontier.getUrlsPerSecond", "calls/s", Better.HIGHER, "GetURLs calls per second"),
          new Figure("frontier.getUrlsP50Ms", "ms", Better.LOWER, "a GetURLs call, median"),
          new Figure("frontier.getUrlsP99Ms", "ms", Better.LOWER, "a GetURLs call, 99th pct"),
          new Figure("frontier.acksPerSecond", "acks/s", Better.HIGHER, "PutURLs acks"),
          new Figure("memory.peakHeapMb", "MB", Better.LOWER, "this JVM's peak heap in use"),
          new Figure(
              "memory.peakHeapAfterGcMb", "MB", Better.LOWER, "its peak heap right after a GC"),
          new Figure("memory.peakRssMb", "MB", Better.LOWER, "this JVM's peak RSS"),
          new Figure(
              "memory.childrenPeakRssMb",
              "MB",
              Better.LOWER,
              "the peak RSS of the processes it started, summed"));

  /** The figure of that name, if the history keeps one. */
  static Figure figure(String name) {
    for (Figure f : FIGURES) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    return null;
  }

  /**
   * The figures of one run (a {@code bench.json} document as a map), named as in {@link #FIGURES}:
   * those the run measured, in that order; a stage that did not run or did not get to a figure
   * leaves it out.
   */
  static Map<String, Double> of(Map<String, Object> report) {
    Map<String, Double> f = new LinkedHashMap<>();
    Map<String, Object> stages = map(report.get("stages"));
    Map<String, Object> rec = map(stages.get("recompute"));
    put(f, "recompute.seconds", rec.get("seconds"), 1);
    put(f, "recompute.pagesPerSecond", rec.get("pagesPerSecond"), 1);
    put(f, "recompute.floorSeconds", map(rec.get("floor")).get("seconds"), 1);
    put(f, "recompute.ratioToFloor", rec.get("ratioToFloor"), 1);
    Map<String, Object> chk = map(stages.get("check"));
    put(f, "check.seconds", chk.get("seconds"), 1);
    put(f, "check.cellsPerSecond", chk.get("cellsPerSecond"), 1);
    Map<String, Object> ld = map(stages.get("load"));
    put(f, "load.endToEndPagesPerSecond", ld.get("pagesPerSecond"), 1);
    put(f, "load.loaderPagesPerSecond", ld.get("loaderPagesPerSecond"), 1);
    Map<String, Object> lat = map(stages.get("latency"));
    put(f, "latency.p50Ms", lat.get("p50Ms"), 1);
    put(f, "latency.p99Ms", lat.get("p99Ms"), 1);
    put(f, "latency.maxMs", lat.get("maxMs"), 1);
    Map<String, Object> under = map(stages.get(BenchRun.UNDER_LOAD));
    put(f, "latencyUnderLoad.p50Ms", under.get("p50Ms"), 1);
    put(f, "latencyUnderLoad.p99Ms", under.get("p99Ms"), 1);
    put(f, "latencyUnderLoad.maxMs", under.get("maxMs"), 1);
    Map<String, Object> fr = map(stages.get("frontier"));
    put(f, "frontier.urlsPerSecond", fr.get("urlsPerSecond"), 1);
    put(f, "frontier.getUrlsPerSecond", fr.get("getCallsPerSecond"), 1);
    put(f, "frontier.getUrlsP50Ms", fr.get("getP50Ms"), 1);
    put(f, "frontier.getUrlsP99Ms", fr.get("getP99Ms"), 1);
    put(f, "frontier.acksPerSecond", fr.get("acksPerSecond"), 1);
    Map<String, Object> mem = map(report.get("memory"));
    put(f, "memory.peakHeapMb", mem.get("thisJvmPeakHeapBytes"), MB);
    put(f, "memory.peakHeapAfterGcMb", mem.get("thisJvmPeakHeapAfterGcBytes"), MB);
    put(f, "memory.peakRssMb", mem.get("thisJvmPeakRssBytes"), MB);
    Map<String, Object> children = map(mem.get("childPeakRssBytes"));
    if (!children.isEmpty()) {
      double sum = 0;
      for (Object v : children.values()) {
        if (!(v instanceof Number)) {
          sum = Double.NaN;
        } else {
          sum += ((Number) v).doubleValue();
        }
      }
      put(f, "memory.childrenPeakRssMb", Double.isNaN(sum) ? null : sum, MB);
    }
    return f;
  }

  /**
   * The guards of one run and their verdicts: the check's, load's, latency's and latency under
   * load's (the check of the Fluo-maintained table against a recompute: {@code CONSISTENT} passes),
   * the samples of both latency stages (all visible passes) and the frontier's (no URL handed out
   * twice passes). Those the run did not get to are left out.
   */
  static Map<String, String> guards(Map<String, Object> report) {
    Map<String, Object> stages = map(report.get("stages"));
    Map<String, String> g = new LinkedHashMap<>();
    for (String s : List.of("check", "load", "latency", BenchRun.UNDER_LOAD, "frontier")) {
      Object v = map(stages.get(s)).get("verdict");
      if (v != null) {
        g.put(s, v.toString());
      }
    }
    for (String s : List.of("latency", BenchRun.UNDER_LOAD)) {
      Object failures = map(stages.get(s)).get("failures");
      if (failures instanceof Number n) {
        g.put(s + ".samples", n.longValue() == 0 ? "all visible" : n + " never visible");
      }
    }
    return g;
  }

  /** Those of {@link #guards} that failed, by name. */
  static List<String> failedGuards(Map<String, String> guards) {
    List<String> failed = new ArrayList<>();
    guards.forEach(
        (name, verdict) -> {
          boolean passed =
              switch (name) {
                case "frontier" -> verdict.equals("no URL handed out twice");
                case "latency.samples", "latencyUnderLoad.samples" -> verdict.equals("all visible");
                default -> verdict.equals("CONSISTENT");
              };
          if (!passed) {
            failed.add(name);
          }
        });
    return failed;
  }

  private static void put(Map<String, Double> f, String name, Object value, long divisor) {
    if (value instanceof Number n && Double.isFinite(n.doubleValue())) {
      double v = n.doubleValue() / divisor;
      f.put(name, divisor == 1 ? v : Math.round(v * 10) / 10.0);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map ? (Map<String, Object>) o : Map.of();
  }
}
