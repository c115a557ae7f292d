package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.history.Crawl;
import io.webindex.core.history.CrawlStatus;
import io.webindex.core.history.Schedule;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.history.Schedules;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.HistoryQuery.Change;
import io.webindex.store.HistoryQuery.HistoryAnswer;
import io.webindex.store.HistoryQuery.KeptCrawl;
import io.webindex.store.HistoryQuery.UrcPoint;
import io.webindex.testkit.HistoryFixture;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parts of {@link HistoryQuery} that need no table: the change of each crawl, cursors, JSON.
 */
class HistoryQueryTest {
  private static final long T1 = ms("2026-10-01T10:02:00Z");
  private static final long T2 = ms("2026-10-11T10:02:00Z");
  private static final long T3 = ms("2026-10-21T10:02:00Z");
  private static final long T4 = ms("2026-11-20T10:02:00Z");
  private static final Crawl C1 = new Crawl(T1, CrawlStatus.OK, HistoryFixture.S1, 1);
  private static final Crawl C2 = new Crawl(T2, CrawlStatus.OK, HistoryFixture.S1, 1);
  private static final Crawl C3 = new Crawl(T3, CrawlStatus.GONE, "", 0);
  private static final Crawl C4 = new Crawl(T4, CrawlStatus.OK, HistoryFixture.S2, 1);
  private static final Schedule D = HistorySchema.decodeSchedule(HistoryFixture.D_SCHEDULE);

  private static long ms(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  /**
   * The fixture's hand-computed schedule is the one the shipped rule gives (a check of the golden).
   */
  @Test
  void theFixturesScheduleIsTheRulesSchedule() {
    assertEquals(D, Schedules.of(List.of(C1, C2, C3, C4), ScheduleConfig.DEFAULT));
  }

  @Test
  void eachCrawlIsComparedWithTheOneBeforeIt() {
    // all four kept: the oldest is the first crawl
    assertEquals(
        List.of(
            new KeptCrawl(C4, Change.CHANGED),
            new KeptCrawl(C3, Change.CHANGED),
            new KeptCrawl(C2, Change.UNCHANGED),
            new KeptCrawl(C1, Change.FIRST)),
        HistoryQuery.changes(List.of(C4, C3, C2, C1), 10, D));
    // the oldest crawl no longer kept: the oldest kept one has nothing to compare with
    assertEquals(
        List.of(
            new KeptCrawl(C4, Change.CHANGED),
            new KeptCrawl(C3, Change.CHANGED),
            new KeptCrawl(C2, Change.UNKNOWN)),
        HistoryQuery.changes(List.of(C4, C3, C2), 10, D));
    // a page of two read with one more crawl: the extra one decides the second's change only
    assertEquals(
        List.of(new KeptCrawl(C3, Change.CHANGED), new KeptCrawl(C2, Change.UNCHANGED)),
        HistoryQuery.changes(List.of(C3, C2, C1), 2, D));
    assertEquals(List.of(), HistoryQuery.changes(List.of(), 5, null));
  }

  @Test
  void cursorsRoundTripAndFitOnlyThisQuery() {
    assertEquals(T3, HistoryQuery.parseCursor(HistoryQuery.encodeCursor(T3)));
    assertEquals(-5L, HistoryQuery.parseCursor(HistoryQuery.encodeCursor(-5L)));
    String cursor = HistoryQuery.encodeCursor(T3);
    assertTrue(cursor.matches("[A-Za-z0-9_-]+"), cursor);
    // a cursor of another question, or one whose position is not a time
    String top = QueryService.encodeCursor("t", "7ffffffffffffffc:com.c");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HistoryQuery.parseCursor(top));
    assertTrue(e.getMessage().startsWith("not a cursor of this query"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> HistoryQuery.parseCursor(QueryService.encodeCursor("h", "yesterday")));
    assertThrows(IllegalArgumentException.class, () -> HistoryQuery.parseCursor("%%%"));
  }

  /** The JSON document, field for field (the shape docs/web.md shows). */
  @Test
  void jsonShape() throws Exception {
    HistoryAnswer a =
        new HistoryAnswer(
            "t_history",
            "com.d",
            "http://d.com/",
            true,
            D,
            List.of(new KeptCrawl(C4, Change.CHANGED), new KeptCrawl(C3, Change.CHANGED)),
            "aHwxNzkwODQ4NTIwMDAw",
            List.of(
                new UrcPoint(ms(HistoryFixture.RUN1), 0),
                new UrcPoint(ms(HistoryFixture.RUN3), 2)));
    String expected =
        """
        {"table":"t","history":"t_history","uri":"com.d","url":"http://d.com/",
         "schedule":{"first":"2026-10-01T10:02:00.000Z","last":"2026-11-20T10:02:00.000Z",
           "modified":"2026-11-20T10:02:00.000Z","crawls":4,"changes":2,
           "intervalSeconds":2322432,"nextFetch":"2026-12-17T07:09:12.000Z"},
         "crawls":[
           {"crawled":"2026-11-20T10:02:00.000Z","status":"ok","change":"changed",
            "signature":"sha1:Q3OG3UBCBNXGFQRQD5ZKQNGYKTAWCIVP","outlinks":1},
           {"crawled":"2026-10-21T10:02:00.000Z","status":"gone","change":"changed",
            "signature":null,"outlinks":0}],
         "next":"aHwxNzkwODQ4NTIwMDAw",
         "urc":[{"run":"2026-10-15T00:00:00.000Z","urc":0},{"run":"2026-11-21T00:00:00.000Z","urc":2}]}
        """;
    ObjectMapper json = new ObjectMapper();
    String actual = json.writeValueAsString(QueryAnswers.history("t", a));
    assertEquals(json.readTree(expected), json.readTree(actual));
    // the field order is fixed, as in the other answers
    assertEquals(
        expected.replaceAll("\\s+", ""), actual.replaceAll("\\s+", ""), "field order and values");
  }
}
