package io.webindex.core.check;

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
 * </pre>
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
    return String.join("\n", lines);
  }

  private static String line(String name, String value) {
    return String.format(Locale.ROOT, "  %-12s %s", name, value);
  }

  private static String count(long n, String one, String many) {
    return ReportFormat.number(n) + " " + (n == 1 ? one : many);
  }
}
