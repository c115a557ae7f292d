package io.webindex.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.frontier.ops.FrontierSettings;
import io.webindex.core.frontier.ops.QueuePriority;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code webindex.frontier.*}: defaults, values, bad values named by their key, round trip. */
class FrontierConfigTest {
  private static WebindexConfig of(Map<String, String> m) {
    return WebindexConfig.fromMap(m, Map.of());
  }

  @Test
  void defaultsAreOneSecondDelayAndFiveSecondsRefresh() {
    assertEquals(new FrontierSettings(1, 5), of(Map.of()).frontier());
  }

  @Test
  void valuesAndRoundTrip() {
    WebindexConfig c =
        of(Map.of("webindex.frontier.delay", "0", "webindex.frontier.refresh", "30"));
    assertEquals(new FrontierSettings(0, 30), c.frontier());
    assertEquals("0", c.toMapWithoutSecrets().get("webindex.frontier.delay"));
    assertEquals("30", c.toMapWithoutSecrets().get("webindex.frontier.refresh"));
    assertEquals(c.frontier(), of(c.toMapWithoutSecrets()).frontier());
    WebindexConfig p = of(Map.of("webindex.frontier.priority", "domain, urc"));
    assertEquals(
        new FrontierSettings(1, 5, List.of(QueuePriority.DOMAIN, QueuePriority.URC)), p.frontier());
    assertEquals("domain,urc", p.toMapWithoutSecrets().get("webindex.frontier.priority"));
    assertEquals(QueuePriority.DEFAULT, c.frontier().priority());
  }

  @Test
  void badValuesNameTheKey() {
    for (Map<String, String> bad :
        java.util.List.of(
            Map.of("webindex.frontier.delay", "-1"),
            Map.of("webindex.frontier.delay", "1s"),
            Map.of("webindex.frontier.refresh", "0"),
            Map.of("webindex.frontier.refresh", "3601"),
            Map.of("webindex.frontier.priority", "due,age"),
            Map.of("webindex.frontier.priority", "urc,urc"))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> of(bad));
      String key = bad.keySet().iterator().next();
      assertEquals(true, e.getMessage().startsWith(key), e.getMessage());
    }
  }
}
