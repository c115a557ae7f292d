package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.frontier.ops.Lease;
import io.webindex.core.frontier.ops.OpsView;
import io.webindex.core.frontier.ops.QueueState;
import io.webindex.core.schema.Cell;
import io.webindex.store.FrontierQuery.Due;
import io.webindex.store.FrontierQuery.FrontierAnswer;
import io.webindex.testkit.FrontierFixture;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The selection of {@link FrontierQuery} on the worked example's frontier ({@link
 * FrontierFixture}), every expected answer worked out by hand: c.com's two URLs are due at once
 * (urc 3 before urc 1), a.com/page1, b.com/ and d.com/ at 10:00, 10:01 and 10:02 on 2026-12-20.
 */
class FrontierQueryTest {
  private static final long DEC_1 = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
  private static final long DEC_31 = Instant.parse("2026-12-31T00:00:00Z").toEpochMilli();
  private static final long AT_1001 = Instant.parse("2026-12-20T10:01:00Z").toEpochMilli();

  private static FrontierAnswer select(List<Cell> cells, long at, int limit, int perHost) {
    return FrontierQuery.select("t_frontier", cells.iterator(), at, limit, perHost, OpsView.NONE);
  }

  /**
   * The frontier service holds c.com/ (leased until a second after DEC_31) and blocks a.com until
   * 2027: at DEC_31 c.com's next URL heads its queue (due at once), then b.com/ (10:01) and d.com/
   * (10:02); a.com/page1 is left out. A lease that ends at DEC_31 holds nothing then.
   */
  @Test
  void urlsInFlightAndBlockedQueuesAreLeftOut() {
    OpsView ops =
        new OpsView(
            true,
            Map.of(
                "c.com",
                QueueState.EMPTY.withLeases(Map.of("com.c", new Lease(DEC_31 + 1_000, "p1"))),
                "a.com",
                QueueState.EMPTY.withBlockedUntil(
                    Instant.parse("2027-01-01T00:00:00Z").getEpochSecond())));
    FrontierAnswer a =
        FrontierQuery.select("t_frontier", FrontierFixture.cells().iterator(), DEC_31, 10, 1, ops);
    assertEquals(List.of("http://c.com/page1", "http://b.com/", "http://d.com/"), urls(a));
    assertEquals(1, a.inFlight());
    assertEquals(1, a.blockedQueues());
    assertEquals(5, a.due()); // the table's totals stay the table's
    OpsView ended =
        new OpsView(
            true,
            Map.of("c.com", QueueState.EMPTY.withLeases(Map.of("com.c", new Lease(DEC_31, "p1")))));
    FrontierAnswer b =
        FrontierQuery.select("t_frontier", FrontierFixture.cells().iterator(), DEC_31, 1, 1, ended);
    assertEquals(List.of("http://c.com/"), urls(b));
    assertEquals(0, b.inFlight());
    FrontierAnswer off =
        FrontierQuery.select(
            "t_frontier",
            FrontierFixture.cells().iterator(),
            DEC_31,
            10,
            1,
            new OpsView(false, Map.of()));
    assertEquals(List.of(), urls(off));
    assertEquals(false, off.active());
  }

  private static List<String> urls(FrontierAnswer a) {
    List<String> out = new ArrayList<>();
    for (Due d : a.urls()) {
      out.add(d.url());
    }
    return out;
  }

  @Test
  void onlyTheHeadOfEachQueueByDefault() {
    FrontierAnswer a = select(FrontierFixture.cells(), DEC_1, 10, 1);
    assertEquals(List.of("http://c.com/"), urls(a));
    Due c = a.urls().get(0);
    assertEquals("c.com", c.entry().queue());
    assertEquals("com.c", c.entry().uriKey());
    assertEquals(0L, c.entry().dueMillis());
    assertEquals(3L, c.entry().urc());
    assertEquals(4, a.queues());
    assertEquals(5, a.urlCount());
    assertEquals(2, a.due());
    assertEquals(1, a.dueQueues());
    assertEquals(0, a.skipped());
  }

  @Test
  void perHostTwoTakesTheSecondOfAQueue() {
    FrontierAnswer a = select(FrontierFixture.cells(), DEC_1, 10, 2);
    assertEquals(List.of("http://c.com/", "http://c.com/page1"), urls(a));
  }

  /**
   * At the end of December everything is due. The heads in queue order: c.com/ (due 0), a.com/page1
   * (10:00), b.com/ (10:01), d.com/ (10:02); the first round takes them in that order, the second
   * round c.com/page1, the only second entry of a queue.
   */
  @Test
  void roundRobinOverTheQueuesOrderedByTheirHeads() {
    FrontierAnswer one = select(FrontierFixture.cells(), DEC_31, 10, 1);
    assertEquals(
        List.of("http://c.com/", "http://a.com/page1", "http://b.com/", "http://d.com/"),
        urls(one));
    assertEquals(5, one.due());
    assertEquals(4, one.dueQueues());
    FrontierAnswer two = select(FrontierFixture.cells(), DEC_31, 10, 2);
    assertEquals(
        List.of(
            "http://c.com/",
            "http://a.com/page1",
            "http://b.com/",
            "http://d.com/",
            "http://c.com/page1"),
        urls(two));
    // the limit cuts the round-robin order, not the key order
    FrontierAnswer three = select(FrontierFixture.cells(), DEC_31, 3, 2);
    assertEquals(List.of("http://c.com/", "http://a.com/page1", "http://b.com/"), urls(three));
    assertEquals(5, three.due());
  }

  /** Due at or before the instant: b.com/ is due at exactly 10:01, d.com/ not yet. */
  @Test
  void dueAtTheInstantItself() {
    FrontierAnswer a = select(FrontierFixture.cells(), AT_1001, 10, 5);
    assertEquals(
        List.of("http://c.com/", "http://a.com/page1", "http://b.com/", "http://c.com/page1"),
        urls(a));
    assertEquals(4, a.due());
    assertEquals(3, a.dueQueues());
  }

  /** Cells that do not decode are skipped and counted; the rest is answered as before. */
  @Test
  void undecodableCellsAreSkippedAndCounted() {
    List<Cell> cells = new ArrayList<>(FrontierFixture.cells());
    // a.com/page1 filed in b.com's queue, a bad due time, a foreign family, a foreign row
    cells.add(
        2,
        new Cell("q:b.com", "due", "0000000000000000:7fffffffffffffff:com.a/x", "http://a.com/x"));
    cells.add(0, new Cell("q:a.com", "due", "00000000000000zz:7fffffffffffffff:com.a", "x"));
    cells.add(new Cell("q:e.com", "lease", "x", "y"));
    cells.add(new Cell("z", "due", "x", "y"));
    FrontierAnswer a = select(cells, DEC_31, 10, 1);
    assertEquals(
        List.of("http://c.com/", "http://a.com/page1", "http://b.com/", "http://d.com/"), urls(a));
    assertEquals(4, a.skipped());
    assertEquals(4, a.queues());
    assertEquals(5, a.urlCount());
  }

  @Test
  void anEmptyFrontier() {
    FrontierAnswer a = select(List.of(), DEC_31, 10, 1);
    assertEquals(List.of(), a.urls());
    assertEquals(0, a.queues() + a.urlCount() + a.due() + a.dueQueues() + a.skipped());
  }

  @Test
  void boundsAreChecked() {
    List<Cell> none = List.of();
    assertThrows(IllegalArgumentException.class, () -> select(none, DEC_1, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> select(none, DEC_1, 10_001, 1));
    assertThrows(IllegalArgumentException.class, () -> select(none, DEC_1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> select(none, -1, 1, 1));
  }
}
