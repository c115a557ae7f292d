package io.webindex.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The settings' properties: the golden a history table and a Fluo application record. */
class HistorySettingsTest {
  static final Map<String, String> SHIPPED =
      Map.of(
          "webindex.history.versions", "16",
          "webindex.schedule.interval.default.seconds", "2592000",
          "webindex.schedule.interval.min.seconds", "60",
          "webindex.schedule.interval.max.seconds", "31536000",
          "webindex.schedule.inc.rate", "0.4",
          "webindex.schedule.dec.rate", "0.2",
          "webindex.schedule.sync.delta", "true",
          "webindex.schedule.sync.delta.rate", "0.3");

  @Test
  void theShippedRuleAsProperties() {
    HistorySettings shipped = new HistorySettings(16, ScheduleConfig.DEFAULT);
    assertEquals(SHIPPED, shipped.properties());
    assertEquals(shipped, HistorySettings.fromProperties(SHIPPED));
  }

  @Test
  void aMissingOrDamagedPropertyIsNamed() {
    assertFalse(HistorySettings.recordedIn(Map.of("other", "1")));
    Map<String, String> p = new HashMap<>(SHIPPED);
    p.remove("webindex.schedule.dec.rate");
    assertEquals(
        "no property webindex.schedule.dec.rate",
        assertThrows(IllegalArgumentException.class, () -> HistorySettings.fromProperties(p))
            .getMessage());
    p.put("webindex.schedule.dec.rate", "0.2");
    p.put("webindex.schedule.sync.delta", "yes");
    assertEquals(
        "webindex.schedule.sync.delta is neither true nor false: yes",
        assertThrows(IllegalArgumentException.class, () -> HistorySettings.fromProperties(p))
            .getMessage());
    p.put("webindex.schedule.sync.delta", "true");
    p.put("webindex.history.versions", "0");
    assertThrows(IllegalArgumentException.class, () -> HistorySettings.fromProperties(p));
  }
}
