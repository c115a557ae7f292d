package io.webindex.seed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.model.UriState;
import org.apache.fluo.api.data.RowColumnValue;
import org.junit.jupiter.api.Test;

/**
 * The seed's URI sums: the row, column and value docs/tables.md gives — the state and the history's
 * next fetch, from which the application derives a URI's frontier entry.
 */
class FluoSeedTest {
  private static final String TRAILER = "~".repeat(16);

  @Test
  void sumsOfCrawledGoneAndNeverCrawledUris() {
    FluoSeed seed = new FluoSeed(4);
    RowColumnValue crawled = seed.uri("com.a/page1", UriState.of(2, true), 1798797600000L);
    assertTrue(crawled.getsRow().matches("um:d:[0-3]:com\\.a/page1" + TRAILER), crawled.getsRow());
    assertEquals("data", crawled.getColumn().getsFamily());
    assertEquals("current", crawled.getColumn().getsQualifier());
    assertEquals("2,1,1798797600000", crawled.getsValue());
    RowColumnValue gone = seed.uri("com.a/gone", UriState.NONE, 1798797600000L);
    assertEquals("0,0,1798797600000", gone.getsValue(), "gone, nobody links to it: its next fetch");
    RowColumnValue linked = seed.uri("com.c", UriState.of(3, false), null);
    assertTrue(linked.getsRow().matches("um:d:[0-3]:com\\.c" + TRAILER), linked.getsRow());
    assertEquals("3,0", linked.getsValue());
    assertThrows(IllegalArgumentException.class, () -> seed.uri("com.d", UriState.NONE, null));
  }
}
