package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.store.StoreException;
import org.apache.fluo.api.config.FluoConfiguration;
import org.junit.jupiter.api.Test;

/**
 * Export timestamps are ordered by epoch first, so a later application always wins (docs/fluo.md).
 */
class ExportTimestampTest {
  private static final long MAX_SEQUENCE = (1L << 40) - 1;

  @Test
  void everyTimestampOfALaterEpochIsAboveEveryOneOfAnEarlierEpoch() {
    assertTrue(QueryTableExporter.timestamp(2, 0) > QueryTableExporter.timestamp(1, MAX_SEQUENCE));
    assertTrue(QueryTableExporter.timestamp(1, 5) > QueryTableExporter.timestamp(1, 4));
    // hand-computed: epoch 1 is 2^40 = 1099511627776, plus the sequence number
    assertEquals(1_099_511_627_776L + 7, QueryTableExporter.timestamp(1, 7));
    assertEquals(3L * 1_099_511_627_776L, QueryTableExporter.timestamp(3, 0));
  }

  @Test
  void aSequenceNumberBeyondItsBitsIsAnErrorNotAWrapAround() {
    assertThrows(StoreException.class, () -> QueryTableExporter.timestamp(1, MAX_SEQUENCE + 1));
    assertThrows(StoreException.class, () -> QueryTableExporter.timestamp(1, -1));
  }

  @Test
  void theEpochIsStoredWithTheTargetAndNoSecret() {
    FluoConfiguration fc = new FluoConfiguration();
    QueryTableExporter.configure(fc, "inst", "zk:2181", "webindex", "webindex_r1", 3);
    assertEquals(3, QueryTableExporter.epoch(fc.getAppConfiguration()));
    assertEquals("webindex_r1", QueryTableExporter.table(fc.getAppConfiguration()));
    fc.getAppConfiguration()
        .getKeys()
        .forEachRemaining(k -> assertTrue(!k.toLowerCase().contains("password"), k));
    assertThrows(
        IllegalArgumentException.class,
        () -> QueryTableExporter.configure(fc, "inst", "zk", "u", "t", 0));
  }
}
