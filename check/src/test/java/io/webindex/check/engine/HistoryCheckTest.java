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
