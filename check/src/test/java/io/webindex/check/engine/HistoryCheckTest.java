package io.webindex.check.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.history.Schedule;
import io.webindex.core.history.ScheduleConfig;
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
}
