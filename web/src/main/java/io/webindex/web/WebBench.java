package io.webindex.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bin/webindex bench-web}: measures a running web application from outside, over HTTP. First
 * it walks the top list to collect cursors deep into it, domains and URLs; then it sends {@code
 * requests} API requests for pages of {@code limit} results — a quarter each of top pages at
 * collected cursors, domain pages, inlink pages and page lookups — from {@code concurrency}
 * clients, and reports latency percentiles.
 */
public final class WebBench {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What was measured: latencies in microseconds, sorted; errors; wall time. */
  public record Result(long[] micros, int errors, Duration wall, int distinctTargets) {
    public long percentile(double p) {
      if (micros.length == 0) {
        return 0;
      }
      int i = (int) Math.ceil(p / 100.0 * micros.length) - 1;
      return micros[Math.max(0, Math.min(micros.length - 1, i))];
    }
  }

  private WebBench() {}

  /**
   * Runs the benchmark against {@code base} (e.g. {@code http://127.0.0.1:8080/}).
   *
   * @throws IOException when the application cannot be reached or answers the warm-up with an error
   */
  public static Result run(
      URI base,
      int requests,
      int warmup,
      int concurrency,
      int limit,
      long seed,
      PrintWriter progress)
      throws IOException, InterruptedException {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    List<String> targets = collect(http, base, limit, progress);
    progress.printf(
        "bench-web: %d request targets collected; %d warm-up requests, then %d measured, from %d"
            + " clients%n",
        targets.size(), warmup, requests, concurrency);
    progress.flush();
    Random rnd = new Random(seed);
    if (warmup > 0) {
      measure(http, base, plan(targets, warmup, rnd), concurrency);
    }
    return measure(http, base, plan(targets, requests, rnd), concurrency);
  }

  private static List<String> plan(List<String> targets, int requests, Random rnd) {
    List<String> plan = new ArrayList<>(requests);
    for (int i = 0; i < requests; i++) {
      plan.add(targets.get(rnd.nextInt(targets.size())));
    }
    return plan;
  }

  private static Result measure(HttpClient http, URI base, List<String> plan, int concurrency)
      throws IOException, InterruptedException {
    int requests = plan.size();
    long[] micros = new long[requests];
    AtomicInteger nextIndex = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(concurrency);
    long t0 = System.nanoTime();
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int c = 0; c < concurrency; c++) {
        fs.add(
            pool.submit(
                () -> {
                  int i;
                  while ((i = nextIndex.getAndIncrement()) < requests) {
                    long s = System.nanoTime();
                    try {
                      HttpResponse<byte[]> r =
                          http.send(
                              request(base, plan.get(i)), HttpResponse.BodyHandlers.ofByteArray());
                      if (r.statusCode() != 200) {
                        errors.incrementAndGet();
                      }
                    } catch (IOException e) {
                      errors.incrementAndGet();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                      return null;
                    }
                    micros[i] = (System.nanoTime() - s) / 1000;
                  }
                  return null;
                }));
      }
      for (Future<?> f : fs) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IOException("a benchmark client failed: " + e.getCause(), e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    Duration wall = Duration.ofNanos(System.nanoTime() - t0);
    Arrays.sort(micros);
    return new Result(micros, errors.get(), wall, new LinkedHashSet<>(plan).size());
  }

  /** The report printed by the command. */
  public static String summary(Result r, int limit) {
    return String.format(
        "requests %d (pages of %d results), errors %d, %.0f requests/s%n"
            + "latency ms: p50 %.1f  p90 %.1f  p99 %.1f  max %.1f%n",
        r.micros().length,
        limit,
        r.errors(),
        r.micros().length / Math.max(1e-9, r.wall().toNanos() / 1e9),
        r.percentile(50) / 1000.0,
        r.percentile(90) / 1000.0,
        r.percentile(99) / 1000.0,
        r.percentile(100) / 1000.0);
  }

  private static HttpRequest request(URI base, String path) {
    return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).build();
  }

  /** Walks the top list (up to 400 pages) and turns what it finds into request targets. */
  private static List<String> collect(HttpClient http, URI base, int limit, PrintWriter progress)
      throws IOException, InterruptedException {
    List<String> tops = new ArrayList<>();
    Set<String> domains = new LinkedHashSet<>();
    Set<String> urls = new LinkedHashSet<>();
    String after = null;
    for (int page = 0; page < 400; page++) {
      String path = "api/v1/top?limit=" + limit + (after == null ? "" : "&after=" + after);
      tops.add(path);
      JsonNode n = getJson(http, base, path);
      for (JsonNode u : n.path("uris")) {
        String url = u.path("url").asText();
        urls.add(url);
        try {
          domains.add(URI.create(url).getHost());
        } catch (IllegalArgumentException e) {
          // an odd URL: its page still gets asked for
        }
      }
      after = n.path("next").isNull() ? null : n.path("next").asText(null);
      if (after == null) {
        break;
      }
    }
    if (urls.isEmpty()) {
      throw new IOException("the served table is empty: nothing to measure");
    }
    List<String> targets = new ArrayList<>(tops);
    List<String> d = new ArrayList<>(domains);
    List<String> u = new ArrayList<>(urls);
    for (int i = 0; i < tops.size(); i++) {
      String host = d.get(i % d.size());
      if (host != null) {
        targets.add("api/v1/domain/" + enc(host) + "?limit=" + limit);
      }
      String url = u.get(i % u.size());
      targets.add("api/v1/inlinks?url=" + enc(url) + "&limit=" + limit);
      targets.add("api/v1/page?url=" + enc(url));
    }
    progress.printf(
        "bench-web: walked %d pages of the top list (%d URLs, %d hosts)%n",
        tops.size(), urls.size(), domains.size());
    return targets;
  }

  private static JsonNode getJson(HttpClient http, URI base, String path)
      throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(request(base, path), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException(base.resolve(path) + " answered " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
