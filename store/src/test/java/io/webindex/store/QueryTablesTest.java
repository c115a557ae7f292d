package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A query table's properties: its data blocks in the tablet server's block cache (docs/tables.md).
 */
class QueryTablesTest {
  @Test
  void dataBlocksInTheBlockCacheAndNothingElse() {
    assertEquals(Map.of("table.cache.block.enable", "true"), QueryTables.properties());
  }
}
