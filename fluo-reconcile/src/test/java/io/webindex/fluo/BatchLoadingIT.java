package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.LocalBatches;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.PrometheusText;
import io.webindex.testkit.SharedCluster;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.fluo.api.client.FluoAdmin;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader against the raw page store and its resume point, on MiniAccumulo with the webindex
 * application in a MiniFluo: only complete batches are read, in order and without gaps; the resume
 * point never goes back, with two loaders at once; a watching loader outlives a store that is gone
 * for a while.
 */
@SharedCluster
class BatchLoadingIT extends AccumuloITBase {
  @TempDir Path tmp;
  WebindexConfig cfg;
  Path confFile;
  Path batches;

  /** A fresh application (no resume point: it loads from batch 0) exporting to a fresh table. */
  @BeforeEach
  void setUp() throws Exception {
    String prefix = newTableName("bl");
    confFile = writeWebindexConf(tmp, prefix);
    cfg = WebindexConfig.load(confFile, Map.of());
    batches = tmp.resolve("store").resolve("batches");
    Files.createDirectories(batches);
    FluoConfiguration fc = WebindexApp.connection(cfg, cfg.fluoApp());
    WebindexApp.configure(fc, cfg, createTable(prefix + "_q"), 1);
    try (FluoAdmin admin = WebindexApp.admin(fc)) {
      admin.initialize(
          new FluoAdmin.InitializationOptions().setClearTable(true).setClearZookeeper(true));
    }
  }

  /** {@code pages} page JSON lines, one page each, unique to batch {@code batch}. */
  static byte[] pages(long batch, int pages) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < pages; i++) {
      sb.append("{\"url\":\"http://b")
          .append(batch)
          .append(".example.com/p")
          .append(i)
          .append(
              "\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[\"http://hub.example.com/\"]}\n");
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Batch {@code batch} with {@code pages} pages, written as docs/input.md says. */
  void batch(long batch, int pages) throws Exception {
    LocalBatches.write(batches, batch, Map.of("part-0.jsonl", pages(batch, pages)));
  }

  BatchApplier applier(FluoClient client, StringWriter progress) {
    return new BatchApplier(client, cfg, new Configuration(), new PrintWriter(progress, true));
  }

  /**
   * A batch directory without its _SUCCESS marker ({@code hdfs dfs -put} has made it, its files are
   * on the way) is not recorded as read empty: it waits, and is read whole once marked. A batch
   * renamed into place before the one before it waits for that one.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void onlyCompleteBatchesAreLoadedInOrderWithoutGaps() throws Exception {
    batch(0, 3);
    Path put = Files.createDirectories(batches.resolve("00001"));
    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      StringWriter progress = new StringWriter();
      BatchApplier.Result first = applier(fluo.client(), progress).applyPending(null);
      assertEquals(0, first.appliedAfter(), "batch 1 is not complete: not recorded");
      assertEquals(1, first.batches());
      assertEquals(3, first.pages());
      String unmarked = "batch 1 is not complete yet: file:" + put + " has no _SUCCESS marker";
      assertTrue(first.waiting().startsWith(unmarked), first.waiting());
      assertTrue(
          progress.toString().endsWith("load: " + first.waiting() + "\n"), progress.toString());

      // the copy goes on, then the marker; batch 3 is renamed into place before batch 2
      Files.write(put.resolve("part-0.jsonl"), pages(1, 5));
      LocalBatches.markComplete(put);
      batch(3, 4);
      BatchApplier.Result second = applier(fluo.client(), new StringWriter()).applyPending(null);
      assertEquals(1, second.appliedAfter(), "batch 3 waits for batch 2");
      assertEquals(1, second.batches());
      assertEquals(5, second.pages(), "batch 1 read whole");
      assertTrue(second.waiting().startsWith("batch 2 is missing: "), second.waiting());

      // the operator skips number 2: an empty batch with its marker
      LocalBatches.write(batches, 2, Map.of());
      BatchApplier.Result third = applier(fluo.client(), new StringWriter()).applyPending(null);
      assertEquals(3, third.appliedAfter());
      assertEquals(2, third.batches());
      assertEquals(4, third.pages());
      assertNull(third.waiting());
      assertEquals(3, WebindexApp.applied(fluo.client()));

      // the export queue's depth (a loader's figure) counts its entries: two written by hand to a
      // bucket row no observer is notified of stay there once the exporter is idle
      fluo.awaitIdle();
      assertEquals(0, LoaderMetrics.exportQueueEntries(fluo.client()));
      try (org.apache.fluo.api.client.Transaction tx = fluo.client().newTransaction()) {
        tx.set("eq:zz:a", new org.apache.fluo.api.data.Column("e", "v"), "1");
        tx.set("eq:zz:b", new org.apache.fluo.api.data.Column("e", "v"), "2");
        tx.set("eq:zz:b", new org.apache.fluo.api.data.Column("e", "x"), "not an entry");
        tx.commit();
      }
      assertEquals(2, LoaderMetrics.exportQueueEntries(fluo.client()));
    }
  }

  /**
   * The resume point only goes up: a lower batch recorded later (a loader that was overtaken)
   * leaves it, and loaders recording at once in many threads leave the highest.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void theResumePointNeverGoesBack() throws Exception {
    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      FluoClient client = fluo.client();
      assertEquals(-1, WebindexApp.applied(client));
      assertEquals(7, WebindexApp.markApplied(client, 7));
      assertEquals(7, WebindexApp.markApplied(client, 5), "5 is below the recorded 7");
      assertEquals(7, WebindexApp.applied(client));

      List<Long> values = new ArrayList<>();
      for (long v = 8; v < 108; v++) {
        values.add(v);
      }
      Collections.shuffle(values, new Random(20));
      long highest = Collections.max(values);
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<String> wentBack = new AtomicReference<>();
      ExecutorService pool = Executors.newFixedThreadPool(5);
      try {
        Future<?> watcher =
            pool.submit(
                () -> {
                  long seen = 7;
                  while (!done.get()) {
                    long now = WebindexApp.applied(client);
                    if (now < seen) {
                      wentBack.compareAndSet(null, seen + " then " + now);
                    }
                    seen = now;
                  }
                });
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          List<Long> mine = values.subList(t * 25, t * 25 + 25);
          writers.add(
              pool.submit(
                  () -> {
                    for (long v : mine) {
                      assertTrue(WebindexApp.markApplied(client, v) >= v);
                    }
                  }));
        }
        for (Future<?> w : writers) {
          w.get(2, TimeUnit.MINUTES);
        }
        done.set(true);
        watcher.get(1, TimeUnit.MINUTES);
      } finally {
        pool.shutdownNow();
      }
      assertNull(wentBack.get(), "the resume point went back");
      assertEquals(highest, WebindexApp.applied(client));
    }
  }

  /**
   * Loader A loads batch 1 while loader B applies batches 1 to 3 and records 3: A's record of batch
   * 1 leaves the resume point at 3, and A goes on after batch 3 instead of loading 2 and 3 again.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aLoaderOvertakenByAnotherGoesOnAfterIt() throws Exception {
    for (long b = 0; b <= 3; b++) {
      batch(b, 4);
    }
    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      FluoClient client = fluo.client();
      List<Long> seenByA = new ArrayList<>();
      List<BatchApplier.Result> byB = new ArrayList<>();
      StringWriter progressA = new StringWriter();
      BatchApplier.Result a =
          applier(client, progressA)
              .afterLoading(
                  seq -> {
                    seenByA.add(WebindexApp.applied(client));
                    if (seq == 1) {
                      try {
                        byB.add(applier(client, new StringWriter()).applyPending(null));
                      } catch (IOException e) {
                        throw new UncheckedIOException(e);
                      }
                      seenByA.add(WebindexApp.applied(client));
                    }
                  })
              .applyPending(null);
      // B started after A recorded batch 0 and applied 1, 2, 3
      assertEquals(1, byB.size());
      assertEquals(0, byB.get(0).appliedBefore());
      assertEquals(3, byB.get(0).appliedAfter());
      assertEquals(12, byB.get(0).pages());
      // the resume point as A found it after loading batch 0 (none), after loading batch 1 (its
      // own 0) and after B ran (B's 3); A loaded no other batch
      assertEquals(List.of(-1L, 0L, 3L), seenByA);
      assertEquals(-1, a.appliedBefore());
      assertEquals(3, a.appliedAfter());
      assertEquals(2, a.batches());
      assertEquals(8, a.pages());
      assertTrue(
          progressA
              .toString()
              .contains("load: another loader recorded batch 3 as applied meanwhile: going on"),
          progressA.toString());
      assertEquals(3, WebindexApp.applied(client));
    }
  }

  private static final Pattern FAILURE =
      Pattern.compile("load: a round failed: (.*); next attempt in (\\d+) s");

  /**
   * {@code load --watch} whose store disappears for a while (an HDFS outage, a remount): every
   * failed round is one line with the cause and the next delay (1 s, doubling), it applies the
   * batch that arrived meanwhile once the store is back, and the delays start over after that.
   */
  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aWatchingLoaderOutlivesAStoreThatIsGoneForAWhile() throws Exception {
    batch(0, 2);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    LoadTool tool = new LoadTool(new PrintWriter(out, true), new PrintWriter(err, true));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Path away = batches.resolveSibling("batches.away");
    String cause =
        "no batches directory file:" + batches + " (pages live under <store root>/batches/<seq>/)";
    try {
      Future<List<BatchApplier.Result>> watch =
          pool.submit(() -> tool.load(cfg, new LoadTool.Options(null, 0, 1, true)));
      await(
          () -> out.toString().contains("applied batches 0..0: 2 page versions"), watch, out, err);

      Files.move(batches, away);
      await(() -> failures(err).size() >= 3, watch, out, err);
      LocalBatches.write(away, 1, Map.of("part-0.jsonl", pages(1, 3)));
      Files.move(away, batches);
      await(
          () -> out.toString().contains("applied batches 1..1: 3 page versions"), watch, out, err);
      List<String[]> outage = failures(err);

      Files.move(batches, away);
      await(() -> failures(err).size() > outage.size(), watch, out, err);
      Files.move(away, batches);
      tool.requestStop();
      List<BatchApplier.Result> rounds = watch.get(3, TimeUnit.MINUTES);
      // every round that succeeded: batch 0 (2 pages) and batch 1 (3 pages) applied once each
      assertEquals(1, rounds.get(rounds.size() - 1).appliedAfter());
      assertEquals(5, rounds.stream().mapToLong(BatchApplier.Result::pages).sum());
      assertEquals(2, rounds.stream().mapToInt(BatchApplier.Result::batches).sum());

      List<String[]> all = failures(err);
      for (int i = 0; i < all.size(); i++) {
        assertEquals(cause, all.get(i)[0], err.toString());
        // 1 s, 2 s, 4 s, … in the first outage, 1 s again at the start of the second
        long expected = i < outage.size() ? Math.min(60, 1L << i) : 1L << (i - outage.size());
        assertEquals(Long.toString(expected), all.get(i)[1], err.toString());
      }
      assertTrue(all.size() > outage.size(), err.toString());
    } finally {
      tool.requestStop();
      pool.shutdownNow();
      pool.awaitTermination(1, TimeUnit.MINUTES);
    }
  }

  private static List<String[]> failures(StringWriter err) {
    List<String[]> out = new ArrayList<>();
    Matcher m = FAILURE.matcher(err.toString());
    while (m.find()) {
      out.add(new String[] {m.group(1), m.group(2)});
    }
    return out;
  }

  /** Waits until {@code condition} holds; fails at once when the watch ended instead. */
  private static void await(
      BooleanSupplier condition, Future<?> watch, StringWriter out, StringWriter err)
      throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (!condition.getAsBoolean()) {
      String output = "; stdout:\n" + out + "\nstderr:\n" + err;
      if (watch.isDone()) {
        try {
          watch.get();
          throw new AssertionError("the watch ended" + output);
        } catch (ExecutionException e) {
          throw new AssertionError("the watch failed: " + e.getCause() + output, e.getCause());
        }
      }
      if (System.nanoTime() > until) {
        throw new AssertionError("timed out" + output);
      }
      Thread.sleep(100);
    }
  }

  /**
   * A watching loader's figures, scraped from its own {@code /metrics} port while it runs, move by
   * exactly what the test loaded: 8 pages in batches 0 and 1 (up to 1), batch 2 complete but not
   * applied (lag 1); JMX shows the same. Fluo's own JMX reporter, switched on by a {@code fluo.*}
   * key of the webindex configuration, registers Fluo's MBeans, and Fluo's transaction figures
   * reach the same endpoint.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aWatchingLoaderPublishesItsFiguresAndFluosReportersAreSwitchedOnByConfiguration()
      throws Exception {
    long t0 = System.currentTimeMillis();
    batch(0, 3);
    batch(1, 5);
    batch(2, 4);
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    WebindexConfig withMetrics =
        WebindexConfig.load(
            confFile,
            Map.of(
                WebindexConfig.METRICS_PORT,
                Integer.toString(port),
                "fluo.metrics.reporter.jmx.enable",
                "true"));
    String before = io.webindex.store.metrics.Metrics.scrape();
    javax.management.MBeanServer jmx =
        java.lang.management.ManagementFactory.getPlatformMBeanServer();
    AtomicReference<String> scraped = new AtomicReference<>();
    AtomicReference<Set<javax.management.ObjectName>> fluoBeans = new AtomicReference<>();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<BatchApplier.Result> rounds =
        new LoadTool(new PrintWriter(out, true), new PrintWriter(err, true))
            .stopSignal(
                millis -> {
                  // the first round is done: look at the running loader's figures, then stop it
                  try {
                    scraped.set(
                        java.net.http.HttpClient.newHttpClient()
                            .send(
                                java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(
                                            "http://127.0.0.1:" + port + "/metrics"))
                                    .build(),
                                java.net.http.HttpResponse.BodyHandlers.ofString())
                            .body());
                    // Fluo's domains: fluo.<kind>.<n>, e.g. fluo.mini.0 for a MiniFluo
                    Set<javax.management.ObjectName> fluo = new java.util.HashSet<>();
                    for (javax.management.ObjectName n : jmx.queryNames(null, null)) {
                      if (n.getDomain().startsWith("fluo.")) {
                        fluo.add(n);
                      }
                    }
                    fluoBeans.set(fluo);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                  return true;
                })
            .load(withMetrics, new LoadTool.Options(1L, 0, 1, true));
    assertEquals(1, rounds.size(), out + "\n" + err);
    assertEquals(8, rounds.get(0).pages());
    assertTrue(
        err.toString()
            .contains("metrics (Prometheus text) on http://127.0.0.1:" + port + "/metrics"),
        err.toString());
    String text = scraped.get();
    assertEquals(8, delta(before, text, "webindex_loader_pages_total"), text);
    assertEquals(2, delta(before, text, "webindex_loader_batches_total"), text);
    assertEquals(1, PrometheusText.value(text, "webindex_loader_applied_batch", Map.of()), text);
    assertEquals(1, PrometheusText.value(text, "webindex_loader_lag_batches", Map.of()), text);
    double lagSeconds = PrometheusText.value(text, "webindex_loader_lag_seconds", Map.of());
    assertTrue(
        lagSeconds >= 0 && lagSeconds <= (System.currentTimeMillis() - t0) / 1000 + 1,
        "batch 2 waits since it was written: " + lagSeconds);
    assertEquals(
        0,
        PrometheusText.value(text, "webindex_fluo_export_queue_depth", Map.of()),
        "the embedded workers were idle when the round ended");
    assertTrue(
        text.lines().anyMatch(l -> l.startsWith("fluo_") && l.contains("tx_status_committed")),
        "Fluo's transaction figures: " + text);
    assertEquals(
        PrometheusText.value(text, "webindex_loader_pages_total", Map.of()),
        ((Number)
                jmx.getAttribute(
                    new javax.management.ObjectName("webindex:name=" + LoaderMetrics.PAGES),
                    "Count"))
            .doubleValue());
    assertTrue(
        fluoBeans.get().stream().anyMatch(n -> n.toString().contains("tx_status_committed")),
        "Fluo's JMX reporter, on through fluo.metrics.reporter.jmx.enable: " + fluoBeans.get());
  }

  /**
   * An application initialised by another version of webindex (here: one from before versions were
   * recorded) is refused by the loader, naming the upgrade; a run recomputed by another version
   * seeds no application, nor does a seed of an earlier build with the frontier inputs in rows of
   * their own. (The messages for a recorded older or newer version: {@link VersionMismatchTest}.)
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void anApplicationOrRunOfAnotherVersionIsRefused() throws Exception {
    assertEquals(
        io.webindex.core.Version.current().webindex(),
        WebindexApp.version(cfg, cfg.fluoApp()),
        "setUp's");
    // the same application as one initialised before versions were recorded
    FluoConfiguration fc = WebindexApp.connection(cfg, cfg.fluoApp());
    WebindexApp.configure(fc, cfg, prefixTable(), 1);
    fc.clearProperty("fluo.app." + WebindexApp.VERSION_KEY);
    try (FluoAdmin admin = WebindexApp.admin(fc)) {
      admin.initialize(
          new FluoAdmin.InitializationOptions().setClearTable(true).setClearZookeeper(true));
    }
    io.webindex.store.StoreException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.webindex.store.StoreException.class,
            () -> FluoSession.embedded(cfg, cfg.fluoApp(), 1).close());
    assertTrue(
        refused
            .getMessage()
            .startsWith(
                "Fluo application "
                    + cfg.fluoApp()
                    + " was initialised by a webindex older than "
                    + io.webindex.core.Version.current().webindex()
                    + " (which recorded no version)"),
        refused.getMessage());
    assertTrue(
        refused.getMessage().contains("docs/operations.md (Upgrading webindex)"),
        refused.getMessage());
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        org.apache.hadoop.util.ToolRunner.run(
            new Configuration(),
            new LoadTool(new PrintWriter(new StringWriter()), new PrintWriter(err, true)),
            new String[] {"--webindex-conf", confFile.toString(), "--embedded"}),
        "a refused application is the operator's to sort out, not a crash");
    assertEquals("load: " + refused.getMessage() + "\n", err.toString());

    io.webindex.store.RunRecord old = succeededRun("r09", tmp.resolve("seed"), "0.9.0");
    io.webindex.store.StoreException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.webindex.store.StoreException.class,
            () -> WebindexApp.initializeFromRun(cfg, old, new Configuration(), "other"));
    assertTrue(
        e.getMessage()
            .startsWith("run r09 (its Fluo seed) was recomputed by webindex 0.9.0, and this is"),
        e.getMessage());

    // a seed of this version's earlier builds, with the frontier inputs in rows of their own
    java.nio.file.Path oldSeed = java.nio.file.Files.createDirectories(tmp.resolve("seed-fr"));
    java.nio.file.Files.write(oldSeed.resolve("uri-part-r-00000.rf"), new byte[0]);
    java.nio.file.Files.write(oldSeed.resolve("fr-part-r-00000.rf"), new byte[0]);
    io.webindex.store.RunRecord frSeed =
        succeededRun("r10", oldSeed, io.webindex.core.Version.current().webindex());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.webindex.store.StoreException.class,
            () -> WebindexApp.initializeFromRun(cfg, frSeed, new Configuration(), "other"));
    assertEquals(
        "the Fluo seed of run r10 holds frontier inputs in rows of their own"
            + " (fr-part-r-00000.rf), the layout of an earlier build: recompute a new run"
            + " (recompute --run NEW_ID) and start from that one",
        e.getMessage());
  }

  /** A run record of a succeeded run of the query table, its seed in {@code seed}. */
  private io.webindex.store.RunRecord succeededRun(
      String id, java.nio.file.Path seed, String version) {
    return new io.webindex.store.RunRecord(
        id,
        io.webindex.store.RunRecord.Status.SUCCEEDED,
        0,
        prefixTable(),
        java.time.Instant.now(),
        java.time.Instant.now(),
        List.of(),
        Map.of(),
        seed.toString(),
        tmp.resolve("work").toString(),
        "",
        cfg.fluoBuckets(),
        version);
  }

  private String prefixTable() {
    return cfg.tablePrefix() + "_q";
  }

  private static double delta(String before, String after, String name) {
    return PrometheusText.value(after, name, Map.of())
        - PrometheusText.value(before, name, Map.of());
  }
}
