package io.webindex.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.history.ScheduleConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryConfigTest {
  private static WebindexConfig of(Map<String, String> m) {
    return WebindexConfig.fromMap(m, Map.of());
  }

  @Test
  void defaults() {
    WebindexConfig c = of(Map.of());
    assertEquals(16, c.historyVersions());
    assertEquals(ScheduleConfig.DEFAULT, c.schedule());
    assertEquals("webindex_r7_history", c.historyTable("r7"));
  }

  @Test
  void aMaximumBelowTheDefaultIsRefused() {
    IllegalArgumentException x =
        assertThrows(
            IllegalArgumentException.class,
            () -> of(Map.of("webindex.schedule.interval.max", "12h")));
    assertTrue(x.getMessage().contains("43200 s"), x.getMessage());
  }

  @Test
  void validKeys() {
    WebindexConfig c =
        of(
            Map.of(
                "webindex.history.versions", "3",
                "webindex.schedule.interval.default", "2d",
                "webindex.schedule.interval.min", "90",
                "webindex.schedule.interval.max", "5d",
                "webindex.schedule.inc.rate", "0.5",
                "webindex.schedule.dec.rate", "0",
                "webindex.schedule.sync.delta", "false",
                "webindex.schedule.sync.delta.rate", "0.25"));
    assertEquals(new ScheduleConfig(172_800, 90, 432_000, 0.5, 0.0, false, 0.25), c.schedule());
    WebindexConfig back = of(c.toMapWithoutSecrets());
    assertEquals(c.schedule(), back.schedule());
    assertEquals(3, back.historyVersions());
  }

  @Test
  void badValuesNameTheirKey() {
    Map<String, String> bad =
        Map.of(
            "webindex.history.versions", "0",
            "webindex.schedule.interval.min", "5x",
            "webindex.schedule.inc.rate", "1",
            "webindex.schedule.dec.rate", "-0.1",
            "webindex.schedule.sync.delta", "yes",
            "webindex.schedule.interval.max", "0d");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      IllegalArgumentException x =
          assertThrows(IllegalArgumentException.class, () -> of(Map.of(e.getKey(), e.getValue())));
      assertTrue(x.getMessage().contains(e.getKey()), x.getMessage());
    }
    IllegalArgumentException x =
        assertThrows(
            IllegalArgumentException.class,
            () -> of(Map.of("webindex.schedule.interval.min", "31d")));
    assertTrue(x.getMessage().contains("webindex.schedule.interval.min <="), x.getMessage());
  }
}
