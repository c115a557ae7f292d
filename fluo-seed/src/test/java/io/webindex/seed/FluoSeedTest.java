package io.webindex.seed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.frontier.FrontierInputs;
import org.apache.fluo.api.data.RowColumnValue;
import org.junit.jupiter.api.Test;

/** The seed's frontier inputs: the row, column and value docs/tables.md gives, written here. */
class FluoSeedTest {
  @Test
  void frontierInputsOfCrawledAndNeverCrawledUris() {
    FluoSeed seed = new FluoSeed(4);
    RowColumnValue crawled = seed.frontier("com.a/page1", new FrontierInputs(0, 1798797600000L));
    assertEquals("f:com.a/page1", crawled.getsRow());
    assertEquals("fr", crawled.getColumn().getsFamily());
    assertEquals("in", crawled.getColumn().getsQualifier());
    assertEquals("0 1798797600000", crawled.getsValue());
    RowColumnValue linked = seed.frontier("com.c", new FrontierInputs(3, null));
    assertEquals("f:com.c", linked.getsRow());
    assertEquals("3 -", linked.getsValue());
  }
}
