package io.webindex.frontierit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * {@code frontier-serve} as crawlers see it: the pristine URLFrontier 2.5 client stubs against two
 * frontier processes of one index, one started as the Tool ({@code FrontierServeTool}) and one as
 * {@code bin/webindex frontier-serve} (cli's {@code Main}). The index is {@code demo --serve} on a
 * hand-written crawl, in a child process too.
 *
 * <p>The crawl (batch 0, crawled an hour ago, so its pages are due again in 30 days): {@code
 * src1.example/} links to {@code q1.example/a}, {@code q1.example/b}, {@code q2.example/x} and
 * {@code q3.example/}; {@code src2.example/} to {@code q1.example/a} and {@code q2.example/x};
 * {@code src3.example/} to {@code q1.example/a}. So the never-crawled URLs are due now, with urc
 * (pages linking to them) {@code q1.example/a} 3, {@code q2.example/x} 2, {@code q1.example/b} 1,
 * {@code q3.example/} 1; the queue {@code q1.example} comes first (its head has urc 3), then {@code
 * q2.example} (2), then {@code q3.example} (1). Every other test uses a crawl of its own.
 */
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FrontierServiceIT {
  private static final Pattern SERVING_WEB = Pattern.compile("^serving (http://\\S+) ");
  private static final Pattern SERVING_FRONTIER =
      Pattern.compile("^serving URLFrontier on (\\S+) \\(port (\\d+);");

  private static Path work;
  private static Path conf;
  private static ChildProcess index;
  private static ChildProcess toolProcess;
  private static ChildProcess cliProcess;
  private static ManagedChannel toolChannel;
  private static ManagedChannel cliChannel;
  private static int toolPort;

  @BeforeAll
  static void start() throws Exception {
    work = Files.createDirectories(Paths.get("target", "frontier-it").toAbsolutePath());
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    String crawled = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS) + "";
    Path pages = work.resolve("pages.jsonl");
    Files.writeString(
        pages,
        page(crawled, "http://src1.example/", "http://q1.example/a", "http://q1.example/b")
                .replace(
                    "]}",
                    ", " + link("http://q2.example/x") + ", " + link("http://q3.example/") + "]}")
            + page(crawled, "http://src2.example/", "http://q1.example/a", "http://q2.example/x")
            + page(crawled, "http://src3.example/", "http://q1.example/a"));
    // the demo's embedded instance lives in java.io.tmpdir: there the test finds its connection
    // file
    index =
        ChildProcess.start(
            "demo",
            ChildProcess.classpath("cli"),
            List.of("-Xmx1g", "-Djava.io.tmpdir=" + tmp),
            "io.webindex.cli.Main",
            List.of(
                "demo",
                "--input",
                pages.toString(),
                // the tests take the frontier as the crawl left it: no crawl loop of the demo's
                "--crawl",
                "0",
                "--serve",
                "--port",
                "0",
                "--out",
                work.resolve("demo-out").toString()),
            SERVING_WEB,
            400);
    try (Stream<Path> dirs = Files.list(tmp)) {
      conf =
          dirs.map(d -> d.resolve("webindex.properties"))
              .filter(Files::isRegularFile)
              .findFirst()
              .orElseThrow(() -> new AssertionError("no connection file of the demo in " + tmp));
    }
    toolProcess = startTool();
    toolPort = Integer.parseInt(toolProcess.ready().group(2));
    toolChannel = channel(toolPort);
    cliProcess =
        ChildProcess.start(
            "frontier-serve",
            ChildProcess.classpath("cli"),
            List.of("-Xmx256m"),
            "io.webindex.cli.Main",
            List.of("frontier-serve", "--port", "0", "--conf", conf.toString()),
            SERVING_FRONTIER,
            120);
    cliChannel = channel(Integer.parseInt(cliProcess.ready().group(2)));
  }

  private static ChildProcess startTool() throws Exception {
    return ChildProcess.start(
        "FrontierServeTool",
        ChildProcess.classpath("frontier"),
        List.of("-Xmx256m"),
        "io.webindex.frontier.FrontierServeTool",
        List.of("--port", "0", "--webindex-conf", conf.toString()),
        SERVING_FRONTIER,
        120);
  }

  private static String link(String url) {
    return "{\"url\": \"" + url + "\", \"anchor\": \"x\"}";
  }

  private static String page(String crawled, String url, String... links) {
    List<String> l = new ArrayList<>();
    for (String s : links) {
      l.add(link(s));
    }
    return "{\"url\": \""
        + url
        + "\", \"crawled\": \""
        + crawled
        + "\", \"title\": \"t\", \"links\": ["
        + String.join(", ", l)
        + "]}\n";
  }

  private static ManagedChannel channel(int port) {
    return ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  @AfterAll
  static void stop() throws Exception {
    for (ManagedChannel c : new ManagedChannel[] {toolChannel, cliChannel}) {
      if (c != null) {
        c.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      }
    }
    for (ChildProcess p : new ChildProcess[] {toolProcess, cliProcess, index}) {
      if (p != null) {
        p.close();
      }
    }
  }

  // --- client helpers: what a crawler does ---

  private static URLFrontierGrpc.URLFrontierBlockingStub blocking(ManagedChannel c) {
    return URLFrontierGrpc.newBlockingStub(c).withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  private static List<Urlfrontier.URLInfo> get(
      ManagedChannel c, String crawl, int perQueue, int leaseSeconds) {
    return get(c, Urlfrontier.GetParams.newBuilder(), crawl, perQueue, leaseSeconds);
  }

  private static List<Urlfrontier.URLInfo> get(
      ManagedChannel c,
      Urlfrontier.GetParams.Builder params,
      String crawl,
      int perQueue,
      int leaseSeconds) {
    List<Urlfrontier.URLInfo> got = new ArrayList<>();
    blocking(c)
        .getURLs(
            params
                .setCrawlID(crawl)
                .setMaxUrlsPerQueue(perQueue)
                .setDelayRequestable(leaseSeconds)
                .build())
        .forEachRemaining(got::add);
    return got;
  }

  private static List<String> urls(List<Urlfrontier.URLInfo> infos) {
    List<String> l = new ArrayList<>();
    infos.forEach(i -> l.add(i.getUrl()));
    return l;
  }

  private static Urlfrontier.URLItem discovered(String crawl, String url) {
    return Urlfrontier.URLItem.newBuilder()
        .setDiscovered(
            Urlfrontier.DiscoveredURLItem.newBuilder()
                .setInfo(Urlfrontier.URLInfo.newBuilder().setUrl(url).setCrawlID(crawl)))
        .build();
  }

  private static Urlfrontier.URLItem known(String crawl, String url, long refetchable) {
    return Urlfrontier.URLItem.newBuilder()
        .setKnown(
            Urlfrontier.KnownURLItem.newBuilder()
                .setInfo(Urlfrontier.URLInfo.newBuilder().setUrl(url).setCrawlID(crawl))
                .setRefetchableFromDate(refetchable))
        .build();
  }

  /** One PutURLs stream: the items, then the acknowledgements as "id STATUS". */
  private static List<String> put(ManagedChannel c, Urlfrontier.URLItem... items)
      throws InterruptedException {
    List<String> acks = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(1);
    Throwable[] error = new Throwable[1];
    StreamObserver<Urlfrontier.URLItem> requests =
        URLFrontierGrpc.newStub(c)
            .putURLs(
                new StreamObserver<>() {
                  @Override
                  public void onNext(Urlfrontier.AckMessage a) {
                    acks.add(a.getID() + " " + a.getStatus());
                  }

                  @Override
                  public void onError(Throwable t) {
                    error[0] = t;
                    done.countDown();
                  }

                  @Override
                  public void onCompleted() {
                    done.countDown();
                  }
                });
    for (Urlfrontier.URLItem i : items) {
      requests.onNext(i);
    }
    requests.onCompleted();
    assertTrue(done.await(60, TimeUnit.SECONDS), "PutURLs did not complete");
    assertNull(error[0]);
    return new ArrayList<>(acks);
  }

  private static long nowSeconds() {
    return System.currentTimeMillis() / 1000;
  }

  // --- the tests ---

  @Test
  @Order(1)
  void indexFrontierByPriorityAndNoHostTwiceWithinItsDelay() throws Exception {
    // q1.example: at most one hand-out every 4 seconds
    blocking(toolChannel)
        .setDelay(
            Urlfrontier.QueueDelayParams.newBuilder()
                .setKey("q1.example")
                .setDelayRequestable(4)
                .build());
    long first = System.nanoTime();
    List<Urlfrontier.URLInfo> got = get(toolChannel, "", 1, 600);
    assertEquals(
        List.of("http://q1.example/a", "http://q2.example/x", "http://q3.example/"), urls(got));
    assertEquals("q1.example", got.get(0).getKey());
    assertEquals("DEFAULT", got.get(0).getCrawlID());
    // the other process: q1.example's second URL not within the delay, the rest in flight
    List<Urlfrontier.URLInfo> again = get(cliChannel, "DEFAULT", 0, 600);
    long elapsedMs = (System.nanoTime() - first) / 1_000_000;
    if (elapsedMs < 4000) {
      assertEquals(List.of(), urls(again));
    }
    Thread.sleep(Math.max(0, 4500 - (System.nanoTime() - first) / 1_000_000));
    assertEquals(List.of("http://q1.example/b"), urls(get(cliChannel, "DEFAULT", 0, 600)));
  }

  @Test
  @Order(2)
  void discoveredUrlsAreDeduplicated() throws Exception {
    assertEquals(
        List.of(
            "http://q1.example/a SKIPPED", // known to the index
            "http://new.example/p OK",
            "http://new.example/p SKIPPED"), // put twice
        put(
            toolChannel,
            discovered("", "http://q1.example/a"),
            discovered("", "http://new.example/p"),
            discovered("", "http://new.example/p")));
    // the same new URL from both processes at once: stored once
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<List<String>> a =
          pool.submit(() -> put(toolChannel, discovered("", "http://race.example/p")));
      Future<List<String>> b =
          pool.submit(() -> put(cliChannel, discovered("", "http://race.example/p")));
      List<String> both = new ArrayList<>(a.get(60, TimeUnit.SECONDS));
      both.addAll(b.get(60, TimeUnit.SECONDS));
      Collections.sort(both);
      assertEquals(List.of("http://race.example/p OK", "http://race.example/p SKIPPED"), both);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @Order(3)
  void leaseEndsAfterDelayRequestable() throws Exception {
    assertEquals(
        List.of("http://l1.example/1 OK"),
        put(toolChannel, discovered("lease", "http://l1.example/1")));
    long t0 = System.nanoTime();
    assertEquals(List.of("http://l1.example/1"), urls(get(toolChannel, "lease", 0, 3)));
    Urlfrontier.Stats stats =
        blocking(cliChannel)
            .getStats(Urlfrontier.QueueWithinCrawlParams.newBuilder().setCrawlID("lease").build());
    assertEquals(1, stats.getInProcess());
    assertEquals(1, stats.getSize());
    if ((System.nanoTime() - t0) / 1_000_000 < 3000) {
      assertEquals(List.of(), urls(get(cliChannel, "lease", 0, 3))); // in flight
    }
    Thread.sleep(Math.max(0, 3500 - (System.nanoTime() - t0) / 1_000_000));
    assertEquals(List.of("http://l1.example/1"), urls(get(cliChannel, "lease", 0, 3)));
  }

  @Test
  @Order(4)
  void knownUrlsWaitForTheirDateAndCompletedOnesNeverComeBack() throws Exception {
    long later = nowSeconds() + 3600;
    assertEquals(
        List.of("k1 OK", "k2 OK", "k3 OK", "http://k.example/1 OK", "http://k.example/2 OK"),
        put(
            toolChannel,
            discovered("known", "http://k.example/1").toBuilder().setID("k1").build(),
            discovered("known", "http://k.example/2").toBuilder().setID("k2").build(),
            discovered("known", "http://k.example/3").toBuilder().setID("k3").build(),
            known("known", "http://k.example/1", later),
            known("known", "http://k.example/2", 0)));
    assertEquals(List.of("http://k.example/3"), urls(get(cliChannel, "known", 0, 600)));
    // completed: a discovery of it is skipped
    assertEquals(
        List.of("http://k.example/2 SKIPPED"),
        put(cliChannel, discovered("known", "http://k.example/2")));
    Urlfrontier.URLItem status =
        blocking(cliChannel)
            .getURLStatus(
                Urlfrontier.URLStatusRequest.newBuilder()
                    .setCrawlID("known")
                    .setUrl("http://k.example/1")
                    .build());
    assertEquals(later, status.getKnown().getRefetchableFromDate());
    assertEquals(
        0,
        blocking(toolChannel)
            .getURLStatus(
                Urlfrontier.URLStatusRequest.newBuilder()
                    .setCrawlID("known")
                    .setUrl("http://k.example/2")
                    .build())
            .getKnown()
            .getRefetchableFromDate());
    StatusRuntimeException unknown =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                blocking(toolChannel)
                    .getURLStatus(
                        Urlfrontier.URLStatusRequest.newBuilder()
                            .setCrawlID("known")
                            .setUrl("http://k.example/never")
                            .build()));
    assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
    assertEquals(
        3,
        blocking(toolChannel)
            .countURLs(Urlfrontier.CountUrlParams.newBuilder().setCrawlID("known").build())
            .getValue());
    List<String> listed = new ArrayList<>();
    blocking(cliChannel)
        .listURLs(
            Urlfrontier.ListUrlParams.newBuilder()
                .setCrawlID("known")
                .setKey("k.example")
                .setFilter("K.EXAMPLE/2")
                .setIgnoreCase(true)
                .build())
        .forEachRemaining(
            i ->
                listed.add(
                    i.getKnown().getInfo().getUrl() + " " + i.getKnown().getRefetchableFromDate()));
    assertEquals(List.of("http://k.example/2 0"), listed);
  }

  @Test
  @Order(5)
  void twoProcessesNeverHandOutOneUrl() throws Exception {
    List<Urlfrontier.URLItem> items = new ArrayList<>();
    Set<String> all = new HashSet<>();
    for (int h = 0; h < 6; h++) {
      for (int u = 0; u < 4; u++) {
        String url = "http://race" + h + ".example/" + u;
        items.add(discovered("race", url));
        all.add(url);
      }
    }
    List<String> acks = put(toolChannel, items.toArray(new Urlfrontier.URLItem[0]));
    assertEquals(24, acks.stream().filter(a -> a.endsWith(" OK")).count(), acks.toString());
    // four crawlers, two on each process, take URLs until all are out
    List<String> handedOut = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> crawlers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        ManagedChannel c = i % 2 == 0 ? toolChannel : cliChannel;
        crawlers.add(
            pool.submit(
                () -> {
                  long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                  while (handedOut.size() < all.size() && System.nanoTime() < end) {
                    handedOut.addAll(urls(get(c, "race", 2, 600)));
                  }
                  return null;
                }));
      }
      for (Future<?> f : crawlers) {
        f.get(90, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> sorted = new ArrayList<>(handedOut);
    Collections.sort(sorted);
    assertEquals(all, new HashSet<>(sorted));
    assertEquals(all.size(), sorted.size(), "a URL handed out twice: " + sorted);
  }

  @Test
  @Order(6)
  void aCrawlLimitStopsTheQueue() throws Exception {
    put(
        toolChannel,
        discovered("limit", "http://lim.example/1"),
        discovered("limit", "http://lim.example/2"),
        discovered("limit", "http://lim.example/3"));
    blocking(toolChannel)
        .setCrawlLimit(
            Urlfrontier.CrawlLimitParams.newBuilder()
                .setCrawlID("limit")
                .setKey("lim.example")
                .setLimit(1)
                .build());
    assertEquals(
        List.of("http://lim.example/1 OK"),
        put(cliChannel, known("limit", "http://lim.example/1", 0)));
    assertEquals(List.of(), urls(get(cliChannel, "limit", 0, 600)));
    blocking(cliChannel)
        .setCrawlLimit(
            Urlfrontier.CrawlLimitParams.newBuilder()
                .setCrawlID("limit")
                .setKey("lim.example")
                .setLimit(0)
                .build());
    assertEquals(
        List.of("http://lim.example/2", "http://lim.example/3"),
        urls(get(toolChannel, "limit", 0, 600)));
    assertEquals(
        3,
        blocking(toolChannel)
            .deleteQueue(
                Urlfrontier.QueueWithinCrawlParams.newBuilder()
                    .setCrawlID("limit")
                    .setKey("lim.example")
                    .build())
            .getValue());
  }

  @Test
  @Order(7)
  void aRestartKeepsLeasesBlocksAndDelays() throws Exception {
    put(
        toolChannel,
        discovered("restart", "http://r1.example/1"),
        discovered("restart", "http://r2.example/1"),
        discovered("restart", "http://r3.example/1"),
        discovered("restart", "http://r3.example/2"));
    // r1: leased for 10 minutes
    assertEquals(
        List.of("http://r1.example/1"),
        urls(
            get(
                toolChannel,
                Urlfrontier.GetParams.newBuilder().setKey("r1.example"),
                "restart",
                0,
                600)));
    // r2: blocked for an hour
    blocking(toolChannel)
        .blockQueueUntil(
            Urlfrontier.BlockQueueParams.newBuilder()
                .setCrawlID("restart")
                .setKey("r2.example")
                .setTime(nowSeconds() + 3600)
                .build());
    // r3: one URL handed out, the next one an hour later
    blocking(toolChannel)
        .setDelay(
            Urlfrontier.QueueDelayParams.newBuilder()
                .setCrawlID("restart")
                .setKey("r3.example")
                .setDelayRequestable(3600)
                .build());
    assertEquals(
        List.of("http://r3.example/1"),
        urls(
            get(
                toolChannel,
                Urlfrontier.GetParams.newBuilder().setKey("r3.example"),
                "restart",
                1,
                600)));

    // a crash of the process that handed them out, and a new one
    toolChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    toolProcess.kill();
    toolProcess = startTool();
    toolChannel = channel(Integer.parseInt(toolProcess.ready().group(2)));

    assertEquals(List.of(), urls(get(toolChannel, "restart", 0, 600)));
    assertEquals(
        2,
        blocking(toolChannel)
            .getStats(Urlfrontier.QueueWithinCrawlParams.newBuilder().setCrawlID("restart").build())
            .getInProcess());
    blocking(cliChannel)
        .blockQueueUntil(
            Urlfrontier.BlockQueueParams.newBuilder()
                .setCrawlID("restart")
                .setKey("r2.example")
                .setTime(0)
                .build());
    assertEquals(List.of("http://r2.example/1"), urls(get(toolChannel, "restart", 0, 600)));
  }

  @Test
  @Order(8)
  void queuesCrawlsNodesAndRefusals() throws Exception {
    Urlfrontier.QueueList queues =
        blocking(toolChannel)
            .listQueues(
                Urlfrontier.Pagination.newBuilder()
                    .setCrawlID("race")
                    .setIncludeInactive(true)
                    .build());
    assertEquals(6, queues.getValuesCount(), queues.toString());
    assertTrue(queues.getValuesList().contains("race0.example"), queues.toString());
    List<String> crawls =
        blocking(cliChannel).listCrawls(Urlfrontier.Local.getDefaultInstance()).getValuesList();
    assertTrue(
        crawls.containsAll(List.of("DEFAULT", "lease", "known", "race", "restart")),
        crawls.toString());
    Map<String, Long> counts =
        new HashMap<>(
            blocking(toolChannel)
                .getStats(
                    Urlfrontier.QueueWithinCrawlParams.newBuilder().setCrawlID("known").build())
                .getCountsMap());
    assertEquals(1L, counts.get("completed"));

    StatusRuntimeException refused =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                blocking(toolChannel)
                    .deleteQueue(
                        Urlfrontier.QueueWithinCrawlParams.newBuilder()
                            .setKey("q1.example")
                            .build()));
    assertEquals(Status.Code.FAILED_PRECONDITION, refused.getStatus().getCode());
    assertFalse(refused.getStatus().getDescription().contains("\n"));

    StatusRuntimeException logLevel =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                blocking(cliChannel)
                    .setLogLevel(
                        Urlfrontier.LogLevelParams.newBuilder()
                            .setPackage("io.webindex")
                            .setLevel(Urlfrontier.LogLevelParams.Level.DEBUG)
                            .build()));
    assertEquals(Status.Code.UNIMPLEMENTED, logLevel.getStatus().getCode());

    String node = toolProcess.ready().group(1);
    assertEquals(
        List.of(node),
        blocking(toolChannel).listNodes(Urlfrontier.Empty.getDefaultInstance()).getValuesList());

    // inactive: nothing handed out by either process, puts still stored
    blocking(toolChannel).setActive(Urlfrontier.Active.newBuilder().setState(false).build());
    try {
      assertFalse(
          blocking(cliChannel).getActive(Urlfrontier.Local.getDefaultInstance()).getState());
      assertEquals(
          List.of("http://idle.example/1 OK"),
          put(cliChannel, discovered("idle", "http://idle.example/1")));
      assertEquals(List.of(), urls(get(cliChannel, "idle", 0, 600)));
    } finally {
      blocking(toolChannel).setActive(Urlfrontier.Active.newBuilder().setState(true).build());
    }
    assertEquals(List.of("http://idle.example/1"), urls(get(cliChannel, "idle", 0, 600)));
  }
}
