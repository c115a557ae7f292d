package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.history.HistorySettings;
import io.webindex.core.history.ScheduleConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A history table's properties: the rule it is kept by, and a layout for the point reads of the
 * exporter's conditional puts (docs/tables.md).
 */
class HistoryTablesTest {
  @Test
  void theVersionsTheRuleAndALayoutForPointReads() {
    Map<String, String> p =
        HistoryTables.properties(new HistorySettings(7, ScheduleConfig.DEFAULT));
    for (String scope : new String[] {"scan", "minc", "majc"}) {
      assertEquals("7", p.get("table.iterator." + scope + ".vers.opt.maxVersions"), scope);
    }
    assertEquals("7", p.get("table.custom.webindex.history.versions"));
    assertEquals("2592000", p.get("table.custom.webindex.schedule.interval.default.seconds"));
    assertEquals("true", p.get("table.cache.block.enable"), "data blocks in the block cache");
    assertEquals("16384", p.get("table.file.compress.blocksize"), "16 KB blocks in compactions");
  }
}
