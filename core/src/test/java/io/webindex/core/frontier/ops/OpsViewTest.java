package io.webindex.core.frontier.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a listing leaves out, worked by hand at the instants 1 000, 5 000 and 9 000 ms. */
class OpsViewTest {
  // a.com: two leases, one ending at 2 000 ms and one at 6 000 ms
  // b.com: blocked until 7 s (7 000 ms), one lease ending at 8 000 ms
  // c.com: a delay and a limit only: never held by a listing
  private static final OpsView VIEW =
      new OpsView(
          true,
          Map.of(
              "a.com",
              QueueState.EMPTY.withLeases(
                  Map.of("com.a/1", new Lease(2_000, "p1"), "com.a/2", new Lease(6_000, "p2"))),
              "b.com",
              QueueState.EMPTY
                  .withBlockedUntil(7L)
                  .withLeases(Map.of("com.b/1", new Lease(8_000, "p1"))),
              "c.com",
              QueueState.EMPTY.withDelay(3_600).withLimit(1L).withLastHandOut(4_000L)));

  @Test
  void leasesHoldTheirUrlsUntilTheyEnd() {
    assertTrue(VIEW.inFlight("a.com", "com.a/1", 1_000));
    assertFalse(VIEW.inFlight("a.com", "com.a/1", 2_000)); // ended at 2 000
    assertTrue(VIEW.inFlight("a.com", "com.a/2", 5_000));
    assertFalse(VIEW.inFlight("a.com", "com.a/3", 1_000)); // never handed out
    assertFalse(VIEW.inFlight("d.com", "com.d/1", 1_000)); // a queue without state
    assertEquals(3, VIEW.inFlight(1_000));
    assertEquals(2, VIEW.inFlight(5_000));
    assertEquals(0, VIEW.inFlight(9_000));
  }

  @Test
  void aBlockHoldsItsQueueUntilItsInstant() {
    assertTrue(VIEW.held("b.com", 5_000));
    assertFalse(VIEW.held("b.com", 7_000));
    assertFalse(VIEW.held("a.com", 1_000));
    assertFalse(VIEW.held("c.com", 5_000)); // within its delay, at its limit: still listed
    assertFalse(VIEW.held("d.com", 5_000));
    assertEquals(1, VIEW.blockedQueues(1_000));
    assertEquals(0, VIEW.blockedQueues(9_000));
  }

  @Test
  void anInactiveFrontierHoldsEveryQueue() {
    OpsView off = new OpsView(false, Map.of());
    assertTrue(off.held("a.com", 1_000));
    assertEquals(0, off.blockedQueues(1_000));
    assertFalse(OpsView.NONE.held("a.com", 1_000));
    assertEquals(0, OpsView.NONE.inFlight(1_000));
  }
}
