package io.webindex.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The crawl-time formats a reader accepts (docs/input.md); the instants are written by hand. A
 * wrong instant silently changes which version is current (latest crawl wins).
 */
class CrawlTimeTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          2026-11-20T10:00:00Z              | 2026-11-20T10:00:00Z
          2026-11-20T10:00:00z              | 2026-11-20T10:00:00Z
          '  2026-11-20T10:00:00Z  '        | 2026-11-20T10:00:00Z
          2026-11-20 10:00:00Z              | 2026-11-20T10:00:00Z
          2026-11-20T12:30:00+02:30         | 2026-11-20T10:00:00Z
          2026-11-20T10:00:00               | 2026-11-20T10:00:00Z
          2026-11-20T10:00:00.250Z          | 2026-11-20T10:00:00.250Z
          2026-11-20                        | 2026-11-20T00:00:00Z
          'Fri, 20 Nov 2026 10:00:00 GMT'   | 2026-11-20T10:00:00Z
          1700000000000                     | 2023-11-14T22:13:20Z
          100000000000000                   | 5138-11-16T09:46:40Z
          0                                 | 1970-01-01T00:00:00Z
          """)
  void accepted(String raw, String instant) throws Exception {
    assertEquals(Instant.parse(instant), RawPage.crawlTime(raw));
    assertEquals(Instant.parse(instant), RawPage.requireCrawlTime(raw, "crawled"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "1000000000000000",
        "2026-11-20T25:00:00Z",
        "2026-13-20",
        "20 Nov 2026",
        "yesterday",
        "2026-11-20X10:00:00Z"
      })
  void refused(String raw) {
    RawPage.RejectException e =
        assertThrows(RawPage.RejectException.class, () -> RawPage.crawlTime(raw));
    assertEquals(RejectReason.BAD_CRAWL_TIME, e.reason);
  }

  @ParameterizedTest(name = "[{index}] ''{0}''")
  @ValueSource(strings = {"", "   "})
  void blankIsNoTime(String raw) throws Exception {
    assertNull(RawPage.crawlTime(raw));
    RawPage.RejectException e =
        assertThrows(RawPage.RejectException.class, () -> RawPage.requireCrawlTime(raw, "crawled"));
    assertEquals(RejectReason.BAD_CRAWL_TIME, e.reason);
  }
}
