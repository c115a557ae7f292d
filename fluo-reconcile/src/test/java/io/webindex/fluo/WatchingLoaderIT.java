package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.LocalBatches;
import io.webindex.testkit.PrometheusText;
import io.webindex.testkit.SharedCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A watching loader ({@code load --watch}) on MiniAccumulo with the webindex application in a
 * MiniFluo: it outlives a store that is gone for a while, and publishes its figures.
 */
@SharedCluster
class WatchingLoaderIT extends LoaderITBase {

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

  private static double delta(String before, String after, String name) {
    return PrometheusText.value(after, name, Map.of())
        - PrometheusText.value(before, name, Map.of());
  }
}
