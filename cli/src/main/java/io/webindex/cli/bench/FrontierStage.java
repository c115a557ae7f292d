package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.ops.OpsView;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.fluo.LatencyProbe;
import io.webindex.frontier.FrontierServer;
import io.webindex.frontier.FrontierServing;
import io.webindex.frontier.shaded.crawlercommons.urlfrontier.URLFrontierGrpc;
import io.webindex.frontier.shaded.crawlercommons.urlfrontier.Urlfrontier;
import io.webindex.frontier.shaded.io.grpc.Grpc;
import io.webindex.frontier.shaded.io.grpc.InsecureChannelCredentials;
import io.webindex.frontier.shaded.io.grpc.ManagedChannel;
import io.webindex.frontier.shaded.io.grpc.stub.StreamObserver;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.FrontierQuery;
import io.webindex.store.RunRecord;
import io.webindex.store.ServedState;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The frontier stage: the URLFrontier service over the recompute's run, as crawlers use it. F
 * frontier servers start in this process, each with a connection and an {@code AccumuloUrlFrontier}
 * of its own (F frontier processes sharing one index); C crawler clients, each on a thread with a
 * channel of its own to one of them (round robin), loop: GetURLs, then every URL received put back
 * as known, refetchable a day later, on one PutURLs stream, waiting for the acks. After a warm-up
 * they are measured for S seconds. The guard ({@link HandOutGuard}): no URL handed out twice; a
 * duplicate fails the stage.
 */
final class FrontierStage {
  /** How long one GetURLs or one PutURLs stream may take before the client gives up. */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

  /** How long a client waits after a GetURLs that handed out nothing. */
  static final Duration IDLE_PAUSE = Duration.ofMillis(50);

  /** What one client counted while measured. */
  private static final class Counts {
    final List<Double> getMillis = new ArrayList<>();
    long urls;
    long emptyCalls;
    long acks;
    long notOk;
  }

  private final BenchEnv env;
  private final BenchOptions.FrontierLoad load;
  private final HandOutGuard guard =
      new HandOutGuard(TimeUnit.SECONDS.toNanos(UrlFrontier.DEFAULT_LEASE_SECONDS));

  private FrontierStage(BenchEnv env) {
    this.env = env;
    this.load = env.options().frontier();
  }

  /** Measures the service over run {@code b0} into {@code fig}; returns true when it failed. */
  static boolean run(BenchEnv env, RunRecord b0, Map<String, Object> fig) throws Exception {
    return new FrontierStage(env).measure(b0, fig);
  }

  private boolean measure(RunRecord b0, Map<String, Object> fig) throws Exception {
    WebindexConfig cfg = env.ctx().config(env.conf()).config();
    Optional<String> served = ServedState.read(env.runs(), cfg).table();
    if (!served.equals(Optional.of(b0.table()))) {
      env.err()
          .println(
              "bench: frontier: the served table is "
                  + served.orElse("none")
                  + ", not the recompute's "
                  + b0.table());
      fig.put("verdict", "not served");
      return true;
    }
    FrontierQuery.FrontierAnswer totals =
        new FrontierQuery(env.conn(), b0.table())
            .next(System.currentTimeMillis(), 1, 1, OpsView.NONE);
    fig.put("servers", load.servers());
    fig.put("clients", load.clients());
    fig.put("maxQueues", load.maxQueues());
    fig.put("maxUrlsPerQueue", load.maxUrlsPerQueue());
    fig.put("delaySeconds", load.delaySeconds());
    fig.put("leaseSeconds", UrlFrontier.DEFAULT_LEASE_SECONDS);
    fig.put("warmupSeconds", load.warmupSeconds());
    fig.put("queues", totals.queues());
    fig.put("urls", totals.urlCount());
    fig.put("dueUrls", totals.due());
    fig.put("dueQueues", totals.dueQueues());
    fig.put("loadAverageBefore", loadAverage());

    List<UrlFrontier> frontiers = new ArrayList<>();
    List<FrontierServer> servers = new ArrayList<>();
    List<ManagedChannel> channels = new ArrayList<>();
    List<Counts> counts = new ArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    double windowSecs;
    try {
      for (int i = 0; i < load.servers(); i++) {
        UrlFrontier f = FrontierServing.open(cfg, AccumuloConnections.connect(cfg));
        frontiers.add(f);
        servers.add(FrontierServer.start(f, "127.0.0.1", 0));
      }
      // the default delay of every queue (SetDelay without a queue): shared by all servers
      frontiers.get(0).setDelay(UrlFrontier.DEFAULT_CRAWL, "", load.delaySeconds());
      long start = System.nanoTime();
      long measureFrom = start + TimeUnit.SECONDS.toNanos(load.warmupSeconds());
      long until = measureFrom + TimeUnit.SECONDS.toNanos(load.seconds());
      List<Thread> threads = new ArrayList<>();
      for (int c = 0; c < load.clients(); c++) {
        FrontierServer server = servers.get(c % servers.size());
        ManagedChannel ch =
            Grpc.newChannelBuilder(
                    "127.0.0.1:" + server.port(), InsecureChannelCredentials.create())
                .build();
        channels.add(ch);
        Counts n = new Counts();
        counts.add(n);
        Thread t =
            new Thread(
                () -> {
                  try {
                    crawl(ch, n, measureFrom, until);
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                },
                "bench-crawler-" + c);
        threads.add(t);
        t.start();
      }
      env.err()
          .printf(
              Locale.ROOT,
              "bench: frontier: %d servers, %d clients, %d s warm-up then %d s measured%n",
              load.servers(),
              load.clients(),
              load.warmupSeconds(),
              load.seconds());
      for (Thread t : threads) {
        t.join();
      }
      windowSecs = Math.max(secs(measureFrom), 1e-3);
    } finally {
      for (ManagedChannel ch : channels) {
        ch.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      }
      for (FrontierServer s : servers) {
        s.close();
      }
      for (UrlFrontier f : frontiers) {
        f.close();
      }
    }
    fig.put("loadAverageAfter", loadAverage());
    return summarize(fig, counts, windowSecs, failure.get());
  }

  /** One crawler: GetURLs, put every URL back known, until {@code until}. */
  private void crawl(ManagedChannel ch, Counts n, long measureFrom, long until)
      throws InterruptedException {
    URLFrontierGrpc.URLFrontierBlockingStub blocking = URLFrontierGrpc.newBlockingStub(ch);
    URLFrontierGrpc.URLFrontierStub async = URLFrontierGrpc.newStub(ch);
    Urlfrontier.GetParams params =
        Urlfrontier.GetParams.newBuilder()
            .setMaxQueues(load.maxQueues())
            .setMaxUrlsPerQueue(load.maxUrlsPerQueue())
            .setDelayRequestable(UrlFrontier.DEFAULT_LEASE_SECONDS)
            .build();
    while (System.nanoTime() < until) {
      long t0 = System.nanoTime();
      List<Urlfrontier.URLInfo> got = new ArrayList<>();
      Iterator<Urlfrontier.URLInfo> it =
          blocking
              .withDeadlineAfter(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
              .getURLs(params);
      it.forEachRemaining(got::add);
      long t1 = System.nanoTime();
      // a call counts when it ends in the measured time (a slow first call may straddle the
      // warm-up's end)
      boolean measured = t1 >= measureFrom;
      for (Urlfrontier.URLInfo u : got) {
        guard.handedOut(u.getUrl(), t1);
      }
      if (measured) {
        n.getMillis.add((t1 - t0) / 1e6);
        n.urls += got.size();
        if (got.isEmpty()) {
          n.emptyCalls++;
        }
      }
      if (got.isEmpty()) {
        Thread.sleep(IDLE_PAUSE.toMillis());
        continue;
      }
      long[] acked = putBack(async, got);
      if (measured) {
        n.acks += acked[0];
        n.notOk += acked[1];
      }
    }
  }

  /** Puts {@code got} back as known on one stream; returns the acks and those not OK. */
  private long[] putBack(URLFrontierGrpc.URLFrontierStub async, List<Urlfrontier.URLInfo> got)
      throws InterruptedException {
    long refetch = System.currentTimeMillis() / 1000 + TimeUnit.DAYS.toSeconds(1);
    CountDownLatch done = new CountDownLatch(1);
    long[] acked = new long[2];
    AtomicReference<Throwable> error = new AtomicReference<>();
    StreamObserver<Urlfrontier.URLItem> put =
        async
            .withDeadlineAfter(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .putURLs(
                new StreamObserver<>() {
                  @Override
                  public void onNext(Urlfrontier.AckMessage ack) {
                    boolean ok = ack.getStatus() == Urlfrontier.AckMessage.Status.OK;
                    guard.putBack(ack.getID(), ok);
                    synchronized (acked) {
                      acked[0]++;
                      acked[1] += ok ? 0 : 1;
                    }
                  }

                  @Override
                  public void onError(Throwable t) {
                    error.set(t);
                    done.countDown();
                  }

                  @Override
                  public void onCompleted() {
                    done.countDown();
                  }
                });
    for (Urlfrontier.URLInfo u : got) {
      put.onNext(
          Urlfrontier.URLItem.newBuilder()
              .setID(u.getUrl())
              .setKnown(
                  Urlfrontier.KnownURLItem.newBuilder().setInfo(u).setRefetchableFromDate(refetch))
              .build());
    }
    put.onCompleted();
    if (!done.await(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("PutURLs: no end of the acks in " + CALL_TIMEOUT);
    }
    if (error.get() != null) {
      throw new IllegalStateException("PutURLs failed: " + error.get().getMessage(), error.get());
    }
    synchronized (acked) {
      if (acked[0] != got.size()) {
        throw new IllegalStateException(
            "PutURLs: " + acked[0] + " acks for " + got.size() + " URLs");
      }
      return acked.clone();
    }
  }

  private boolean summarize(
      Map<String, Object> fig, List<Counts> counts, double windowSecs, Throwable failure) {
    List<Double> millis = new ArrayList<>();
    long urls = 0;
    long empty = 0;
    long acks = 0;
    long notOk = 0;
    for (Counts n : counts) {
      millis.addAll(n.getMillis);
      urls += n.urls;
      empty += n.emptyCalls;
      acks += n.acks;
      notOk += n.notOk;
    }
    calls(fig, millis, urls, empty, acks, notOk, windowSecs);
    fig.put("handedOutInAll", guard.handedOut());
    fig.put("distinctUrls", guard.distinct());
    fig.put("duplicates", guard.duplicates());
    fig.put("reissuedAfterLease", guard.reissued());
    fig.put("duplicateExamples", guard.examples());
    boolean failed = guard.duplicates() > 0 || failure != null;
    String verdict =
        failure != null
            ? "a client failed"
            : guard.duplicates() > 0
                ? guard.duplicates() + " URLs handed out twice"
                : "no URL handed out twice";
    fig.put("verdict", verdict);
    if (failure != null) {
      env.err().println("bench: frontier: a client failed: " + failure);
    }
    if (guard.duplicates() > 0) {
      env.err()
          .println(
              "bench: frontier: "
                  + guard.duplicates()
                  + " URLs handed out twice, e.g. "
                  + guard.examples());
    }
    env.err()
        .printf(
            Locale.ROOT,
            "bench: frontier: %,.0f URLs/s handed out, %,.1f GetURLs/s (p50 %s ms, p99 %s ms),"
                + " %,.0f acks/s; %s%n",
            urls / windowSecs,
            millis.size() / windowSecs,
            fig.getOrDefault("getP50Ms", "-"),
            fig.getOrDefault("getP99Ms", "-"),
            acks / windowSecs,
            verdict);
    return failed;
  }

  /**
   * The figures of the calls measured: URLs handed out, GetURLs calls (nearest-rank percentiles of
   * their latencies) and acks, as totals and per second of {@code windowSecs}.
   */
  static void calls(
      Map<String, Object> fig,
      List<Double> getMillis,
      long urls,
      long emptyCalls,
      long acks,
      long acksNotOk,
      double windowSecs) {
    fig.put("seconds", round(windowSecs));
    fig.put("urlsHandedOut", urls);
    fig.put("urlsPerSecond", round(urls / windowSecs));
    fig.put("getCalls", (long) getMillis.size());
    fig.put("getCallsPerSecond", round(getMillis.size() / windowSecs));
    fig.put("emptyGetCalls", emptyCalls);
    if (!getMillis.isEmpty()) {
      LatencyProbe.Summary s = LatencyProbe.summarize(getMillis);
      fig.put("getP50Ms", round(s.p50()));
      fig.put("getP90Ms", round(s.p90()));
      fig.put("getP99Ms", round(s.p99()));
      fig.put("getMaxMs", round(s.max()));
      fig.put("getMeanMs", round(s.mean()));
    }
    fig.put("acks", acks);
    fig.put("acksPerSecond", round(acks / windowSecs));
    fig.put("acksNotOk", acksNotOk);
  }

  /** The system's load average over the last minute (-1 where the system does not say). */
  private static double loadAverage() {
    return round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
