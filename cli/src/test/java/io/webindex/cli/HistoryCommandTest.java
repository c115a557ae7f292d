package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.history.Crawl;
import io.webindex.core.history.CrawlStatus;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.HistoryQuery.Change;
import io.webindex.store.HistoryQuery.HistoryAnswer;
import io.webindex.store.HistoryQuery.KeptCrawl;
import io.webindex.store.HistoryQuery.UrcPoint;
import io.webindex.testkit.HistoryFixture;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text form of {@code bin/webindex history}, against hand-written lines. */
class HistoryCommandTest {
  private static long ms(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  @Test
  void aCrawledPageWithMoreToFollow() {
    HistoryAnswer a =
        new HistoryAnswer(
            "t_history",
            "com.d",
            "http://d.com/",
            true,
            HistorySchema.decodeSchedule(HistoryFixture.D_SCHEDULE),
            List.of(
                new KeptCrawl(
                    new Crawl(ms("2026-11-20T10:02:00Z"), CrawlStatus.OK, HistoryFixture.S2, 1),
                    Change.CHANGED),
                new KeptCrawl(
                    new Crawl(ms("2026-10-21T10:02:00Z"), CrawlStatus.GONE, "", 0),
                    Change.CHANGED)),
            "CURSOR",
            List.of(
                new UrcPoint(ms(HistoryFixture.RUN1), 0),
                new UrcPoint(ms(HistoryFixture.RUN3), 0)));
    assertEquals(
        List.of(
            "page http://d.com/  crawls 4  changes 2",
            "first 2026-10-01T10:02:00.000Z  last 2026-11-20T10:02:00.000Z"
                + "  modified 2026-11-20T10:02:00.000Z",
            "interval 2322432 s (26 d 21 h)  next fetch 2026-12-17T07:09:12.000Z",
            "2026-11-20T10:02:00.000Z\tok\tchanged\tsha1:Q3OG3UBCBNXGFQRQD5ZKQNGYKTAWCIVP\t1",
            "2026-10-21T10:02:00.000Z\tgone\tchanged\t-\t0",
            "urc\t2026-10-15T00:00:00.000Z\t0",
            "urc\t2026-11-21T00:00:00.000Z\t0",
            "next: --after CURSOR"),
        HistoryCommand.lines(a));
  }

  @Test
  void aPageOnlyLinkedTo() {
    HistoryAnswer a =
        new HistoryAnswer(
            "t_history",
            "com.c",
            "http://c.com/",
            true,
            null,
            List.of(),
            null,
            List.of(new UrcPoint(ms(HistoryFixture.RUN2), 2)));
    assertEquals(
        List.of("page http://c.com/  never crawled", "urc\t2026-11-01T00:00:00.000Z\t2"),
        HistoryCommand.lines(a));
  }
}
