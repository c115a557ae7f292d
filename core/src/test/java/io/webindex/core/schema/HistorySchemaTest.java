package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.history.Crawl;
import io.webindex.core.history.CrawlStatus;
import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.Schedule;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.index.HistoryCells;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.synth.RandomWeb;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The history codec's encodings (hand-written goldens), round trips, dump lines and cells. */
class HistorySchemaTest {
  static final String SIG = "sha1:F6TCAM4VXWWB2JTQFQ427CGKBT273C7B";
  static final long T = 1_429_328_113_000L; // 2015-04-18T03:35:13.000Z

  @Test
  void valueGoldens() {
    assertEquals("webindex_r1_history", HistorySchema.historyTable("webindex_r1"));
    Crawl ok = new Crawl(T, CrawlStatus.OK, SIG, 12);
    Crawl gone = new Crawl(T + 5, CrawlStatus.GONE, "", 0);
    assertEquals("ok " + SIG + " 12", HistorySchema.encodeCrawl(ok));
    assertEquals("gone - 0", HistorySchema.encodeCrawl(gone));
    assertEquals(ok, HistorySchema.decodeCrawl(T, "ok " + SIG + " 12"));
    assertEquals(gone, HistorySchema.decodeCrawl(T + 5, "gone - 0"));
    Schedule s = new Schedule(T, T + 86_400_123L, 3, 1, 3_628_800, T + 3_715_200_123L, T + 5);
    String v =
        "first=2015-04-18T03:35:13.000Z last=2015-04-19T03:35:13.123Z crawls=3 changes=1"
            + " interval=3628800 next=2015-05-31T03:35:13.123Z modified=2015-04-18T03:35:13.005Z";
    assertEquals(v, HistorySchema.encodeSchedule(s));
    assertEquals(s, HistorySchema.decodeSchedule(v));
    assertEquals("42", HistorySchema.encodeUrc(42));
    assertEquals(42, HistorySchema.decodeUrc("42"));
  }

  @Test
  void damagedValuesAreRefusedWithAMessage() {
    for (String bad : List.of("ok x", "ok sig -1", "maybe - 0", "gone x 0", "ok - 1")) {
      assertThrows(IllegalArgumentException.class, () -> HistorySchema.decodeCrawl(T, bad), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> HistorySchema.decodeUrc("-1"));
    assertThrows(IllegalArgumentException.class, () -> HistorySchema.decodeUrc("007"));
    assertThrows(
        IllegalArgumentException.class, () -> HistorySchema.decodeSchedule("first=x last=y"));
    assertThrows(IllegalArgumentException.class, () -> HistorySchema.decodeFullHistory("1 2 ok"));
  }

  /**
   * A schedule value is read as splitting it at every space and taking each field after its name
   * would read it (the oracle below): the same schedule, or a refusal with the same message, for
   * good values and for values damaged in every way (characters dropped, spaces added, fields
   * swapped or emptied).
   */
  @Test
  void aScheduleIsReadAsSplittingItsFieldsReadsIt() {
    java.util.Random r = new java.util.Random(5);
    List<String> names =
        List.of("first", "last", "crawls", "changes", "interval", "next", "modified");
    int refused = 0;
    for (int i = 0; i < 3000; i++) {
      long first = T + r.nextInt(1_000_000_000);
      long last = first + r.nextInt(1_000_000_000);
      int crawls = 1 + r.nextInt(50);
      String v =
          HistorySchema.encodeSchedule(
              new Schedule(
                  first,
                  last,
                  crawls,
                  r.nextInt(crawls),
                  1 + r.nextInt(10_000_000),
                  last + r.nextInt(1_000_000_000),
                  first + (long) (r.nextDouble() * (last - first))));
      StringBuilder b = new StringBuilder(v);
      switch (i % 6) {
        case 1 -> b.deleteCharAt(r.nextInt(b.length()));
        case 2 -> b.insert(r.nextInt(b.length() + 1), ' ');
        case 3 -> {
          String[] f = v.split(" ", -1);
          int a = r.nextInt(f.length);
          int c = r.nextInt(f.length);
          String t = f[a];
          f[a] = f[c];
          f[c] = t;
          b = new StringBuilder(String.join(" ", f));
        }
        case 4 -> b.replace(0, b.indexOf(" "), "");
        case 5 -> b.setCharAt(r.nextInt(b.length()), "x= 0:".charAt(r.nextInt(5)));
        default -> {}
      }
      String value = b.toString();
      String want;
      try {
        String[] f = value.split(" ", -1);
        if (f.length != names.size()) {
          throw new IllegalArgumentException("not a schedule: " + value);
        }
        String[] x = new String[f.length];
        for (int k = 0; k < f.length; k++) {
          if (!f[k].startsWith(names.get(k) + "=")) {
            throw new IllegalArgumentException(
                "schedule field " + (k + 1) + " is not " + names.get(k) + "=: " + value);
          }
          x[k] = f[k].substring(names.get(k).length() + 1);
        }
        want =
            new Schedule(
                    HistorySchema.parseIso(x[0]),
                    HistorySchema.parseIso(x[1]),
                    Integer.parseInt(x[2]),
                    Integer.parseInt(x[3]),
                    Long.parseLong(x[4]),
                    HistorySchema.parseIso(x[5]),
                    HistorySchema.parseIso(x[6]))
                .toString();
      } catch (IllegalArgumentException e) {
        want =
            e.getMessage().startsWith("not a schedule")
                    || e.getMessage().startsWith("schedule field")
                ? e.getMessage()
                : "bad schedule '" + value + "': " + e.getMessage();
        refused++;
      }
      String got;
      try {
        got = HistorySchema.decodeSchedule(value).toString();
      } catch (IllegalArgumentException e) {
        got = e.getMessage();
      }
      assertEquals(want, got, value);
    }
    assertEquals(true, refused > 1000 && refused < 3000, "refused " + refused);
  }

  @Test
  void fullHistoryGoldenAndRoundTrip() {
    Instant t = Instant.ofEpochMilli(T).plusNanos(250_000);
    HistoryEntry a =
        new HistoryEntry(
            new Crawl(T, CrawlStatus.OK, SIG, 12), new PageVersion(t, 3, "dir/part 0.jsonl", 130));
    HistoryEntry b =
        new HistoryEntry(
            new Crawl(T + 1000, CrawlStatus.GONE, "", 0),
            new PageVersion(Instant.ofEpochMilli(T + 1000), 4, "odd\\name\nx", 0));
    String enc = HistorySchema.encodeFullHistory(List.of(a, b));
    assertEquals(
        "1429328113000 250000 ok "
            + SIG
            + " 12 3 130 dir/part 0.jsonl\n1429328114000 0 gone - 0 4 0 odd\\\\name\\nx",
        enc);
    assertEquals(List.of(a, b), HistorySchema.decodeFullHistory(enc));
    assertEquals(List.of(), HistorySchema.decodeFullHistory(""));
  }

  @Test
  void randomHistoriesRoundTrip() {
    RandomWeb web = new RandomWeb(31, 30);
    Map<String, List<Page>> byKey = new HashMap<>();
    for (long b = 1; b <= 4; b++) {
      for (Page p : web.batch(b, 100)) {
        byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
      }
    }
    for (List<Page> versions : byKey.values()) {
      List<HistoryEntry> h = Histories.of(versions);
      assertEquals(h, HistorySchema.decodeFullHistory(HistorySchema.encodeFullHistory(h)));
      for (TimedCell c : HistoryCells.of(versions.get(0).key(), h, ScheduleConfig.DEFAULT, 4)) {
        assertEquals(c, DumpFormat.parseTimed(DumpFormat.line(c)));
      }
    }
  }

  @Test
  void dumpLinesAndCells() {
    ScheduleConfig cfg = new ScheduleConfig(1000, 100, 100_000, 0.4, 0.2, false, 0.3);
    List<HistoryEntry> h = new ArrayList<>();
    String[] sigs = {SIG, SIG, ""};
    for (int i = 0; i < 3; i++) {
      Instant when = Instant.ofEpochMilli(T + 1000L * i);
      CrawlStatus st = sigs[i].isEmpty() ? CrawlStatus.GONE : CrawlStatus.OK;
      h.add(
          new HistoryEntry(
              new Crawl(T + 1000L * i, st, sigs[i], sigs[i].isEmpty() ? 0 : 2),
              new PageVersion(when, 1, "f", i)));
    }
    // intervals: 1000; unchanged ×1.4 = 1400; changed (gone) ×0.8 = 1120; next = T+2 s + 1120 s
    List<String> lines = new ArrayList<>();
    for (TimedCell c : HistoryCells.of("com.a/p", h, cfg, 2)) {
      lines.add(DumpFormat.line(c));
    }
    assertEquals(
        List.of(
            "com.a/p\tcrawl:\t@2015-04-18T03:35:15.000Z\tgone - 0",
            "com.a/p\tcrawl:\t@2015-04-18T03:35:14.000Z\tok " + SIG + " 2",
            "com.a/p\tsched:\t@0\tfirst=2015-04-18T03:35:13.000Z last=2015-04-18T03:35:15.000Z"
                + " crawls=3 changes=1 interval=1120 next=2015-04-18T03:53:55.000Z"
                + " modified=2015-04-18T03:35:15.000Z"),
        lines);
    assertEquals(
        "com.a/p\turc:\t@2015-04-18T03:35:13.000Z\t7",
        DumpFormat.line(HistorySchema.urcCell("com.a/p", T, 7)));
  }

  @Test
  void changesBetweenTwoHistories() {
    ScheduleConfig cfg = ScheduleConfig.DEFAULT;
    Page p1 = page(T, 1, "t1");
    Page p2 = page(T + 60_000, 2, "t2");
    Page stale = page(T - 60_000, 3, "t0");
    List<HistoryEntry> h1 = Histories.of(List.of(p1));
    List<HistoryEntry> h2 = Histories.add(h1, p2);
    long ts = 5L << 40;
    // a new crawl: its version and the schedule (delete below, put at the export timestamp)
    List<TimedCellChange> c = HistoryCells.changes("com.a", h1, h2, cfg, 2, ts);
    TimedCell sched2 = HistorySchema.scheduleCell("com.a", HistoryCells.schedule(h2, cfg), ts);
    assertEquals(
        List.of(
            new TimedCellChange.Put(HistorySchema.crawlCell("com.a", h2.get(1).crawl())),
            new TimedCellChange.Delete(sched2.column(), ts - 1),
            new TimedCellChange.Put(sched2)),
        c);
    // a duplicate: nothing
    assertEquals(List.of(), HistoryCells.changes("com.a", h2, Histories.add(h2, p2), cfg, 2, ts));
    // a stale version older than the two kept: only the schedule (it counts one crawl more)
    List<HistoryEntry> h3 = Histories.add(h2, stale);
    List<TimedCellChange> c3 = HistoryCells.changes("com.a", h2, h3, cfg, 2, ts + 1);
    assertEquals(2, c3.size());
    assertEquals(HistorySchema.FAM_SCHED, c3.get(1).column().family());
    assertEquals(
        3, HistorySchema.decodeSchedule(((TimedCellChange.Put) c3.get(1)).cell().value()).crawls());
    // from nothing: every cell of the history
    List<TimedCellChange> all = HistoryCells.changes("com.a", List.of(), h3, cfg, 2, ts);
    assertEquals(4, all.size());
  }

  private static Page page(long ms, long batch, String title) {
    return Page.of(
        "http://a.com/",
        "com.a",
        new PageVersion(Instant.ofEpochMilli(ms), batch, "f", 0),
        title,
        List.of());
  }

  /**
   * {@code parseIso} reads what {@code iso} writes, and every other string exactly as the JDK's
   * {@link Instant#parse} reads it (the same milliseconds, or a refusal): its own fast reading of
   * the codec's form must not change what is accepted.
   */
  @Test
  void parseIsoAgreesWithTheJdk() {
    java.util.Random r = new java.util.Random(20261126L);
    long min = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
    long max = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
    for (int i = 0; i < 200_000; i++) {
      long ms = i < 100_000 ? min + (long) (r.nextDouble() * (max - min)) : r.nextLong() >> 24;
      String iso = HistorySchema.iso(ms);
      assertEquals(ms, HistorySchema.parseIso(iso), iso);
      assertEquals(Instant.parse(iso).toEpochMilli(), HistorySchema.parseIso(iso), iso);
    }
    for (String s :
        List.of(
            "2015-04-18T03:35:13.000Z",
            "1969-12-31T23:59:59.999Z",
            "0000-01-01T00:00:00.000Z",
            "2016-02-29T12:00:00.000Z",
            "2015-02-29T12:00:00.000Z",
            "2015-04-31T00:00:00.000Z",
            "2015-00-10T00:00:00.000Z",
            "2015-13-10T00:00:00.000Z",
            "2015-04-00T00:00:00.000Z",
            "2015-04-18T24:00:00.000Z",
            "2015-12-31T23:59:60.000Z",
            "2015-04-18T23:60:00.000Z",
            "2015-04-18T03:35:13Z",
            "2015-04-18T03:35:13.1Z",
            "2015-04-18T03:35:13.123456Z",
            "2015-04-18t03:35:13.000Z",
            "2015-04-18T03:35:13.000z",
            "2015-04-18T03:35:13.000+01:00",
            "+12015-04-18T03:35:13.000Z",
            "-0001-04-18T03:35:13.000Z",
            "2015-04-18T03:35:1a.000Z",
            "2015-04-18T03:35:13.-00Z",
            "２015-04-18T03:35:13.000Z",
            "")) {
      Long jdk;
      try {
        jdk = Instant.parse(s).toEpochMilli();
      } catch (java.time.DateTimeException e) {
        jdk = null;
      }
      if (jdk == null) {
        assertThrows(IllegalArgumentException.class, () -> HistorySchema.parseIso(s), s);
      } else {
        assertEquals(jdk.longValue(), HistorySchema.parseIso(s), s);
      }
    }
  }
}
