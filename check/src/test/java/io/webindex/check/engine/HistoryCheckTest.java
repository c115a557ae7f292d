package io.webindex.check.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.history.HistorySettings;
import io.webindex.core.history.Schedule;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.schema.TimedCell;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The schedule rule's invariant, on hand-computed schedules. */
class HistoryCheckTest {
  static final ScheduleConfig CFG = ScheduleConfig.DEFAULT;
  static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  @Test
  void oneCrawlIsTheDefaultIntervalFromTheCrawl() {
    // 30 days = 2,592,000 s after the only crawl
    Schedule s = new Schedule(T0, T0, 1, 0, 2_592_000, T0 + 2_592_000_000L, T0);
    assertNull(HistoryCheck.scheduleRule(s, CFG));
    Schedule other = new Schedule(T0, T0, 1, 0, 2_592_001, T0 + 2_592_001_000L, T0);
    assertTrue(HistoryCheck.scheduleRule(other, CFG).startsWith("one crawl"));
  }

  @Test
  void syncDeltaPullsTheReferenceBackByAPartOfTheTimeSinceTheLastChange() {
    // last change at T0, last crawl 10 days (864,000 s) later, interval 1,000,000 s:
    // reference = last - round(864000 * 0.3) s = last - 259,200 s = Jan 8 00:00;
    // next = reference + 1,000,000 s (11 d 13 h 46 min 40 s) = Jan 19 13:46:40
    long last = T0 + 864_000_000L;
    long next = last - 259_200_000L + 1_000_000_000L;
    assertNull(HistoryCheck.scheduleRule(new Schedule(T0, last, 2, 1, 1_000_000, next, T0), CFG));
    String why =
        HistoryCheck.scheduleRule(new Schedule(T0, last, 2, 1, 1_000_000, next + 1, T0), CFG);
    assertTrue(
        why.startsWith(
            "next should be 2026-01-19T13:46:40.000Z (reference 2026-01-08T00:00:00.000Z"),
        why);
    // an interval shorter than the 864,000 s since the last change breaks the rule
    assertTrue(
        HistoryCheck.scheduleRule(
                new Schedule(T0, last, 2, 1, 800_000, last - 259_200_000L + 800_000_000L, T0), CFG)
            .contains("shorter than"));
    // without sync delta the reference is the last crawl
    ScheduleConfig plain = new ScheduleConfig(2_592_000, 60, 31_536_000, 0.4, 0.2, false, 0.3);
    assertNull(
        HistoryCheck.scheduleRule(
            new Schedule(T0, last, 2, 1, 800_000, last + 800_000_000L, T0), plain));
    assertEquals(
        "interval 59 s outside [60, 31536000]",
        HistoryCheck.scheduleRule(new Schedule(T0, last, 2, 1, 59, last + 59_000L, T0), plain));
  }

  /**
   * A table's row invariants are reported the same whether they were found on the row itself or
   * taken from its twin in the other table (a row equal to it, or equal but for its urc series): on
   * random tables whose rows break every invariant the rows can break, each table's violations,
   * kind by kind in order, are those of its rows checked one by one.
   */
  @Test
  void aRowsViolationsAreItsOwnWhetherOrNotItsTwinWasCheckedFirst() {
    java.util.Random rnd = new java.util.Random(20261129L);
    HistorySettings rule = new HistorySettings(3, CFG);
    HistorySettings other =
        new HistorySettings(3, new ScheduleConfig(2_592_000, 60, 31_536_000, 0.4, 0.2, false, 0.3));
    int taken = 0;
    for (HistorySettings actualRule : List.of(rule, other)) {
      List<HistoryCheck.Row> expected = new java.util.ArrayList<>();
      List<HistoryCheck.Row> actual = new java.util.ArrayList<>();
      for (int i = 0; i < 400; i++) {
        String row = String.format("com.h%04d", i);
        HistoryCheck.Row e = randomRow(rnd, row);
        int what = rnd.nextInt(10);
        HistoryCheck.Row a;
        if (what < 4) {
          a = e; // the same cells
        } else if (what < 7) {
          a = withUrcs(e, randomRow(rnd, row).urcs()); // another run's urc series
        } else if (what < 8) {
          a = randomRow(rnd, row);
        } else if (what < 9) {
          a = null; // only in the expected table
        } else {
          a = e;
          e = null; // only in the actual table
        }
        if (e != null) {
          expected.add(e);
        }
        if (a != null) {
          actual.add(a);
        }
        taken += e != null && a != null && a.sameButUrcs(e) ? 1 : 0;
      }
      CheckAccumulator acc = new CheckAccumulator(1_000_000);
      new HistoryCheck(rule, actualRule, Exclusions.NONE, acc)
          .run(cells(expected).iterator(), cells(actual).iterator());
      java.util.Map<Kind, List<String>> oracle = new java.util.TreeMap<>();
      java.util.Map<String, HistoryCheck.Row> byRow = new java.util.TreeMap<>();
      java.util.Map<String, HistoryCheck.Row> aByRow = new java.util.TreeMap<>();
      expected.forEach(r -> byRow.put(r.row(), r));
      actual.forEach(r -> aByRow.put(r.row(), r));
      java.util.Set<String> rows = new java.util.TreeSet<>(byRow.keySet());
      rows.addAll(aByRow.keySet());
      for (String row : rows) {
        if (byRow.containsKey(row)) {
          byKind(
              oracle,
              HistoryCheck.violations(CheckAccumulator.EXPECTED, byRow.get(row), rule).all());
        }
        if (aByRow.containsKey(row)) {
          byKind(
              oracle,
              HistoryCheck.violations(CheckAccumulator.ACTUAL, aByRow.get(row), actualRule).all());
        }
      }
      java.util.Map<Kind, List<String>> reported = new java.util.TreeMap<>();
      byKind(reported, acc.samples().stream().filter(f -> !f.table().equals("both")).toList());
      assertEquals(oracle, reported, "actual table's rule " + actualRule);
      // every part of a row was broken somewhere, in both tables
      for (Kind k :
          List.of(
              Kind.MALFORMED,
              Kind.SCHEDULE_MISSING,
              Kind.HISTORY_CRAWLS_MISMATCH,
              Kind.HISTORY_LAST_MISMATCH)) {
        assertTrue(
            acc.invariants().get("actual").getOrDefault(k, 0L) > 5
                && acc.invariants().get("expected").getOrDefault(k, 0L) > 5,
            k + ": " + acc.invariants());
      }
      long urcMalformed =
          acc.samples().stream()
              .filter(f -> f.table().equals("actual") && f.column().startsWith("urc:"))
              .count();
      assertTrue(urcMalformed > 20, "malformed urc points of the actual table: " + urcMalformed);
    }
    assertTrue(taken > 400, "rows whose violations could be taken from their twin: " + taken);
  }

  /** Adds {@code findings} to {@code out}, kind by kind, in order. */
  private static void byKind(java.util.Map<Kind, List<String>> out, List<Finding> findings) {
    for (Finding f : findings) {
      out.computeIfAbsent(f.kind(), k -> new java.util.ArrayList<>()).add(f.toString());
    }
  }

  /**
   * A random row: up to three crawl versions (one in four malformed), a schedule (valid for two
   * crawls of one signature, malformed, or none), up to four urc points (one in four malformed),
   * now and then a column of no family of the table.
   */
  private static HistoryCheck.Row randomRow(java.util.Random rnd, String row) {
    HistoryCheck.Row r = HistoryCheck.Row.empty(row);
    int crawls = rnd.nextInt(4);
    for (int c = crawls; c > 0; c--) {
      long t = T0 + c * 864_000_000L;
      r.add(new TimedCell(row, "crawl", "", t, rnd.nextInt(4) == 0 ? "junk" : "ok sha1:AAAA 1"));
    }
    int sched = rnd.nextInt(4);
    if (sched < 2) {
      r.add(
          new TimedCell(
              row,
              "sched",
              "",
              0,
              "first=2026-01-11T00:00:00.000Z last=2026-01-21T00:00:00.000Z crawls=2 changes=0"
                  + " interval=3628800 next=2026-03-01T00:00:00.000Z"
                  + " modified=2026-01-11T00:00:00.000Z"));
    } else if (sched == 2) {
      r.add(new TimedCell(row, "sched", "", 0, "not a schedule"));
    }
    int urcs = rnd.nextInt(5);
    for (int u = urcs; u > 0; u--) {
      r.add(
          new TimedCell(
              row,
              "urc",
              "",
              T0 + u * 1000L + rnd.nextInt(1000),
              rnd.nextInt(4) == 0 ? "x" + u : Integer.toString(rnd.nextInt(50))));
    }
    if (rnd.nextInt(20) == 0) {
      r.add(new TimedCell(row, "zz", "", 1, "?"));
    }
    return r;
  }

  private static HistoryCheck.Row withUrcs(HistoryCheck.Row r, List<TimedCell> urcs) {
    return new HistoryCheck.Row(r.row(), r.crawls(), r.scheds(), urcs, r.other());
  }

  /** The rows' cells in Accumulo's key order (rows in order, a row's families in order). */
  private static List<TimedCell> cells(List<HistoryCheck.Row> rows) {
    List<TimedCell> out = new java.util.ArrayList<>();
    for (HistoryCheck.Row r : rows) {
      List<TimedCell> row = new java.util.ArrayList<>();
      row.addAll(r.crawls());
      row.addAll(r.scheds());
      row.addAll(r.urcs());
      row.addAll(r.other());
      row.sort(TimedCell.ORDER);
      out.addAll(row);
    }
    return out;
  }

  /** One crawl version of row {@code com.a}, value written out literally. */
  private static TimedCell crawl(String when, String value) {
    return new TimedCell("com.a", "crawl", "", Instant.parse(when).toEpochMilli(), value);
  }

  private static TimedCell sched(String value) {
    return new TimedCell("com.a", "sched", "", 0, value);
  }

  /**
   * Each table is checked by the rule it records, and rules that differ are named. By hand: crawls
   * of one signature on Jan 1 and Jan 11 (unchanged): interval 2,592,000 × 1.4 = 3,628,800 s (42
   * d); with sync delta (10 d since the last change): next = Jan 11 − round(864,000 × 0.3) s +
   * 3,628,800 s = Jan 11 + 39 d = Feb 19; without it next = Jan 11 + 42 d = Feb 22.
   */
  @Test
  void eachTableIsCheckedByItsOwnRuleAndDifferentRulesAreNamed() {
    List<TimedCell> crawls =
        List.of(
            crawl("2026-01-11T00:00:00Z", "ok sha1:AAAA 1"),
            crawl("2026-01-01T00:00:00Z", "ok sha1:AAAA 1"));
    String common =
        "first=2026-01-01T00:00:00.000Z last=2026-01-11T00:00:00.000Z crawls=2 changes=0"
            + " interval=3628800 next=";
    String modified = " modified=2026-01-01T00:00:00.000Z";
    String synced = common + "2026-02-19T00:00:00.000Z" + modified;
    String plainNext = common + "2026-02-22T00:00:00.000Z" + modified;
    HistorySettings syncRule = new HistorySettings(16, CFG);
    HistorySettings plainRule =
        new HistorySettings(
            16, new ScheduleConfig(2_592_000, 60, 31_536_000, 0.4, 0.2, false, 0.3));
    List<TimedCell> expected = new java.util.ArrayList<>(crawls);
    expected.add(0, sched(synced));
    List<TimedCell> actual = new java.util.ArrayList<>(crawls);
    actual.add(0, sched(plainNext));
    expected.sort(TimedCell.ORDER);
    actual.sort(TimedCell.ORDER);

    // checked by their own rules, both tables keep their invariants; their difference is named
    CheckAccumulator acc = new CheckAccumulator(10);
    new HistoryCheck(syncRule, plainRule, Exclusions.NONE, acc)
        .run(expected.iterator(), actual.iterator());
    assertTrue(acc.invariants().isEmpty(), acc.invariants().toString());
    assertEquals(
        List.of(
            "DIFFERENT (settings) settings:webindex.schedule.sync.delta true false",
            "DIFFERENT com.a sched: " + synced + " " + plainNext),
        acc.samples().stream()
            .map(
                f ->
                    f.kind()
                        + " "
                        + f.row()
                        + " "
                        + f.column()
                        + " "
                        + f.expected()
                        + " "
                        + f.actual())
            .collect(Collectors.toList()));

    // the same table checked by the other rule breaks it
    CheckAccumulator wrong = new CheckAccumulator(10);
    new HistoryCheck(syncRule, syncRule, Exclusions.NONE, wrong)
        .run(expected.iterator(), actual.iterator());
    assertEquals(1L, wrong.invariants().get("actual").get(Kind.SCHEDULE_MISMATCH));
  }
}
