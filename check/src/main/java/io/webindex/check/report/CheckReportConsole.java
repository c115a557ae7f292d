package io.webindex.check.report;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.core.schema.DumpFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console summary of a {@link CheckReport}: a few lines, for example
 *
 * <pre>
 * check INCONSISTENT: 16 differences, 3 invariant violations
 *   tables       webindex_20261121030000 (run 20261121030000, snapshot 41) vs webindex (Fluo applied 43)
 *   compared     11,234,567 cells in 4 row ranges, 1,614 skipped
 *   differences  16: missing 4, extra 3, different 9 (Fluo seed: 3 of 3,456,789)
 *   invariants   3: actual PAGECOUNT_MISMATCH 2, actual TOTAL_MISMATCH 1
 *   time         12 min 03 s, 15,529 cells/s (mapreduce)
 *   samples      3 of 19 (all in the report files)
 *     MISSING             actual    t:8:com.site1/a/b0  :  expected 8  actual (none)
 *     DIFFERENT           both      p:com.c  page:incount  expected 3  actual 2
 *     PAGECOUNT_MISMATCH  actual    d:b.com  page:count  expected 4  actual 5
 * </pre>
 *
 * <p>Samples speak the dump format: counts decoded, control characters escaped.
 */
public final class CheckReportConsole {
  private CheckReportConsole() {}

  /** The summary: lines separated by {@code \n}, without a final newline. */
  public static String summary(CheckReport r) {
    List<String> lines = new ArrayList<>();
    String head = "check " + ReportFormat.verdict(r);
    if (!r.consistent()) {
      head +=
          ": "
              + count(r.differences(), "difference", "differences")
              + ", "
              + count(r.invariantViolations(), "invariant violation", "invariant violations");
    }
    lines.add(head);
    lines.add(
        line(
            "tables",
            r.expectedTable()
                + " (run "
                + r.runId()
                + ", snapshot "
                + r.snapshot()
                + ") vs "
                + r.actualTable()
                + " (Fluo applied "
                + (r.fluoApplied() < 0 ? "unknown" : Long.toString(r.fluoApplied()))
                + ")"));
    CheckReport.Live l = r.live();
    if (l != null) {
      lines.add(line("live side", ReportFormat.live(l, r.snapshot())));
    }
    lines.add(
        line(
            "compared",
            ReportFormat.number(r.compared())
                + " cells in "
                + count(r.ranges().size(), "row range", "row ranges")
                + ", "
                + ReportFormat.number(ReportFormat.skipped(r))
                + " skipped"));
    Map<Kind, Long> byKind = ReportFormat.differencesByKind(r);
    String differences = ReportFormat.number(r.differences());
    if (r.differences() > 0) {
      differences +=
          ": missing "
              + ReportFormat.number(byKind.get(Kind.MISSING))
              + ", extra "
              + ReportFormat.number(byKind.get(Kind.EXTRA))
              + ", different "
              + ReportFormat.number(byKind.get(Kind.DIFFERENT));
    }
    CheckReport.SeedComparison s = r.fluoSeed();
    if (s != null) {
      differences +=
          " (Fluo seed: "
              + ReportFormat.number(s.differences())
              + " of "
              + ReportFormat.number(s.compared())
              + ")";
    }
    lines.add(line("differences", differences));
    StringBuilder invariants = new StringBuilder(ReportFormat.number(r.invariantViolations()));
    String sep = ": ";
    for (String table : ReportFormat.invariantTables(r)) {
      Map<Kind, Long> counts = r.invariants().get(table);
      for (Kind k : ReportFormat.invariantKinds()) {
        long n = counts.getOrDefault(k, 0L);
        if (n != 0) {
          invariants.append(sep).append(table).append(' ').append(k).append(' ');
          invariants.append(ReportFormat.number(n));
          sep = ", ";
        }
      }
    }
    lines.add(line("invariants", invariants.toString()));
    lines.add(
        line(
            "time",
            ReportFormat.duration(r.millis())
                + ", "
                + ReportFormat.rate(ReportFormat.cellsPerSecond(r))
                + " cells/s ("
                + r.mode()
                + ")"));
    List<Finding> samples = r.samples();
    if (!samples.isEmpty()) {
      int shown = Math.min(SAMPLE_LINES, samples.size());
      long total = r.differences() + r.invariantViolations();
      lines.add(
          line(
              "samples",
              shown
                  + " of "
                  + ReportFormat.number(Math.max(total, samples.size()))
                  + " (all in the report files)"));
      for (Finding f : samples.subList(0, shown)) {
        lines.add(sample(f));
      }
    }
    return String.join("\n", lines);
  }

  /** How many sampled findings the summary lists. */
  static final int SAMPLE_LINES = 5;

  private static String sample(Finding f) {
    return String.format(
        Locale.ROOT,
        "    %-19s %-9s %s  %s  expected %s  actual %s",
        f.kind(),
        f.table(),
        DumpFormat.escape(DumpFormat.readableRow(f.row())),
        DumpFormat.escape(DumpFormat.readableColumn(f.column())),
        shown(f.expected()),
        shown(f.actual()));
  }

  private static String shown(String value) {
    if (value == null || value.isEmpty()) {
      return "(none)";
    }
    String v = DumpFormat.escape(value);
    return v.length() > 80 ? v.substring(0, 77) + "..." : v;
  }

  private static String line(String name, String value) {
    return String.format(Locale.ROOT, "  %-12s %s", name, value);
  }

  private static String count(long n, String one, String many) {
    return ReportFormat.number(n) + " " + (n == 1 ? one : many);
  }
}
