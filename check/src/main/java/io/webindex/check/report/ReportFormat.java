package io.webindex.check.report;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Facts derived from a {@link CheckReport} and their wording, shared by the JSON, HTML and console
 * forms so that the three always agree.
 */
final class ReportFormat {
  static final String CONSISTENT = "CONSISTENT";
  static final String INCONSISTENT = "INCONSISTENT";

  /** The usual invariant tables first, then any other in name order. */
  static final Comparator<String> TABLE_ORDER =
      Comparator.comparingInt(ReportFormat::tableRank).thenComparing(Comparator.naturalOrder());

  private ReportFormat() {}

  static String verdict(CheckReport r) {
    return r.consistent() ? CONSISTENT : INCONSISTENT;
  }

  /**
   * What {@code --served} learned of the live side, in one line: {@code application webindex_r2
   * applied batch 5 (waited 1.2 s for 31 notifications in flight to be exported; cells of batches
   * 3–6 skipped; 1 comparison)}.
   */
  static String live(CheckReport.Live l, long snapshot) {
    StringBuilder sb = new StringBuilder();
    sb.append("application ").append(l.app()).append(" applied batch ").append(l.applied());
    sb.append(" (");
    if (l.pendingAtStart() > 0) {
      sb.append("waited ")
          .append(duration(l.waitedMillis()))
          .append(" for ")
          .append(number(l.pendingAtStart()))
          .append(l.pendingAtStart() == 1 ? " notification" : " notifications")
          .append(" in flight to be exported");
    } else {
      sb.append("nothing in flight");
    }
    sb.append("; ");
    if (l.excludedUpTo() > snapshot) {
      sb.append("cells of batches ")
          .append(snapshot + 1)
          .append(l.excludedUpTo() > snapshot + 1 ? "\u2013" + l.excludedUpTo() : "")
          .append(" skipped");
    } else {
      sb.append("no batch newer than the snapshot");
    }
    if (l.inFlightViolations() > 0) {
      sb.append("; ")
          .append(number(l.inFlightViolations()))
          .append(" invariant violations in cells of those batches not counted (in flight)");
    }
    sb.append("; ").append(l.attempts()).append(l.attempts() == 1 ? " comparison" : " comparisons");
    return sb.append(')').toString();
  }

  /**
   * Cells compared per second of the whole check, rounded to one decimal; a run shorter than one
   * millisecond counts as one millisecond.
   */
  static double cellsPerSecond(CheckReport r) {
    long millis = Math.max(1, r.millis());
    return Math.round(r.compared() * 10_000.0 / millis) / 10.0;
  }

  /** Cells skipped (changed by batches newer than the snapshot) over all row ranges. */
  static long skipped(CheckReport r) {
    return r.ranges().stream().mapToLong(RangeTotals::skipped).sum();
  }

  /** Differences by kind over all row ranges and the Fluo seed comparison. */
  static Map<Kind, Long> differencesByKind(CheckReport r) {
    long missing = 0;
    long extra = 0;
    long different = 0;
    for (RangeTotals t : r.ranges()) {
      missing += t.missing();
      extra += t.extra();
      different += t.different();
    }
    CheckReport.SeedComparison s = r.fluoSeed();
    if (s != null) {
      missing += s.missing();
      extra += s.extra();
      different += s.different();
    }
    Map<Kind, Long> m = new EnumMap<>(Kind.class);
    m.put(Kind.MISSING, missing);
    m.put(Kind.EXTRA, extra);
    m.put(Kind.DIFFERENT, different);
    return m;
  }

  /** How many findings of a kind the check counted (not only the sampled ones). */
  static long count(CheckReport r, Kind kind) {
    if (kind.isDifference()) {
      return differencesByKind(r).get(kind);
    }
    return r.invariants().values().stream().mapToLong(m -> m.getOrDefault(kind, 0L)).sum();
  }

  /** The tables with invariant results, in {@link #TABLE_ORDER}. */
  static List<String> invariantTables(CheckReport r) {
    List<String> tables = new ArrayList<>(r.invariants().keySet());
    tables.sort(TABLE_ORDER);
    return tables;
  }

  /** The invariant kinds, in declaration order. */
  static List<Kind> invariantKinds() {
    List<Kind> kinds = new ArrayList<>();
    for (Kind k : Kind.values()) {
      if (!k.isDifference()) {
        kinds.add(k);
      }
    }
    return kinds;
  }

  /** {@code 1234567} as {@code 1,234,567}. */
  static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A rate: whole numbers from 100 up, one decimal below. */
  static String rate(double perSecond) {
    return String.format(Locale.ROOT, perSecond >= 100 ? "%,.0f" : "%,.1f", perSecond);
  }

  /** {@code 850 ms}, {@code 2.5 s}, {@code 42 s}, {@code 4 min 05 s}, {@code 1 h 02 min 05 s}. */
  static String duration(long millis) {
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis < 10_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    long s = millis / 1000;
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min %02d s", s / 3600, s / 60 % 60, s % 60);
  }

  private static int tableRank(String table) {
    return switch (table) {
      case "expected" -> 0;
      case "actual" -> 1;
      default -> 2;
    };
  }
}
