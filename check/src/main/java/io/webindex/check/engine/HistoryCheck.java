package io.webindex.check.engine;

import io.webindex.core.history.HistorySettings;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.TimedCell;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The comparison of two history tables (the batch run's and the Fluo-maintained one's, {@link
 * HistorySchema}) and the invariants of each, row by row in one merge pass (memory: one row of each
 * table). Both inputs are every version the tables' scans return, in Accumulo's key order.
 *
 * <p>Each table is checked by the rule it was written by ({@link HistorySettings}, recorded with
 * it); rules that differ are reported first ({@link #SETTINGS_ROW}). Compared, for each URI row not
 * skipped: the {@code crawl:} versions within the newest {@code versions} of each table (the
 * smaller of the two rules' counts), by timestamp (the crawl millisecond) and value; the newest
 * {@code sched:} version's value (its timestamp is the recompute's 0 on one side and an export's on
 * the other); the {@code urc:} series where both tables hold points — between the later of the two
 * oldest and the earlier of the two newest kept points (the Fluo application never writes urc
 * points, so the actual table holds the series of the run it was seeded from). Findings go to range
 * {@link #RANGE}; the column of a {@code crawl:} or {@code urc:} finding names the version's
 * timestamp ({@code crawl:@2026-01-02T00:00:00.000Z}).
 *
 * <p>The invariants of each row ({@link #violations}), in both tables: see docs/check.md.
 */
public final class HistoryCheck {
  /** The row range of every history finding. */
  public static final String RANGE = "history";

  /** The row of the findings about the tables' rules (their recorded settings). */
  public static final String SETTINGS_ROW = "(settings)";

  private final HistorySettings expectedRule;
  private final HistorySettings actualRule;
  private final int versions;
  private final boolean sameRule;
  private final Exclusions skip;
  private final CheckAccumulator acc;

  /**
   * @param expectedRule the rule the expected table was written by (its recorded settings)
   * @param actualRule the rule the actual table was written by
   * @param skip URIs changed by batches newer than the run's snapshot: their rows are not compared
   * @param acc where totals, violations and samples go
   */
  public HistoryCheck(
      HistorySettings expectedRule,
      HistorySettings actualRule,
      Exclusions skip,
      CheckAccumulator acc) {
    this.expectedRule = Objects.requireNonNull(expectedRule);
    this.actualRule = Objects.requireNonNull(actualRule);
    this.versions = Math.min(expectedRule.versions(), actualRule.versions());
    this.sameRule = expectedRule.equals(actualRule);
    this.skip = skip;
    this.acc = acc;
  }

  /**
   * Reports each setting the two tables' rules differ in, as a difference of row {@link
   * #SETTINGS_ROW}, column {@code settings:<property>}: two histories kept by different rules
   * cannot be equal, and this names why.
   */
  private void compareRules() {
    Map<String, String> e = expectedRule.properties();
    Map<String, String> a = actualRule.properties();
    for (Map.Entry<String, String> en : e.entrySet()) {
      String other = a.get(en.getKey());
      if (!en.getValue().equals(other)) {
        difference(Kind.DIFFERENT, SETTINGS_ROW, "settings:" + en.getKey(), en.getValue(), other);
      }
    }
  }

  /** One URI's cells of one table, split by family (versions newest first). */
  record Row(
      String row,
      List<TimedCell> crawls,
      List<TimedCell> scheds,
      List<TimedCell> urcs,
      List<TimedCell> other) {
    static Row empty(String row) {
      return new Row(
          row, new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    }

    /** Whether this row holds the cells of {@code o} but for its urc series. */
    boolean sameButUrcs(Row o) {
      return row.equals(o.row)
          && crawls.equals(o.crawls)
          && scheds.equals(o.scheds)
          && other.equals(o.other);
    }

    void add(TimedCell c) {
      boolean plain = c.qualifier().isEmpty();
      if (plain && c.family().equals(HistorySchema.FAM_CRAWL)) {
        crawls.add(c);
      } else if (plain && c.family().equals(HistorySchema.FAM_SCHED)) {
        scheds.add(c);
      } else if (plain && c.family().equals(HistorySchema.FAM_URC)) {
        urcs.add(c);
      } else {
        other.add(c);
      }
    }
  }

  /** Reads rows off a key-ordered stream of cells. */
  private static final class Rows {
    private final Iterator<TimedCell> cells;
    private TimedCell next;

    Rows(Iterator<TimedCell> cells) {
      this.cells = cells;
      this.next = cells.hasNext() ? cells.next() : null;
    }

    String peek() {
      return next == null ? null : next.row();
    }

    Row take() {
      Row r = Row.empty(next.row());
      while (next != null && next.row().equals(r.row())) {
        r.add(next);
        next = cells.hasNext() ? cells.next() : null;
      }
      return r;
    }
  }

  /** Compares the two tables' cells and checks both tables' invariants. */
  public void run(Iterator<TimedCell> expected, Iterator<TimedCell> actual) {
    compareRules();
    Rows e = new Rows(expected);
    Rows a = new Rows(actual);
    while (e.peek() != null || a.peek() != null) {
      int c = e.peek() == null ? 1 : a.peek() == null ? -1 : Cell.compareBytes(e.peek(), a.peek());
      Row er = c <= 0 ? e.take() : null;
      Row ar = c >= 0 ? a.take() : null;
      String row = er != null ? er.row() : ar.row();
      Violations ev = null;
      if (er != null) {
        ev = violations(CheckAccumulator.EXPECTED, er, expectedRule);
        ev.all().forEach(this::violation);
      }
      if (ar != null) {
        // the invariants are a function of the row's cells and the rule: a row equal to the
        // expected one under the same rule breaks the same ones (not parsed twice), and one that
        // differs only in its urc series (two runs' series) the same ones but the series'
        Violations av;
        if (ev == null || !sameRule || !ar.sameButUrcs(er)) {
          av = violations(CheckAccumulator.ACTUAL, ar, actualRule);
        } else if (ar.urcs().equals(er.urcs())) {
          av = ev.in(CheckAccumulator.ACTUAL);
        } else {
          av = ev.in(CheckAccumulator.ACTUAL).withUrcs(urcViolations(CheckAccumulator.ACTUAL, ar));
        }
        av.all().forEach(this::violation);
      }
      compare(
          row,
          er == null ? Row.empty(row) : er,
          ar == null ? Row.empty(row) : ar,
          skip.uris().contains(row));
    }
  }

  private void violation(Finding f) {
    acc.violation(f.table(), f);
  }

  /**
   * The invariant violations of one row, in the order they are reported: those of its unknown
   * columns and crawl versions, those of its urc series, those of its schedule.
   */
  record Violations(List<Finding> before, List<Finding> urcs, List<Finding> after) {
    List<Finding> all() {
      if (before.isEmpty() && urcs.isEmpty() && after.isEmpty()) {
        return List.of();
      }
      List<Finding> out = new ArrayList<>(before.size() + urcs.size() + after.size());
      out.addAll(before);
      out.addAll(urcs);
      out.addAll(after);
      return out;
    }

    /** These violations as found in {@code table}. */
    Violations in(String table) {
      return new Violations(inTable(before, table), inTable(urcs, table), inTable(after, table));
    }

    Violations withUrcs(List<Finding> other) {
      return new Violations(before, other, after);
    }
  }

  /** {@code findings} as found in {@code table}. */
  private static List<Finding> inTable(List<Finding> findings, String table) {
    if (findings.isEmpty()) {
      return findings;
    }
    List<Finding> out = new ArrayList<>(findings.size());
    for (Finding f : findings) {
      out.add(f.in(table));
    }
    return out;
  }

  private void compare(String row, Row e, Row a, boolean skipped) {
    // crawl versions: the newest `versions` of each side, by timestamp
    compareVersions(
        row,
        HistorySchema.FAM_CRAWL,
        newest(e.crawls(), versions),
        newest(a.crawls(), versions),
        skipped);
    // the schedule: the newest version's value
    TimedCell es = e.scheds().isEmpty() ? null : e.scheds().get(0);
    TimedCell as = a.scheds().isEmpty() ? null : a.scheds().get(0);
    if (es != null || as != null) {
      acc.compared(RANGE, skipped);
      if (!skipped) {
        String column = HistorySchema.FAM_SCHED + ":";
        if (as == null) {
          difference(Kind.MISSING, row, column, es.value(), null);
        } else if (es == null) {
          difference(Kind.EXTRA, row, column, null, as.value());
        } else if (!es.value().equals(as.value())) {
          difference(Kind.DIFFERENT, row, column, es.value(), as.value());
        }
      }
    }
    // the urc series: the points both tables' series hold, those between the later of their
    // oldest and the earlier of their newest kept points. The Fluo-maintained table holds the
    // series of the run it was seeded from (the expected run's own point is newer), and two runs
    // of one snapshot may carry different chains (the later one carries the earlier one's point)
    List<TimedCell> eu = newest(e.urcs(), expectedRule.versions());
    List<TimedCell> au = newest(a.urcs(), actualRule.versions());
    if (!eu.isEmpty() && !au.isEmpty()) {
      long hi = Math.min(eu.get(0).timestamp(), au.get(0).timestamp());
      long lo = Math.max(eu.get(eu.size() - 1).timestamp(), au.get(au.size() - 1).timestamp());
      compareVersions(row, HistorySchema.FAM_URC, within(eu, lo, hi), within(au, lo, hi), skipped);
    }
  }

  /** A cell version of {@code family} whose value the codec cannot read. */
  private static Finding malformed(
      String table, String row, String family, TimedCell c, IllegalArgumentException e) {
    return finding(
        Kind.MALFORMED,
        table,
        row,
        family + ":@" + HistorySchema.iso(c.timestamp()),
        c.value(),
        e.getMessage());
  }

  private static List<TimedCell> within(List<TimedCell> cells, long lo, long hi) {
    List<TimedCell> out = new ArrayList<>();
    for (TimedCell c : cells) {
      if (c.timestamp() >= lo && c.timestamp() <= hi) {
        out.add(c);
      }
    }
    return out;
  }

  private void compareVersions(
      String row, String family, List<TimedCell> e, List<TimedCell> a, boolean skipped) {
    Map<Long, String> ev = byTimestamp(e);
    Map<Long, String> av = byTimestamp(a);
    Map<Long, Boolean> all = new java.util.TreeMap<>(java.util.Comparator.reverseOrder());
    ev.keySet().forEach(t -> all.put(t, true));
    av.keySet().forEach(t -> all.put(t, true));
    for (long ts : all.keySet()) {
      acc.compared(RANGE, skipped);
      if (skipped) {
        continue;
      }
      String x = ev.get(ts);
      String y = av.get(ts);
      if (y == null) {
        difference(Kind.MISSING, row, versionColumn(family, ts), x, null);
      } else if (x == null) {
        difference(Kind.EXTRA, row, versionColumn(family, ts), null, y);
      } else if (!x.equals(y)) {
        difference(Kind.DIFFERENT, row, versionColumn(family, ts), x, y);
      }
    }
  }

  /** The column a finding about a version names: {@code <family>:@<its timestamp, ISO>}. */
  private static String versionColumn(String family, long ts) {
    return family + ":@" + HistorySchema.iso(ts);
  }

  private void difference(Kind kind, String row, String column, String expected, String actual) {
    acc.difference(
        RANGE,
        new Finding(
            kind,
            "both",
            RANGE,
            row,
            column,
            expected == null ? "" : expected,
            actual == null ? "" : actual,
            ""));
  }

  private static Map<Long, String> byTimestamp(List<TimedCell> cells) {
    Map<Long, String> m = new LinkedHashMap<>();
    for (TimedCell c : cells) {
      m.putIfAbsent(c.timestamp(), c.value());
    }
    return m;
  }

  private static List<TimedCell> newest(List<TimedCell> versionsNewestFirst, int n) {
    return versionsNewestFirst.size() <= n
        ? versionsNewestFirst
        : versionsNewestFirst.subList(0, Math.max(0, n));
  }

  /**
   * The invariant violations of one row of a history table kept by {@code rule}, found in table
   * {@code table}.
   */
  static Violations violations(String table, Row r, HistorySettings rule) {
    int versions = rule.versions();
    ScheduleConfig cfg = rule.schedule();
    List<Finding> before = new ArrayList<>();
    List<Finding> out = new ArrayList<>();
    Violations found = new Violations(before, urcViolations(table, r), out);
    String row = r.row();
    for (TimedCell c : r.other()) {
      before.add(
          finding(
              Kind.MALFORMED,
              table,
              row,
              c.family() + ":" + c.qualifier(),
              c.value(),
              "not a column of the history table (crawl:, sched:, urc:)"));
    }
    List<io.webindex.core.history.Crawl> crawls = new ArrayList<>();
    for (TimedCell c : newest(r.crawls(), versions)) {
      try {
        crawls.add(HistorySchema.decodeCrawl(c.timestamp(), c.value()));
      } catch (IllegalArgumentException e) {
        before.add(malformed(table, row, HistorySchema.FAM_CRAWL, c, e));
      }
    }
    String schedColumn = HistorySchema.FAM_SCHED + ":";
    if (r.scheds().isEmpty()) {
      if (!r.crawls().isEmpty()) {
        out.add(
            finding(
                Kind.SCHEDULE_MISSING,
                table,
                row,
                schedColumn,
                "",
                r.crawls().size() + " crawl versions and no schedule"));
      }
      return found;
    }
    String value = r.scheds().get(0).value();
    io.webindex.core.history.Schedule s;
    try {
      s = HistorySchema.decodeSchedule(value);
    } catch (IllegalArgumentException e) {
      out.add(finding(Kind.MALFORMED, table, row, schedColumn, value, e.getMessage()));
      return found;
    }
    if (r.crawls().isEmpty()) {
      out.add(
          finding(
              Kind.SCHEDULE_MISSING,
              table,
              row,
              schedColumn,
              value,
              "a schedule without crawl versions"));
      return found;
    }
    // crawls seen = versions kept while under the limit
    int kept = newest(r.crawls(), versions).size();
    int expectKept = Math.min(s.crawls(), versions);
    if (kept != expectKept) {
      out.add(
          finding(
              Kind.HISTORY_CRAWLS_MISMATCH,
              table,
              row,
              schedColumn,
              value,
              "crawls="
                  + s.crawls()
                  + " but "
                  + kept
                  + " crawl versions kept (limit "
                  + versions
                  + ")"));
    } else if (s.crawls() <= versions && crawls.size() == kept) {
      // the whole history is in the table: first crawl, changes and last change follow from it
      long first = crawls.get(crawls.size() - 1).crawledMillis();
      int changes = 0;
      long modified = first;
      for (int i = crawls.size() - 2; i >= 0; i--) {
        if (!crawls.get(i).signature().equals(crawls.get(i + 1).signature())) {
          changes++;
          modified = crawls.get(i).crawledMillis();
        }
      }
      if (first != s.firstCrawlMillis()
          || changes != s.changes()
          || modified != s.lastModifiedMillis()) {
        out.add(
            finding(
                Kind.HISTORY_CRAWLS_MISMATCH,
                table,
                row,
                schedColumn,
                value,
                "the crawl versions say first="
                    + HistorySchema.iso(first)
                    + " changes="
                    + changes
                    + " modified="
                    + HistorySchema.iso(modified)));
      }
    }
    // last crawl = newest version
    long newest = r.crawls().get(0).timestamp();
    if (s.lastCrawlMillis() != newest) {
      out.add(
          finding(
              Kind.HISTORY_LAST_MISMATCH,
              table,
              row,
              schedColumn,
              value,
              "the newest crawl version is at " + HistorySchema.iso(newest)));
    }
    String why = scheduleRule(s, cfg);
    if (why != null) {
      out.add(finding(Kind.SCHEDULE_MISMATCH, table, row, schedColumn, value, why));
    }
    return found;
  }

  /** The invariant violations of a row's urc series: each point one the codec reads. */
  static List<Finding> urcViolations(String table, Row r) {
    List<Finding> out = List.of();
    for (TimedCell c : r.urcs()) {
      try {
        HistorySchema.decodeUrc(c.value());
      } catch (IllegalArgumentException e) {
        if (out.isEmpty()) {
          out = new ArrayList<>();
        }
        out.add(malformed(table, r.row(), HistorySchema.FAM_URC, c, e));
      }
    }
    return out;
  }

  /**
   * Why a schedule breaks the rule's invariants, or null: the interval within [min, max] (the
   * default after one crawl), at least the time since the last change (sync delta on, unless the
   * maximum caps it), and {@code next = reference + interval} with {@code reference = last −
   * round((last − modified) / 1000 × syncDeltaRate) s} (sync delta on) or {@code last} (off).
   */
  static String scheduleRule(io.webindex.core.history.Schedule s, ScheduleConfig cfg) {
    long interval = s.intervalSeconds();
    if (interval < cfg.minIntervalSeconds() || interval > cfg.maxIntervalSeconds()) {
      return "interval "
          + interval
          + " s outside ["
          + cfg.minIntervalSeconds()
          + ", "
          + cfg.maxIntervalSeconds()
          + "]";
    }
    long clampedDefault =
        Math.max(
            cfg.minIntervalSeconds(),
            Math.min(cfg.maxIntervalSeconds(), cfg.defaultIntervalSeconds()));
    if (s.crawls() == 1 && interval != clampedDefault) {
      return "one crawl, but interval " + interval + " s is not the default " + clampedDefault;
    }
    long reference = s.lastCrawlMillis();
    if (cfg.syncDelta()) {
      long delta = (s.lastCrawlMillis() - s.lastModifiedMillis()) / 1000;
      if (interval < Math.min(delta, cfg.maxIntervalSeconds())) {
        return "interval " + interval + " s shorter than the " + delta + " s since the last change";
      }
      reference = s.lastCrawlMillis() - 1000 * Math.round(delta * cfg.syncDeltaRate());
    }
    long next = reference + 1000 * interval;
    if (s.nextFetchMillis() != next) {
      return "next should be "
          + HistorySchema.iso(next)
          + " (reference "
          + HistorySchema.iso(reference)
          + " + "
          + interval
          + " s)";
    }
    return null;
  }

  private static Finding finding(
      Kind kind, String table, String row, String column, String value, String detail) {
    return new Finding(kind, table, RANGE, row, column, "", value, detail);
  }
}
