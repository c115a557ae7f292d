package io.webindex.store.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.core.frontier.service.UrlFrontier.Ack;
import io.webindex.core.frontier.service.UrlFrontier.GetParams;
import io.webindex.core.frontier.service.UrlFrontier.PutItem;
import io.webindex.core.frontier.service.UrlFrontier.UrlInfo;
import io.webindex.core.frontier.service.UrlFrontier.UrlSelection;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.TimedCell;
import io.webindex.store.BulkImport;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.FrontierFixture;
import io.webindex.testkit.HistoryFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.accumulo.core.client.Connector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The frontier's operational state on a real MiniAccumulo (the cases run in the cluster of the IT
 * class that nests them, {@code FrontierOpsIT}, so that they start no cluster of their own): leases
 * and their expiry, politeness across two frontier processes (separate connectors, different
 * owners) racing from threads, a restart keeping leases, blocks, delays and limits, priorities,
 * discovered URLs deduplicated, the crawl limit, and a known put-back that overrides the derived
 * due until a later run's history has a newer crawl of the URI. Every table cell is written
 * literally here; the expectations are worked out by hand in the comments.
 *
 * <p>The served run's frontier (due times in ms; 0x3e8 = 1000, long past):
 *
 * <pre>
 * a.com  a/1 due 0 urc 3   a/2 due 0 urc 1   a/3 due 1000 urc 0 (crawled at 500)
 * b.com  b/1 due 0 urc 2   b/2 due 1000 urc 0
 * c.com  c/1 due 1000 urc 4
 * z.com  z/1 due 0x0fffffffffff (year 2527): not due
 * </pre>
 *
 * Queue order by head: a (due 0, urc 3), b (due 0, urc 2), c (due 1000); z not due.
 *
 * <p>The cases run side by side: each is an index of its own (its own table prefix, configuration
 * directory and frontier processes) over the one shared first run, which is written once.
 */
@Execution(ExecutionMode.CONCURRENT)
public abstract class FrontierOpsCases {
  @TempDir Path tmp;

  /** The cluster's root connector. */
  protected abstract Connector connector();

  /** A connector of its own, as a second frontier process has. */
  protected abstract Connector newConnector();

  /** A webindex configuration of the cluster with this table prefix and these extra lines. */
  protected abstract Path writeWebindexConf(Path dir, String prefix, String... extra);

  /** The table's cells by {@code row family:qualifier}. */
  protected abstract Map<String, String> readTableAsMap(String table);

  private static final List<Cell> RUN1_FRONTIER =
      List.of(
          cell("q:a.com", "0000000000000000:7ffffffffffffffc:com.a/1", "http://a.com/1"),
          cell("q:a.com", "0000000000000000:7ffffffffffffffe:com.a/2", "http://a.com/2"),
          cell("q:a.com", "00000000000003e8:7fffffffffffffff:com.a/3", "http://a.com/3"),
          cell("q:b.com", "0000000000000000:7ffffffffffffffd:com.b/1", "http://b.com/1"),
          cell("q:b.com", "00000000000003e8:7fffffffffffffff:com.b/2", "http://b.com/2"),
          cell("q:c.com", "00000000000003e8:7ffffffffffffffb:com.c/1", "http://c.com/1"),
          cell("q:z.com", "00000fffffffffff:7fffffffffffffff:com.z/1", "http://z.com/1"));

  private static Cell cell(String row, String qualifier, String url) {
    return new Cell(row, "due", qualifier, url);
  }

  private static List<Cell> incounts(String... keys) {
    List<Cell> out = new ArrayList<>();
    for (String k : keys) {
      out.add(new Cell("p:" + k, "page", "incount", "1"));
    }
    return out;
  }

  /** A served run {@code id} with these frontier, query and history cells. */
  private void serveRun(
      WebindexConfig cfg, String id, List<Cell> frontier, List<Cell> query, List<TimedCell> hist)
      throws Exception {
    String table = cfg.runTable(id);
    writeRun(table, frontier, query, hist);
    serve(cfg, id, table);
  }

  /** A run's query, frontier and history tables with these cells. */
  private void writeRun(String table, List<Cell> frontier, List<Cell> query, List<TimedCell> hist)
      throws Exception {
    Connector c = connector();
    for (String t : List.of(table, table + "_frontier", table + "_history")) {
      c.tableOperations().create(t);
      BulkImport.awaitKnown(c, t); // the cases run side by side: see BulkImport.onFreshTable
    }
    FrontierFixture.write(c, table + "_frontier", frontier);
    FrontierFixture.write(c, table, query);
    HistoryFixture.write(c, table + "_history", hist);
  }

  /** Serves run {@code id} of {@code cfg}'s index with the tables of {@code table}. */
  private void serve(WebindexConfig cfg, String id, String table) {
    Connector c = connector();
    RunRegistry runs = new RunRegistry(c, cfg.metaTable()).ensureTable();
    Instant now = Instant.now();
    RunRecord r =
        new RunRecord(
            id,
            RunRecord.Status.SUCCEEDED,
            1,
            table,
            now,
            now,
            List.of(),
            Map.of(),
            "",
            "",
            "",
            1,
            io.webindex.core.Version.current().webindex());
    runs.put(r);
    runs.serve(r);
  }

  /**
   * The first run's tables, written once for all cases (they only read them): each case is an index
   * of its own (its prefix: its meta and operational tables) that serves them.
   */
  private static final String RUN1_TABLE = "fo_shared_r1";

  private WebindexConfig world(String prefix) throws Exception {
    WebindexConfig cfg =
        WebindexConfig.load(
            writeWebindexConf(tmp, prefix, "webindex.frontier.refresh=1"), Map.of());
    synchronized (FrontierOpsCases.class) {
      if (!connector().tableOperations().exists(RUN1_TABLE)) {
        writeRun(
            RUN1_TABLE,
            RUN1_FRONTIER,
            incounts("com.a/1", "com.a/2", "com.a/3", "com.b/1", "com.b/2", "com.c/1", "com.z/1"),
            List.of(new TimedCell("com.a/3", "crawl", "", 500, "ok - 1")));
      }
    }
    serve(cfg, "r1", RUN1_TABLE);
    return cfg;
  }

  private static List<String> get(UrlFrontier f, GetParams p) {
    List<String> out = new ArrayList<>();
    f.getUrls(p, u -> out.add(u.url()));
    return out;
  }

  private static GetParams params(int perQueue, int queues, String queue, int lease) {
    return new GetParams(perQueue, queues, queue, lease, "");
  }

  private static PutItem discovered(String url, String crawl, String queue) {
    return new PutItem(new UrlInfo(url, queue, crawl, Map.of()), true, 0);
  }

  private static PutItem known(String url, long refetchSeconds) {
    return new PutItem(new UrlInfo(url, "", "", Map.of()), false, refetchSeconds);
  }

  @Test
  public void prioritiesInOrderAndMaxQueues() throws Exception {
    WebindexConfig cfg = world("fo_prio");
    try (AccumuloUrlFrontier f = AccumuloUrlFrontier.open(connector(), cfg)) {
      assertEquals(
          List.of(
              "http://a.com/1",
              "http://a.com/2",
              "http://a.com/3",
              "http://b.com/1",
              "http://b.com/2",
              "http://c.com/1"),
          get(f, params(10, 0, "", 60)));
      assertEquals(List.of(), get(f, params(10, 0, "", 60)), "all in flight or within the delay");
      assertEquals(List.of("DEFAULT"), f.listCrawls());
      UrlFrontier.Stats s = f.stats("", "");
      assertEquals(7, s.size(), "six in flight and z/1 waiting");
      assertEquals(6, s.inProcess());
      assertEquals(4, s.queues());
    }
    WebindexConfig cfg2 = world("fo_maxq");
    try (AccumuloUrlFrontier f = AccumuloUrlFrontier.open(connector(), cfg2)) {
      f.setDelay("", "", 600);
      // two queues (a, b), one URL each: their heads
      assertEquals(List.of("http://a.com/1", "http://b.com/1"), get(f, params(1, 2, "", 60)));
      assertEquals(List.of("http://c.com/1"), get(f, params(1, 2, "", 60)), "a, b in their delay");
    }
  }

  @Test
  public void theDomainsStandingOrdersQueuesWhenConfigured() throws Exception {
    WebindexConfig cfg =
        WebindexConfig.load(
            writeWebindexConf(
                tmp,
                "fo_dom",
                "webindex.frontier.refresh=1",
                "webindex.frontier.priority=domain,due,urc"),
            Map.of());
    List<Cell> query =
        new ArrayList<>(
            incounts("com.a/1", "com.a/2", "com.a/3", "com.b/1", "com.b/2", "com.c/1", "com.z/1"));
    query.add(new Cell("d:com.a", "domain", "pagecount", "1"));
    query.add(new Cell("d:com.b", "domain", "pagecount", "5"));
    query.add(new Cell("d:com.c", "domain", "pagecount", "9"));
    serveRun(
        cfg,
        "r1",
        RUN1_FRONTIER,
        query,
        List.of(new TimedCell("com.a/3", "crawl", "", 500, "ok - 1")));
    try (AccumuloUrlFrontier f = AccumuloUrlFrontier.open(connector(), cfg)) {
      // by the domains' pages: c.com (9) before b.com (5) before a.com (1), whatever their heads'
      // due times and urc; one URL of each, its head; z.com is not due
      assertEquals(
          List.of("http://c.com/1", "http://b.com/1", "http://a.com/1"),
          get(f, params(1, 0, "", 60)));
    }
  }

  @Test
  public void leasesEndAndAPutBackEndsOne() throws Exception {
    WebindexConfig cfg = world("fo_lease");
    // the frontier's clock, moved past the leases' end instead of waiting for it: a lease of a
    // few seconds and a sleep would fail on a machine too busy to make the next calls in time
    AtomicLong skew = new AtomicLong();
    try (AccumuloUrlFrontier f =
        AccumuloUrlFrontier.open(
            connector(), cfg, "p1", () -> System.currentTimeMillis() + skew.get())) {
      f.setDelay("", "", 0);
      assertEquals(List.of("http://a.com/1"), get(f, params(1, 0, "a.com", 60)));
      assertEquals(List.of("http://a.com/2"), get(f, params(1, 0, "a.com", 60)), "a/1 in flight");
      assertEquals(2, f.stats("", "a.com").inProcess());
      skew.addAndGet(60_100);
      assertEquals(List.of("http://a.com/1"), get(f, params(1, 0, "a.com", 30)), "lease ended");
      assertEquals(List.of("http://a.com/2"), get(f, params(1, 0, "a.com", 30)));
      assertEquals(List.of("http://a.com/3"), get(f, params(1, 0, "a.com", 30)));
      assertEquals(List.of(), get(f, params(1, 0, "a.com", 30)));
      // a/2 put back as known, due again at 1 s after 1970: handed out at once
      assertEquals(Ack.OK, f.put(known("http://a.com/2", 1)));
      assertEquals(List.of("http://a.com/2"), get(f, params(1, 0, "a.com", 30)));
    }
  }

  @Test
  public void twoProcessesNeverHandOutOneUrlTwiceNorAQueueWithinItsDelay() throws Exception {
    WebindexConfig cfg = world("fo_race");
    Connector other = newConnector();
    List<long[]> claims = Collections.synchronizedList(new ArrayList<>()); // queue id, time
    List<String> urls = Collections.synchronizedList(new ArrayList<>());
    Map<String, Integer> queueIds = new HashMap<>(Map.of("a.com", 0, "b.com", 1, "c.com", 2));
    ThreadLocal<Long> firstNow = new ThreadLocal<>();
    java.util.function.LongSupplier clock =
        () -> {
          long t = System.currentTimeMillis();
          if (firstNow.get() == null) {
            firstNow.set(t);
          }
          return t;
        };
    try (AccumuloUrlFrontier p1 = AccumuloUrlFrontier.open(connector(), cfg, "p1", clock);
        AccumuloUrlFrontier p2 = AccumuloUrlFrontier.open(other, cfg, "p2", clock)) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      CountDownLatch go = new CountDownLatch(1);
      long end = System.currentTimeMillis() + 3_200;
      List<Future<?>> done = new ArrayList<>();
      for (AccumuloUrlFrontier f : List.of(p1, p2, p1, p2)) {
        done.add(
            pool.submit(
                () -> {
                  go.await();
                  while (System.currentTimeMillis() < end) {
                    firstNow.remove();
                    f.getUrls(
                        params(1, 0, "", 60),
                        u -> {
                          urls.add(u.url());
                          claims.add(new long[] {queueIds.get(u.queue()), firstNow.get()});
                        });
                  }
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> d : done) {
        d.get(30, TimeUnit.SECONDS);
      }
      pool.shutdown();
    }
    assertEquals(new HashSet<>(urls).size(), urls.size(), "a URL handed out twice: " + urls);
    // 3.2 s with the default delay of 1 s: a hands out at about 0, 1, 2 s (it has 3 URLs),
    // b at 0 and 1 s (2 URLs), c at 0 (1 URL): 6 at most, and at least the first round's 3
    assertTrue(urls.size() >= 3 && urls.size() <= 6, urls.toString());
    for (int q = 0; q < 3; q++) {
      List<Long> times = new ArrayList<>();
      for (long[] c : claims) {
        if (c[0] == q) {
          times.add(c[1]);
        }
      }
      Collections.sort(times);
      for (int i = 1; i < times.size(); i++) {
        assertTrue(times.get(i) - times.get(i - 1) >= 1_000, "queue " + q + " at " + times);
      }
    }
  }

  @Test
  public void aRestartKeepsLeasesBlocksDelaysLimitsAndTheActiveFlag() throws Exception {
    WebindexConfig cfg = world("fo_restart");
    try (AccumuloUrlFrontier f = AccumuloUrlFrontier.open(connector(), cfg)) {
      f.setDelay("", "", 0);
      assertEquals(List.of("http://a.com/1"), get(f, params(1, 0, "a.com", 600)));
      f.setDelay("", "b.com", 600);
      assertEquals(List.of("http://b.com/1"), get(f, params(1, 0, "b.com", 600)));
      f.blockQueueUntil("", "c.com", Instant.now().getEpochSecond() + 600);
      f.setCrawlLimit("", "a.com", 1);
      f.setActive(false);
    }
    try (AccumuloUrlFrontier f = AccumuloUrlFrontier.open(connector(), cfg)) {
      assertFalse(f.active());
      assertEquals(List.of(), get(f, params(1, 0, "", 600)), "inactive");
      f.setActive(true);
      assertEquals(2, f.stats("", "").inProcess(), "a/1 and b/1 still in flight");
      assertEquals(List.of("a.com", "b.com", "z.com"), f.listQueues("", 0, 0, false), "c blocked");
      assertEquals(List.of("a.com", "b.com", "c.com", "z.com"), f.listQueues("", 0, 0, true));
      // a: its lease on a/1 is kept, a/2 comes next; b: within its 600 s delay; c: blocked
      assertEquals(List.of("http://a.com/2"), get(f, params(1, 0, "", 600)));
      // a/2 completed: one completed is a's limit
      assertEquals(Ack.OK, f.put(known("http://a.com/2", 0)));
      assertEquals(1L, f.stats("", "a.com").counts().get("completed"));
      assertEquals(List.of(), get(f, params(1, 0, "a.com", 600)), "at the crawl limit");
      f.setCrawlLimit("", "a.com", 0);
      assertEquals(List.of("http://a.com/3"), get(f, params(1, 0, "a.com", 600)), "no limit");
      f.blockQueueUntil("", "c.com", 0);
      assertEquals(List.of("http://c.com/1"), get(f, params(1, 0, "c.com", 600)), "unblocked");
    }
  }

  @Test
  public void discoveredUrlsAreAddedOnlyIfUnknown() throws Exception {
    WebindexConfig cfg = world("fo_disc");
    Connector other = newConnector();
    try (AccumuloUrlFrontier f =
            AccumuloUrlFrontier.open(connector(), cfg, "p1", System::currentTimeMillis);
        AccumuloUrlFrontier g =
            AccumuloUrlFrontier.open(other, cfg, "p2", System::currentTimeMillis)) {
      assertEquals(Ack.SKIPPED, f.put(discovered("http://a.com/1", "", "")), "known to the index");
      assertEquals(Ack.SKIPPED, f.put(discovered("http://", "", "")), "not a URL");
      // DEFAULT ignores the client's queue key: the host's queue
      assertEquals(Ack.OK, f.put(discovered("HTTP://A.com/new", "", "elsewhere")));
      assertEquals(Ack.SKIPPED, g.put(discovered("http://a.com/new", "", "")), "put before");
      // two processes put one URL at once: exactly one OK
      for (int round = 0; round < 3; round++) {
        String url = "http://b.com/race" + round;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        Future<Ack> x =
            pool.submit(
                () -> {
                  go.await();
                  return f.put(discovered(url, "", ""));
                });
        Future<Ack> y =
            pool.submit(
                () -> {
                  go.await();
                  return g.put(discovered(url, "", ""));
                });
        go.countDown();
        List<Ack> acks = new ArrayList<>(List.of(x.get(), y.get()));
        Collections.sort(acks);
        assertEquals(List.of(Ack.OK, Ack.SKIPPED), acks, url);
        pool.shutdown();
      }
      // a discovered URL is due at once with urc 0: after a/1, a/2 (due 0, urc 3 and 1)
      assertEquals(
          List.of("http://a.com/1", "http://a.com/2", "http://a.com/new"),
          get(f, params(3, 0, "a.com", 600)));
      assertEquals(Ack.SKIPPED, f.put(discovered("http://a.com/new", "", "")), "in flight");

      // another crawl: the client's queue key, metadata handed back, deleted on demand
      Map<String, List<String>> meta = Map.of("depth", List.of("2"), "from", List.of("a b&c"));
      assertEquals(
          Ack.OK, f.put(new PutItem(new UrlInfo("http://q.org/x", "k1", "mine", meta), true, 0)));
      assertEquals(Ack.OK, f.put(discovered("http://q.org/y", "mine", "")));
      assertEquals(List.of("DEFAULT", "mine"), f.listCrawls());
      List<UrlInfo> got = new ArrayList<>();
      f.getUrls(new GetParams(5, 0, "", 600, "mine"), got::add);
      assertEquals(
          List.of(
              new UrlInfo("http://q.org/x", "k1", "mine", meta),
              new UrlInfo("http://q.org/y", "q.org", "mine", Map.of())),
          got);
      assertEquals(2, f.countUrls(new UrlSelection("mine", "", "Q.ORG", true, 0, 0)));
      assertEquals(0, f.countUrls(new UrlSelection("mine", "", "Q.ORG", false, 0, 0)));
      assertEquals(1, f.deleteQueue("mine", "k1"));
      assertEquals(1, f.deleteCrawl("mine"));
      assertEquals(List.of("DEFAULT"), f.listCrawls());
      assertThrows(UnsupportedOperationException.class, () -> f.deleteCrawl(""));
      assertThrows(UnsupportedOperationException.class, () -> f.deleteQueue("", "a.com"));
    }
  }

  @Test
  public void aBatchOfPutsAnswersEachItemAsOnePutAfterAnotherWould() throws Exception {
    WebindexConfig cfg = world("fo_batch");
    try (AccumuloUrlFrontier f = AccumuloUrlFrontier.open(connector(), cfg)) {
      f.setDelay("", "", 0);
      List<Ack> acks =
          f.putAll(
              List.of(
                  discovered("http://a.com/1", "", ""), // known to the index: SKIPPED
                  discovered("http://a.com/n1", "", ""), // OK
                  discovered("http://A.com/n1", "", ""), // recorded by the one before: SKIPPED
                  discovered("http://", "", ""), // not a URL: SKIPPED
                  discovered("http://b.com/n2", "", ""), // another queue: OK
                  known("http://a.com/n1", 4_000_000_000L), // replaces the discovered one: OK
                  discovered("http://q.org/x", "mine", "k1"), // another crawl: OK
                  discovered("http://q.org/x", "mine", "k1"))); // SKIPPED
      assertEquals(
          List.of(
              Ack.SKIPPED, Ack.OK, Ack.SKIPPED, Ack.SKIPPED, Ack.OK, Ack.OK, Ack.OK, Ack.SKIPPED),
          acks);
      // a/n1 known, due in the year 2096
      assertEquals(
          4_000_000_000L,
          f.urlStatus("", "http://a.com/n1", "").orElseThrow().refetchableFromSeconds());
      // b.com: b/1 (due 0, urc 2), b/n2 (discovered: due 0, urc 0), b/2 (due 1000)
      assertEquals(
          List.of("http://b.com/1", "http://b.com/n2", "http://b.com/2"),
          get(f, params(5, 0, "b.com", 600)));
      List<UrlInfo> got = new ArrayList<>();
      f.getUrls(new GetParams(5, 0, "", 600, "mine"), got::add);
      assertEquals(List.of(new UrlInfo("http://q.org/x", "k1", "mine", Map.of())), got);
    }
  }

  @Test
  public void aKnownPutBackHoldsUntilTheIndexHasANewerCrawl() throws Exception {
    WebindexConfig cfg = world("fo_basis");
    try (AccumuloUrlFrontier f = AccumuloUrlFrontier.open(connector(), cfg)) {
      f.setDelay("", "", 0);
      // a/3 (crawled at 500 ms, due 1000) put back: due again at 4 000 000 000 s (year 2096)
      // a/1 was never crawled: due at once, reported as 1 s after the epoch (0 means completed)
      assertEquals(1, f.urlStatus("", "http://a.com/1", "").orElseThrow().refetchableFromSeconds());
      assertEquals(Ack.OK, f.put(known("http://a.com/3", 4_000_000_000L)));
      assertEquals(
          4_000_000_000L,
          f.urlStatus("", "http://a.com/3", "").orElseThrow().refetchableFromSeconds());
      assertEquals(List.of("http://a.com/1", "http://a.com/2"), get(f, params(5, 0, "a.com", 1)));
      String ops = cfg.tablePrefix() + "_frontier_ops";
      assertTrue(readTableAsMap(ops).keySet().stream().anyMatch(k -> k.contains("url:com.a/3")));

      // the next run has the crawler's page of a/3: crawled at 1500 ms, due at 2000 ms
      serveRun(
          cfg,
          "r2",
          List.of(cell("q:a.com", "00000000000007d0:7fffffffffffffff:com.a/3", "http://a.com/3")),
          incounts("com.a/3"),
          List.of(
              new TimedCell("com.a/3", "crawl", "", 500, "ok - 1"),
              new TimedCell("com.a/3", "crawl", "", 1_500, "ok - 1")));
      f.refresh();
      assertEquals(2, f.urlStatus("", "http://a.com/3", "").orElseThrow().refetchableFromSeconds());
      Thread.sleep(1_100); // the leases of a/1 and a/2 end
      assertEquals(List.of("http://a.com/3"), get(f, params(5, 0, "a.com", 600)), "the schedule");
      assertFalse(
          readTableAsMap(ops).keySet().stream().anyMatch(k -> k.contains("url:com.a/3")),
          "the stale record went with the row's next write");
    }
  }
}
