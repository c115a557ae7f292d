package io.webindex.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The frontier stage's pure parts: its guard (a URL handed out twice) and its figures of the calls
 * (rates and nearest-rank percentiles), against hand-checked values.
 */
class FrontierStageTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aUrlHandedOutOnceIsNoDuplicate() {
    HandOutGuard g = new HandOutGuard(30 * SECOND);
    assertTrue(g.handedOut("http://a.com/1", 0));
    assertTrue(g.handedOut("http://a.com/2", SECOND));
    g.putBack("http://a.com/1", true);
    assertEquals(2, g.handedOut());
    assertEquals(2, g.distinct());
    assertEquals(0, g.duplicates());
  }

  @Test
  void aUrlHandedOutAgainWhileLeasedIsADuplicate() {
    HandOutGuard g = new HandOutGuard(30 * SECOND);
    assertTrue(g.handedOut("http://a.com/1", 0));
    // its put-back failed, but its lease (30 s) still runs at 29 s
    g.putBack("http://a.com/1", false);
    assertFalse(g.handedOut("http://a.com/1", 29 * SECOND));
    assertEquals(1, g.duplicates());
    assertEquals(List.of("http://a.com/1"), g.examples());
  }

  @Test
  void aUrlHandedOutAgainAfterItsPutBackWasStoredIsADuplicate() {
    HandOutGuard g = new HandOutGuard(30 * SECOND);
    g.handedOut("http://a.com/1", 0);
    g.putBack("http://a.com/1", true);
    // refetchable a day later: never again in a run, lease or not
    assertFalse(g.handedOut("http://a.com/1", 31 * SECOND));
    assertEquals(1, g.duplicates());
    assertEquals(0, g.reissued());
  }

  @Test
  void aUrlWhoseLeaseExpiredUnstoredMayComeBack() {
    HandOutGuard g = new HandOutGuard(30 * SECOND);
    g.handedOut("http://a.com/1", 0);
    g.putBack("http://a.com/1", false);
    assertTrue(g.handedOut("http://a.com/1", 30 * SECOND));
    assertEquals(0, g.duplicates());
    assertEquals(1, g.reissued());
    assertEquals(2, g.handedOut());
    assertEquals(1, g.distinct());
  }

  @Test
  void examplesAreFew() {
    HandOutGuard g = new HandOutGuard(30 * SECOND);
    for (int i = 0; i < 8; i++) {
      g.handedOut("http://a.com/" + i, 0);
      g.handedOut("http://a.com/" + i, 1);
    }
    assertEquals(8, g.duplicates());
    assertEquals(HandOutGuard.EXAMPLES, g.examples().size());
  }

  @Test
  void figuresOfTheCalls() {
    // 200 calls of 1..100 ms (each twice) in 4 s: nearest rank p50 = the 100th of 200 = 50 ms,
    // p90 = the 180th = 90 ms, p99 = the 198th = 99 ms; mean 50.5 ms
    List<Double> millis = new ArrayList<>();
    for (int i = 100; i >= 1; i--) {
      millis.add((double) i);
      millis.add((double) i);
    }
    Map<String, Object> fig = new LinkedHashMap<>();
    FrontierStage.calls(fig, millis, 1_000, 3, 998, 2, 4.0);
    assertEquals(4.0, fig.get("seconds"));
    assertEquals(1_000L, fig.get("urlsHandedOut"));
    assertEquals(250.0, fig.get("urlsPerSecond"));
    assertEquals(200L, fig.get("getCalls"));
    assertEquals(50.0, fig.get("getCallsPerSecond"));
    assertEquals(3L, fig.get("emptyGetCalls"));
    assertEquals(50.0, fig.get("getP50Ms"));
    assertEquals(90.0, fig.get("getP90Ms"));
    assertEquals(99.0, fig.get("getP99Ms"));
    assertEquals(100.0, fig.get("getMaxMs"));
    assertEquals(50.5, fig.get("getMeanMs"));
    assertEquals(249.5, fig.get("acksPerSecond"));
    assertEquals(2L, fig.get("acksNotOk"));
  }

  @Test
  void noCallsNoPercentiles() {
    Map<String, Object> fig = new LinkedHashMap<>();
    FrontierStage.calls(fig, List.of(), 0, 0, 0, 0, 2.0);
    assertEquals(0.0, fig.get("urlsPerSecond"));
    assertFalse(fig.containsKey("getP50Ms"));
  }
}
