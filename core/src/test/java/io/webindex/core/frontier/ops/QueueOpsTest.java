package io.webindex.core.frontier.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.frontier.ops.QueueOps.Eligibility;
import io.webindex.core.frontier.service.UrlFrontier.Ack;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The queue rules, each expectation computed by hand in the comments. */
class QueueOpsTest {
  static final FrontierSettings SETTINGS = new FrontierSettings(1, 5);

  static QueueOps.Derived derived(String key, long due, long urc) {
    return new QueueOps.Derived(
        new FrontierEntry(key, "a.com", due, urc), "http://a.com/" + key.substring(6));
  }

  static UrlRecord record(UrlRecord.State s, long due, Long basis, String path) {
    return new UrlRecord(s, due, basis, "http://a.com/" + path, Map.of());
  }

  static List<String> keys(List<QueueOps.Waiting> w) {
    return w.stream().map(x -> x.entry().uriKey()).toList();
  }

  @Test
  void eligibility() {
    QueueState s = QueueState.EMPTY;
    assertEquals(Eligibility.INACTIVE, QueueOps.eligibility(s, false, 1, 0, 0));
    assertEquals(Eligibility.ELIGIBLE, QueueOps.eligibility(s, true, 1, 0, 0));
    // blocked until 100 s: at 99 999 ms still blocked, at 100 000 ms lifted
    QueueState blocked = s.withBlockedUntil(100L);
    assertEquals(Eligibility.BLOCKED, QueueOps.eligibility(blocked, true, 1, 0, 99_999));
    assertEquals(Eligibility.ELIGIBLE, QueueOps.eligibility(blocked, true, 1, 0, 100_000));
    // last hand-out at 10 000 ms, delay 2 s: 11 999 too early, 12 000 fine
    QueueState last = s.withLastHandOut(10_000L);
    assertEquals(Eligibility.DELAY, QueueOps.eligibility(last, true, 2, 0, 11_999));
    assertEquals(Eligibility.ELIGIBLE, QueueOps.eligibility(last, true, 2, 0, 12_000));
    // limit 2: one completed fine, two completed is the limit
    QueueState limited = s.withLimit(2L);
    assertEquals(Eligibility.ELIGIBLE, QueueOps.eligibility(limited, true, 1, 1, 0));
    assertEquals(Eligibility.LIMIT, QueueOps.eligibility(limited, true, 1, 2, 0));
  }

  @Test
  void delayIsTheQueuesElseTheDefaultElseTheConfiguredOne() {
    assertEquals(1, QueueOps.delaySeconds(QueueState.EMPTY, null, SETTINGS));
    assertEquals(7, QueueOps.delaySeconds(QueueState.EMPTY, 7, SETTINGS));
    assertEquals(0, QueueOps.delaySeconds(QueueState.EMPTY.withDelay(0), 7, SETTINGS));
  }

  @Test
  void staleRecords() {
    UrlRecord discovered = record(UrlRecord.State.DISCOVERED, 5, null, "n");
    assertFalse(QueueOps.stale(discovered, IndexFacts.UNKNOWN));
    assertTrue(QueueOps.stale(discovered, new IndexFacts(true, null)));
    UrlRecord known = record(UrlRecord.State.KNOWN, 9_000, 500L, "k");
    assertFalse(QueueOps.stale(known, new IndexFacts(true, 500L)));
    assertTrue(QueueOps.stale(known, new IndexFacts(true, 800L)), "a later crawl loaded");
    UrlRecord neverCrawled = record(UrlRecord.State.COMPLETED, 0, null, "c");
    assertFalse(QueueOps.stale(neverCrawled, IndexFacts.UNKNOWN));
    assertTrue(QueueOps.stale(neverCrawled, new IndexFacts(true, 1L)));
    // only the DEFAULT crawl's (indexed) records go stale
    QueueState s = QueueState.EMPTY.withRecords(Map.of("com.a/k", known, "com.a/n", discovered));
    Map<String, IndexFacts> facts =
        Map.of("com.a/k", new IndexFacts(true, 800L), "com.a/n", IndexFacts.UNKNOWN);
    assertEquals(List.of("com.a/n"), List.copyOf(QueueOps.valid(s, true, facts).keySet()));
    assertEquals(2, QueueOps.valid(s, false, facts).size());
  }

  @Test
  void waitingMergesTheDerivedEntriesAndTheRecords() {
    List<QueueOps.Derived> derived =
        List.of(
            derived("com.a/a", 0, 3),
            derived("com.a/b", 0, 1),
            derived("com.a/c", 5_000, 0),
            derived("com.a/e", 6_000, 0));
    TreeMap<String, UrlRecord> valid = new TreeMap<>();
    valid.put("com.a/b", record(UrlRecord.State.KNOWN, 9_000, null, "b")); // b moves to 9000
    valid.put("com.a/d", record(UrlRecord.State.DISCOVERED, 4_321, null, "d")); // due 0, urc 0
    valid.put("com.a/e", record(UrlRecord.State.COMPLETED, 0, null, "e")); // e gone
    valid.put("com.a/f", record(UrlRecord.State.KNOWN, 5_000, null, "f")); // ties c: urc 0, key
    // due 0: a (urc 3), d (urc 0); 5000: c, f (urc 0 both, by key); 9000: b
    List<QueueOps.Waiting> w = QueueOps.waiting("a.com", derived, valid);
    assertEquals(List.of("com.a/a", "com.a/d", "com.a/c", "com.a/f", "com.a/b"), keys(w));
    assertEquals(0, w.get(1).entry().dueMillis());
    assertEquals(9_000, w.get(4).entry().dueMillis());
    assertEquals(0, w.get(4).entry().urc(), "a record's entry has urc 0");
    assertEquals("http://a.com/b", w.get(4).url());
    assertEquals(1, QueueOps.completed(valid));
  }

  @Test
  void claimSkipsLiveLeasesAndTakesAtMostMax() {
    List<QueueOps.Derived> derived =
        List.of(
            derived("com.a/a", 0, 3),
            derived("com.a/b", 0, 2),
            derived("com.a/c", 0, 1),
            derived("com.a/z", 2_000, 9));
    QueueState raw =
        QueueState.EMPTY
            .withStamp("old")
            .withLeases(
                Map.of("com.a/a", new Lease(2_000, "p1"), "com.a/b", new Lease(1_000, "p1")));
    // at 1000: a's lease is live (2000 > 1000), b's ended (1000 is not > 1000)
    QueueState s = QueueOps.normalised(raw, true, Map.of(), 1_000);
    assertEquals(List.of("com.a/a"), List.copyOf(s.leases().keySet()));
    List<QueueOps.Waiting> w = QueueOps.waiting("a.com", derived, s.records());
    QueueOps.Claim c = QueueOps.claim(s, w, 2, 1_000, 30_000, "p2", "new").orElseThrow();
    assertEquals(List.of("com.a/b", "com.a/c"), keys(c.urls()), "z is not due until 2000");
    assertEquals(new Lease(31_000, "p2"), c.next().leases().get("com.a/b"));
    assertEquals(new Lease(31_000, "p2"), c.next().leases().get("com.a/c"));
    assertEquals(new Lease(2_000, "p1"), c.next().leases().get("com.a/a"));
    assertEquals(1_000L, c.next().lastHandOutMillis());
    assertEquals("new", c.next().stamp());
    // max 0: every due URL without a live lease
    assertEquals(
        List.of("com.a/b", "com.a/c"),
        keys(QueueOps.claim(s, w, 0, 1_000, 30_000, "p2", "new").orElseThrow().urls()));
    // everything leased: nothing to write
    assertTrue(QueueOps.claim(c.next(), w, 2, 1_500, 30_000, "p2", "x").isEmpty());
  }

  @Test
  void putBacks() {
    QueueState s =
        QueueState.EMPTY
            .withStamp("s")
            .withLeases(Map.of("com.a/l", new Lease(9_000, "p")))
            .withRecords(Map.of("com.a/r", record(UrlRecord.State.DISCOVERED, 1, null, "r")));
    UrlRecord d = record(UrlRecord.State.DISCOVERED, 5, null, "x");
    assertEquals(Ack.SKIPPED, QueueOps.put(s, "com.a/x", d, true, "t").ack(), "known to index");
    assertNull(QueueOps.put(s, "com.a/x", d, true, "t").next());
    assertEquals(Ack.SKIPPED, QueueOps.put(s, "com.a/r", d, false, "t").ack(), "put before");
    assertEquals(Ack.SKIPPED, QueueOps.put(s, "com.a/l", d, false, "t").ack(), "in flight");
    QueueOps.PutOutcome ok = QueueOps.put(s, "com.a/x", d, false, "t");
    assertEquals(Ack.OK, ok.ack());
    assertEquals(d, ok.next().records().get("com.a/x"));
    assertEquals("t", ok.next().stamp());
    UrlRecord k = record(UrlRecord.State.KNOWN, 50_000, 7L, "l");
    QueueOps.PutOutcome known = QueueOps.put(s, "com.a/l", k, true, "u");
    assertEquals(Ack.OK, known.ack(), "a known URL is recorded whatever the index knows");
    assertFalse(known.next().leases().containsKey("com.a/l"), "its lease ends");
    assertEquals(k, known.next().records().get("com.a/l"));
  }

  @Test
  void batchOfPutBacks() {
    // the queue: a live lease of l (in flight), a discovered record of r
    QueueState s =
        QueueState.EMPTY
            .withStamp("s")
            .withLeases(Map.of("com.a/l", new Lease(9_000, "p")))
            .withRecords(Map.of("com.a/r", record(UrlRecord.State.DISCOVERED, 1, null, "r")));
    UrlRecord dx = record(UrlRecord.State.DISCOVERED, 5, null, "x");
    UrlRecord kl = record(UrlRecord.State.KNOWN, 50_000, 7L, "l");
    UrlRecord kx = record(UrlRecord.State.KNOWN, 60_000, null, "x");
    UrlRecord dl = record(UrlRecord.State.DISCOVERED, 6, null, "l");
    UrlRecord dk = record(UrlRecord.State.DISCOVERED, 7, null, "k");
    QueueOps.BatchOutcome o =
        QueueOps.putAll(
            s,
            List.of(
                // 1. x discovered, unknown to the queue and the index: OK, recorded
                new QueueOps.PutRequest("com.a/x", dx, false),
                // 2. x discovered again: the first put recorded it, so SKIPPED
                new QueueOps.PutRequest("com.a/x", dx, false),
                // 3. l known: OK, its lease ends
                new QueueOps.PutRequest("com.a/l", kl, true),
                // 4. l discovered: put 3 recorded it, so SKIPPED (no longer by the lease)
                new QueueOps.PutRequest("com.a/l", dl, false),
                // 5. x known: OK, replaces the discovered record of put 1
                new QueueOps.PutRequest("com.a/x", kx, false),
                // 6. k discovered, but the index knows it: SKIPPED
                new QueueOps.PutRequest("com.a/k", dk, true)),
            "t");
    assertEquals(List.of(Ack.OK, Ack.SKIPPED, Ack.OK, Ack.SKIPPED, Ack.OK, Ack.SKIPPED), o.acks());
    // the state after: records r (untouched), l (known, put 3), x (known, put 5); no lease
    assertEquals(
        Map.of(
            "com.a/r",
            record(UrlRecord.State.DISCOVERED, 1, null, "r"),
            "com.a/l",
            kl,
            "com.a/x",
            kx),
        o.next().records());
    assertTrue(o.next().leases().isEmpty());
    assertEquals("t", o.next().stamp());

    // nothing changes: nothing to write
    QueueOps.BatchOutcome none =
        QueueOps.putAll(
            s,
            List.of(
                new QueueOps.PutRequest("com.a/r", dx, false),
                new QueueOps.PutRequest("com.a/l", dl, false)),
            "t");
    assertEquals(List.of(Ack.SKIPPED, Ack.SKIPPED), none.acks());
    assertNull(none.next());
    assertTrue(QueueOps.putAll(s, List.of(), "t").acks().isEmpty());
  }
}
