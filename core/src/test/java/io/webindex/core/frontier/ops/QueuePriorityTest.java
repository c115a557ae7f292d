package io.webindex.core.frontier.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.frontier.FrontierEntry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueuePriorityTest {
  // four queues' heads, by hand: (queue, due ms, urc, pages of its domain)
  static final QueueHead A = head("a.example", 0, 1, 50);
  static final QueueHead B = head("b.example", 0, 7, 2);
  static final QueueHead C = head("c.example", 5_000, 9, 900);
  static final QueueHead D = head("d.example", 0, 1, 50);

  static QueueHead head(String queue, long due, long urc, long domainPages) {
    return new QueueHead(
        "DEFAULT", queue, new FrontierEntry("com.x." + queue + "/", queue, due, urc), domainPages);
  }

  static List<String> sorted(String criteria) {
    List<QueueHead> heads = new ArrayList<>(List.of(D, C, B, A));
    heads.sort(QueuePriority.order(QueuePriority.parse(criteria)));
    return heads.stream().map(QueueHead::queue).toList();
  }

  @Test
  void theDefaultIsOverdueThenUrcThenTheDomainsStanding() {
    // due 0 before 5000; among due 0: urc 7 (b) before urc 1 (a, d); a and d tie on everything
    // but the queue key
    assertEquals(
        List.of("b.example", "a.example", "d.example", "c.example"), sorted("due,urc,domain"));
    assertEquals(QueuePriority.DEFAULT, QueuePriority.parse("due,urc,domain"));
    List<QueueHead> heads = new ArrayList<>(List.of(D, C, B, A));
    heads.sort(QueueHead.ORDER);
    assertEquals(List.of(B, A, D, C), heads);
  }

  @Test
  void otherOrders() {
    // the domain's standing first: c (900), then a and d (50, by key), then b (2)
    assertEquals(List.of("c.example", "a.example", "d.example", "b.example"), sorted("domain"));
    // urc first: c 9, b 7, then a and d (urc 1; their domains tie too)
    assertEquals(List.of("c.example", "b.example", "a.example", "d.example"), sorted("urc,due"));
    // only the due time: a, b, d (0, by key), then c
    assertEquals(List.of("a.example", "b.example", "d.example", "c.example"), sorted("due"));
    assertEquals(
        List.of("b.example", "a.example", "d.example", "c.example"), sorted(" DUE , Urc "));
  }

  @Test
  void badCriteriaAreNamed() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> QueuePriority.parse("due,rank"));
    assertEquals("'rank' is not a criterion (due, urc, domain): due,rank", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> QueuePriority.parse("urc,urc"));
    assertTrue(e.getMessage().startsWith("'urc' twice"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> QueuePriority.parse(""));
    assertEquals("due,urc,domain", QueuePriority.format(QueuePriority.DEFAULT));
  }
}
