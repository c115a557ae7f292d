package io.webindex.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.frontier.service.FrontierUnavailableException;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.frontier.shaded.crawlercommons.urlfrontier.URLFrontierGrpc;
import io.webindex.frontier.shaded.crawlercommons.urlfrontier.Urlfrontier;
import io.webindex.frontier.shaded.io.grpc.Grpc;
import io.webindex.frontier.shaded.io.grpc.InsecureChannelCredentials;
import io.webindex.frontier.shaded.io.grpc.ManagedChannel;
import io.webindex.frontier.shaded.io.grpc.Status;
import io.webindex.frontier.shaded.io.grpc.StatusRuntimeException;
import io.webindex.frontier.shaded.io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The protocol mapping over a real gRPC server and channel (the relocated gRPC this module ships,
 * the channel found through its service files): what each rpc passes on to the frontier and what
 * the client gets back, statuses included. The frontier is a {@link RecordingFrontier}.
 */
class FrontierGrpcServiceTest {
  private RecordingFrontier frontier;
  private FrontierServer server;
  private ManagedChannel channel;
  private URLFrontierGrpc.URLFrontierBlockingStub blocking;
  private URLFrontierGrpc.URLFrontierStub async;

  @BeforeEach
  void start() {
    frontier = new RecordingFrontier();
    server = FrontierServer.start(frontier, "127.0.0.1", 0);
    channel =
        Grpc.newChannelBuilder("127.0.0.1:" + server.port(), InsecureChannelCredentials.create())
            .build();
    blocking = URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    async = URLFrontierGrpc.newStub(channel);
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
  }

  private static Urlfrontier.URLInfo info(String url, String key, String crawl) {
    return Urlfrontier.URLInfo.newBuilder().setUrl(url).setKey(key).setCrawlID(crawl).build();
  }

  @Test
  void getUrlsStreamsWhatTheFrontierHandsOutThenEnds() {
    frontier.toHandOut =
        List.of(
            new UrlFrontier.UrlInfo(
                "http://a.com/1", "a.com", "", Map.of("depth", List.of("1", "2"))),
            new UrlFrontier.UrlInfo("http://b.com/", "b.com", "news", Map.of()));
    Iterator<Urlfrontier.URLInfo> it =
        blocking.getURLs(
            Urlfrontier.GetParams.newBuilder()
                .setMaxUrlsPerQueue(3)
                .setMaxQueues(7)
                .setDelayRequestable(45)
                .build());
    List<Urlfrontier.URLInfo> got = new ArrayList<>();
    it.forEachRemaining(got::add);
    assertEquals(2, got.size());
    assertEquals("http://a.com/1", got.get(0).getUrl());
    assertEquals("a.com", got.get(0).getKey());
    assertEquals("DEFAULT", got.get(0).getCrawlID()); // an empty crawl id is DEFAULT
    assertEquals(List.of("1", "2"), got.get(0).getMetadataMap().get("depth").getValuesList());
    assertEquals("news", got.get(1).getCrawlID());
    // no crawl id: any crawl (null)
    assertEquals(List.of("getUrls 3 7 [] 45 null"), frontier.calls());
  }

  @Test
  void getUrlsCrawlIds() {
    blocking
        .getURLs(
            Urlfrontier.GetParams.newBuilder()
                .setAnyCrawlID(Urlfrontier.AnyCrawlID.getDefaultInstance())
                .build())
        .forEachRemaining(x -> {});
    blocking
        .getURLs(Urlfrontier.GetParams.newBuilder().setCrawlID("").setKey("a.com").build())
        .forEachRemaining(x -> {});
    blocking
        .getURLs(Urlfrontier.GetParams.newBuilder().setCrawlID("news").build())
        .forEachRemaining(x -> {});
    assertEquals(
        List.of("getUrls 0 0 [] 0 null", "getUrls 0 0 [a.com] 0 DEFAULT", "getUrls 0 0 [] 0 news"),
        frontier.calls());
  }

  @Test
  void putUrlsAcksEveryItemWithItsIdOrUrl() throws Exception {
    List<Urlfrontier.URLItem> items =
        List.of(
            // OK, acked by its ID
            Urlfrontier.URLItem.newBuilder()
                .setID("id-1")
                .setDiscovered(
                    Urlfrontier.DiscoveredURLItem.newBuilder()
                        .setInfo(
                            info("http://a.com/x", "", "").toBuilder()
                                .putMetadata(
                                    "src",
                                    Urlfrontier.StringList.newBuilder()
                                        .addValues("http://a.com/")
                                        .build())))
                .build(),
            // OK, no ID: acked by its URL
            Urlfrontier.URLItem.newBuilder()
                .setKnown(
                    Urlfrontier.KnownURLItem.newBuilder()
                        .setInfo(info("http://a.com/y", "q1", "news"))
                        .setRefetchableFromDate(1_700_000_000L))
                .build(),
            // discovered and already known: SKIPPED
            Urlfrontier.URLItem.newBuilder()
                .setDiscovered(
                    Urlfrontier.DiscoveredURLItem.newBuilder()
                        .setInfo(info("http://known.example/", "", "")))
                .build(),
            // invalid: SKIPPED
            Urlfrontier.URLItem.newBuilder()
                .setID("bad")
                .setDiscovered(
                    Urlfrontier.DiscoveredURLItem.newBuilder().setInfo(info("nonsense", "", "")))
                .build(),
            // the store is down: FAIL (may be sent again)
            Urlfrontier.URLItem.newBuilder()
                .setID("down")
                .setKnown(
                    Urlfrontier.KnownURLItem.newBuilder()
                        .setInfo(info("http://down.example/", "", "")))
                .build(),
            // neither discovered nor known: SKIPPED, the frontier is not asked
            Urlfrontier.URLItem.newBuilder().setID("empty").build());
    List<Urlfrontier.AckMessage> acks = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    Throwable[] error = new Throwable[1];
    StreamObserver<Urlfrontier.URLItem> requests =
        async.putURLs(
            new StreamObserver<>() {
              @Override
              public void onNext(Urlfrontier.AckMessage ack) {
                synchronized (acks) {
                  acks.add(ack);
                }
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
    items.forEach(requests::onNext);
    requests.onCompleted();
    assertTrue(done.await(30, TimeUnit.SECONDS));
    assertEquals(null, error[0]);
    List<String> got = new ArrayList<>();
    for (Urlfrontier.AckMessage a : acks) {
      got.add(a.getID() + " " + a.getStatus());
    }
    assertEquals(
        List.of(
            "id-1 OK",
            "http://a.com/y OK",
            "http://known.example/ SKIPPED",
            "bad SKIPPED",
            "down FAIL",
            "empty SKIPPED"),
        got);
    assertEquals(
        List.of(
            "put discovered http://a.com/x [] [] {src=[http://a.com/]} 0",
            "put known http://a.com/y [q1] [news] {} 1700000000",
            "put discovered http://known.example/ [] [] {} 0",
            "put discovered nonsense [] [] {} 0",
            "put known http://down.example/ [] [] {} 0"),
        frontier.calls());
  }

  /**
   * Items that arrive while earlier ones are stored are stored together, at most PUT_BATCH at a
   * time, and every item is answered once, in the order sent.
   */
  @Test
  void putUrlsStoresWhatArrivedTogetherAndAnswersInOrder() throws InterruptedException {
    int n = 3 * FrontierGrpcService.PUT_BATCH + 7;
    CountDownLatch hold = new CountDownLatch(1);
    frontier.holdFirstBatch = hold;
    List<String> acks = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    Throwable[] error = new Throwable[1];
    StreamObserver<Urlfrontier.URLItem> requests =
        async.putURLs(
            new StreamObserver<>() {
              @Override
              public void onNext(Urlfrontier.AckMessage ack) {
                synchronized (acks) {
                  acks.add(ack.getID() + " " + ack.getStatus());
                }
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
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // every 10th a URL the frontier refuses (SKIPPED), the others stored (OK)
      String url = i % 10 == 3 ? "nonsense-" + i : "http://a.com/" + i;
      expected.add(url + (i % 10 == 3 ? " SKIPPED" : " OK"));
      requests.onNext(
          Urlfrontier.URLItem.newBuilder()
              .setKnown(Urlfrontier.KnownURLItem.newBuilder().setInfo(info(url, "", "")))
              .build());
    }
    requests.onCompleted();
    // the first batch is held: the server takes PUT_BATCH items ahead of the acks, minus the
    // one being stored, and no more
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < until && frontier.batches().isEmpty()) {
      Thread.sleep(10);
    }
    Thread.sleep(300);
    hold.countDown();
    assertTrue(done.await(30, TimeUnit.SECONDS));
    assertEquals(null, error[0]);
    assertEquals(expected, acks);
    List<Integer> batches = frontier.batches();
    assertEquals(n, batches.stream().mapToInt(Integer::intValue).sum());
    assertTrue(batches.stream().allMatch(b -> b <= FrontierGrpcService.PUT_BATCH), "" + batches);
    assertTrue(batches.size() < n / 2, "stored together, not in " + batches.size() + " calls");
    assertEquals(n, frontier.calls().size(), "each item put once");
  }

  @Test
  void queuesStatsAndSettings() {
    frontier.queues = List.of("a.com", "b.com");
    Urlfrontier.QueueList list =
        blocking.listQueues(
            Urlfrontier.Pagination.newBuilder().setStart(1).setIncludeInactive(true).build());
    assertEquals(List.of("a.com", "b.com"), list.getValuesList());
    assertEquals("DEFAULT", list.getCrawlID());
    assertEquals(1, list.getStart());
    assertEquals(2, list.getSize());
    blocking.listQueues(Urlfrontier.Pagination.newBuilder().setCrawlID("news").setSize(5).build());

    frontier.stats = new UrlFrontier.Stats(12, 3, Map.of("completed", 4L), 2, "news");
    Urlfrontier.Stats s =
        blocking.getStats(
            Urlfrontier.QueueWithinCrawlParams.newBuilder()
                .setCrawlID("news")
                .setKey("a.com")
                .build());
    assertEquals(12, s.getSize());
    assertEquals(3, s.getInProcess());
    assertEquals(Map.of("completed", 4L), s.getCountsMap());
    assertEquals(2, s.getNumberOfQueues());
    assertEquals("news", s.getCrawlID());

    blocking.blockQueueUntil(
        Urlfrontier.BlockQueueParams.newBuilder().setKey("a.com").setTime(1_800_000_000L).build());
    blocking.setDelay(
        Urlfrontier.QueueDelayParams.newBuilder()
            .setKey("")
            .setDelayRequestable(5)
            .setCrawlID("news")
            .build());
    blocking.setCrawlLimit(
        Urlfrontier.CrawlLimitParams.newBuilder().setKey("b.com").setLimit(-1).build());
    blocking.setActive(Urlfrontier.Active.newBuilder().setState(false).build());
    assertFalse(blocking.getActive(Urlfrontier.Local.getDefaultInstance()).getState());
    frontier.count = 9;
    assertEquals(
        9,
        blocking
            .deleteQueue(
                Urlfrontier.QueueWithinCrawlParams.newBuilder()
                    .setCrawlID("news")
                    .setKey("b.com")
                    .build())
            .getValue());
    frontier.crawls = List.of("DEFAULT", "news");
    assertEquals(
        List.of("DEFAULT", "news"),
        blocking.listCrawls(Urlfrontier.Local.getDefaultInstance()).getValuesList());
    assertEquals(
        9,
        blocking
            .deleteCrawl(Urlfrontier.DeleteCrawlMessage.newBuilder().setValue("news").build())
            .getValue());
    assertEquals(
        List.of(
            "listQueues DEFAULT 1 100 true", // size 0: the protocol's default
            "listQueues news 0 5 false",
            "stats news [a.com]",
            "blockQueueUntil DEFAULT [a.com] 1800000000",
            "setDelay news [] 5",
            "setCrawlLimit DEFAULT [b.com] 4294967295", // uint32: unsigned
            "setActive false",
            "active",
            "deleteQueue news [b.com]",
            "listCrawls",
            "deleteCrawl news"),
        frontier.calls());
  }

  @Test
  void urlStatusListAndCount() {
    StatusRuntimeException unknown =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                blocking.getURLStatus(
                    Urlfrontier.URLStatusRequest.newBuilder().setUrl("http://a.com/z").build()));
    assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
    assertEquals("the frontier does not know http://a.com/z", unknown.getStatus().getDescription());

    frontier.status =
        Optional.of(
            new UrlFrontier.UrlStatus(
                new UrlFrontier.UrlInfo("http://a.com/z", "a.com", "DEFAULT", Map.of()), 0));
    Urlfrontier.URLItem item =
        blocking.getURLStatus(
            Urlfrontier.URLStatusRequest.newBuilder()
                .setUrl("http://a.com/z")
                .setKey("a.com")
                .build());
    assertTrue(item.hasKnown());
    assertEquals("http://a.com/z", item.getKnown().getInfo().getUrl());
    assertEquals(0, item.getKnown().getRefetchableFromDate()); // completed

    frontier.listed =
        List.of(
            new UrlFrontier.UrlStatus(
                new UrlFrontier.UrlInfo("http://a.com/1", "a.com", "DEFAULT", Map.of()),
                1_700_000_100L));
    List<Urlfrontier.URLItem> listed = new ArrayList<>();
    blocking
        .listURLs(
            Urlfrontier.ListUrlParams.newBuilder()
                .setKey("a.com")
                .setFilter("A.COM")
                .setIgnoreCase(true)
                .setStart(2)
                .build())
        .forEachRemaining(listed::add);
    assertEquals(1, listed.size());
    assertEquals(1_700_000_100L, listed.get(0).getKnown().getRefetchableFromDate());
    frontier.count = 17;
    assertEquals(
        17,
        blocking
            .countURLs(Urlfrontier.CountUrlParams.newBuilder().setCrawlID("news").build())
            .getValue());
    assertEquals(
        List.of(
            "urlStatus DEFAULT http://a.com/z []",
            "urlStatus DEFAULT http://a.com/z [a.com]",
            "listUrls DEFAULT [a.com] A.COM true 2 100",
            "countUrls news [] null false 0 0"),
        frontier.calls());
  }

  @Test
  void failuresBecomeStatusesWithOneLine() {
    frontier.failure = new IllegalArgumentException("a negative thing\nsecond line");
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, this::stats);
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertEquals("a negative thing", e.getStatus().getDescription());

    frontier.failure =
        new UnsupportedOperationException("the DEFAULT crawl's queues come from the index");
    e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                blocking.deleteQueue(
                    Urlfrontier.QueueWithinCrawlParams.newBuilder().setKey("a.com").build()));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
    assertEquals("the DEFAULT crawl's queues come from the index", e.getStatus().getDescription());

    frontier.failure =
        new FrontierUnavailableException("Accumulo unreachable", new RuntimeException("x"));
    e =
        assertThrows(
            StatusRuntimeException.class,
            () -> blocking.getURLs(Urlfrontier.GetParams.getDefaultInstance()).hasNext());
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertEquals("Accumulo unreachable", e.getStatus().getDescription());

    frontier.failure = new IllegalStateException("a bug");
    e = assertThrows(StatusRuntimeException.class, this::stats);
    assertEquals(Status.Code.INTERNAL, e.getStatus().getCode());
    assertEquals(
        "internal failure (the frontier's log has the details):"
            + " java.lang.IllegalStateException: a bug",
        e.getStatus().getDescription());
    assertFalse(e.getStatus().getDescription().contains("\tat "));
  }

  private Urlfrontier.Stats stats() {
    return blocking.getStats(Urlfrontier.QueueWithinCrawlParams.getDefaultInstance());
  }

  @Test
  void listNodesAndSetLogLevel() {
    List<String> nodes = blocking.listNodes(Urlfrontier.Empty.getDefaultInstance()).getValuesList();
    assertEquals(List.of("127.0.0.1:" + server.port()), nodes);
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                blocking.setLogLevel(
                    Urlfrontier.LogLevelParams.newBuilder()
                        .setPackage("io.webindex")
                        .setLevel(Urlfrontier.LogLevelParams.Level.DEBUG)
                        .build()));
    assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
    assertTrue(frontier.calls().isEmpty());
  }

  @Test
  void aPortInUseIsOneLine() {
    java.io.UncheckedIOException e =
        assertThrows(
            java.io.UncheckedIOException.class,
            () -> FrontierServer.start(frontier, "127.0.0.1", server.port()));
    String m = e.getCause().getMessage();
    assertTrue(m.startsWith("cannot listen on 127.0.0.1:" + server.port() + ": "), m);
    assertFalse(m.contains("\n"), m);
  }
}
