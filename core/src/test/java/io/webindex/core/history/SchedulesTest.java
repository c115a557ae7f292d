package io.webindex.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Schedule sequences computed by hand in the comments (times in seconds unless said). */
class SchedulesTest {
  private static Crawl ok(long seconds, String sig) {
    return okMs(seconds * 1000, sig);
  }

  private static Crawl okMs(long ms, String sig) {
    return new Crawl(ms, CrawlStatus.OK, "sha1:" + sig, 3);
  }

  private static Crawl gone(long ms) {
    return new Crawl(ms, CrawlStatus.GONE, "", 0);
  }

  /** The intervals after each prefix of {@code crawls}. */
  private static List<Long> intervals(List<Crawl> crawls, ScheduleConfig cfg) {
    List<Long> out = new ArrayList<>();
    for (int i = 1; i <= crawls.size(); i++) {
      out.add(Schedules.of(crawls.subList(0, i), cfg).intervalSeconds());
    }
    return out;
  }

  @Test
  void unchangedRunsGrowToTheMaximumAndChangesShrinkToTheMinimum() {
    ScheduleConfig cfg = new ScheduleConfig(1000, 100, 3000, 0.4, 0.2, false, 0.3);
    // unchanged: 1000; ×1.4 = 1400; 1960; 2744; 3841.6 → 3842 → clamped to 3000
    // changed every time after: ×0.8: 2400, 1920, 1536, 1228.8 → 1229, 983.2 → 983,
    // 786.4 → 786, 628.8 → 629, 503.2 → 503, 402.4 → 402, 321.6 → 322, 257.6 → 258,
    // 206.4 → 206, 164.8 → 165, 132, 105.6 → 106, 84.8 → 85 → clamped to 100; then 80 → 100
    List<Long> expected =
        List.of(
            1000L, 1400L, 1960L, 2744L, 3000L, 2400L, 1920L, 1536L, 1229L, 983L, 786L, 629L, 503L,
            402L, 322L, 258L, 206L, 165L, 132L, 106L, 100L, 100L);
    List<Crawl> crawls = new ArrayList<>();
    long t = 0;
    for (int i = 0; i < expected.size(); i++) {
      crawls.add(ok(t, i < 5 ? "A" : "C" + i));
      t += 5000;
    }
    assertEquals(expected, intervals(crawls, cfg));
    Schedule s = Schedules.of(crawls, cfg);
    assertEquals(22, s.crawls());
    assertEquals(17, s.changes());
    // without sync delta the next fetch is the last crawl plus the interval
    assertEquals(105_000_000L + 100_000, s.nextFetchMillis());
    assertEquals(105_000_000L, s.lastModifiedMillis());
    assertEquals(0, s.firstCrawlMillis());
  }

  @Test
  void syncDeltaPullsTheNextFetchBackAndLiveToGoneIsAChange() {
    ScheduleConfig cfg = new ScheduleConfig(1000, 100, 100_000, 0.4, 0.2, true, 0.3);
    List<Crawl> crawls =
        List.of(
            ok(0, "A"), // interval 1000, modified 0, next 1000
            ok(1000, "A"), // 1400; delta 1000; max 1400; ref 1000-300 = 700; next 2100
            ok(2100, "A"), // 1960; delta 2100 → 2100; ref 2100-630 = 1470; next 3570
            ok(3570, "B"), // changed: 1680; modified 3570, delta 0; next 5250
            ok(5250, "B"), // 2352; delta 1680; ref 5250-504 = 4746; next 7098
            gone(7_098_000), // changed: 1881.6 → 1882; modified 7098; next 8980
            // unchanged (gone again) 700 ms later than 8980 s: 2634.8 → 2635; delta
            // (8980.7-7098) s rounded down = 1882; ref = 8980.7 s - round(564.6) = 565 s
            // → 8415.7 s; next = 8415.7 + 2635 = 11050.7 s
            gone(8_980_700));
    long[] next = {1000_000, 2100_000, 3570_000, 5250_000, 7098_000, 8980_000, 11_050_700};
    for (int i = 0; i < crawls.size(); i++) {
      assertEquals(
          next[i], Schedules.of(crawls.subList(0, i + 1), cfg).nextFetchMillis(), "after " + i);
    }
    assertEquals(List.of(1000L, 1400L, 2100L, 1680L, 2352L, 1882L, 2635L), intervals(crawls, cfg));
    Schedule s = Schedules.of(crawls, cfg);
    assertEquals(new Schedule(0, 8_980_700, 7, 2, 2635, 11_050_700, 7_098_000), s);
  }

  @Test
  void syncDeltaClampsAtTheMaximum() {
    ScheduleConfig cfg = new ScheduleConfig(1000, 100, 1500, 0.4, 0.2, true, 0.3);
    // 1400; delta 5000 → 5000 → clamped 1500; ref = 5000 - 1500 = 3500; next = 3500 + 1500
    Schedule s = Schedules.of(List.of(ok(0, "A"), ok(5000, "A")), cfg);
    assertEquals(1500, s.intervalSeconds());
    assertEquals(5000_000, s.nextFetchMillis());
  }

  @Test
  void theShippedDefaults() {
    ScheduleConfig d = ScheduleConfig.DEFAULT;
    assertEquals(new ScheduleConfig(2_592_000, 60, 31_536_000, 0.4, 0.2, true, 0.3), d);
    // one crawl: next = crawl + 30 days
    assertEquals(
        1_700_000_000_000L + 2_592_000_000L,
        Schedules.of(List.of(ok(1_700_000_000L, "A")), d).nextFetchMillis());
  }

  @Test
  void badInputIsRefused() {
    ScheduleConfig cfg = ScheduleConfig.DEFAULT;
    assertThrows(IllegalArgumentException.class, () -> Schedules.of(List.of(), cfg));
    assertThrows(
        IllegalArgumentException.class, () -> Schedules.of(List.of(ok(10, "A"), ok(10, "B")), cfg));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ScheduleConfig(10, 100, 1000, 0.4, 0.2, true, 0.3));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ScheduleConfig(100, 100, 1000, 1.0, 0.2, true, 0.3));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ScheduleConfig(100, 100, 1000, 0.4, -0.1, true, 0.3));
  }
}
