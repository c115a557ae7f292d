package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.index.IndexCells;
import io.webindex.core.model.Page;
import io.webindex.core.schema.Cell;
import io.webindex.fluo.LatencyProbe;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;

/**
 * The latency stage under load: the latency samples of {@link LatencyStage} taken while a loader
 * applies K delta batches of M page versions, its observers busy with what it queued.
 *
 * <p>The batches are one sequence, applied in order by a loader that looks for new complete batches
 * every {@link #POLL} ({@link LatencyProbe#startLoader}, the code path of {@code load}). The bench
 * writes delta 1, then, while the loader works through it, that delta's share of the samples: each
 * probe batch ({@link ProbeBatch}) is written as the next batch number once the loader has
 * submitted a fraction of the delta's versions drawn uniformly at random (so the probes fall at
 * random points of the delta's load); once the delta is loaded, the next delta follows the probes
 * written meanwhile, and so on. A sample's clock starts when its batch is complete (its marker
 * written, renamed into place) and stops when the served table holds its page's cells; a watcher
 * thread looks for every sample in flight every {@link #POLL}. So a sample includes the wait for
 * the rest of the delta the loader is in (batches are applied in order) and the observers' backlog.
 */
final class LatencyUnderLoadStage {
  /** How often the loader looks for new batches and the watcher for the samples' cells. */
  static final Duration POLL = LatencyStage.LATENCY_POLL;

  /** How long a sample may take to become visible under load before it counts as never visible. */
  static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** What the stage applied: the last batch, and whether a sample never became visible. */
  record Outcome(int lastBatch, boolean failed) {}

  private final BenchEnv env;
  private final WebindexConfig cfg;
  private final int after;
  private final int firstDelta;
  private final SplittableRandom random;

  private LatencyUnderLoadStage(BenchEnv env, int after, int firstDelta) {
    this.env = env;
    this.cfg = env.ctx().config(env.conf()).config();
    this.after = after;
    this.firstDelta = firstDelta;
    // targets and probe points of their own, not those of the idle stage
    this.random = new SplittableRandom(env.options().seed()).split();
  }

  /**
   * Writes K deltas (the web's deltas {@code firstDelta} on) and the samples as batches after batch
   * {@code after}, has them applied, and fills {@code lat}.
   */
  static Outcome run(BenchEnv env, int after, int firstDelta, Map<String, Object> lat)
      throws IOException, InterruptedException {
    return new LatencyUnderLoadStage(env, after, firstDelta).measure(lat);
  }

  /**
   * How many of {@code samples} go with each of {@code deltas} delta batches: as evenly as they
   * divide, the first ones one more.
   */
  static int[] perDelta(int samples, int deltas) {
    int[] n = new int[deltas];
    for (int d = 0; d < deltas; d++) {
      n[d] = samples / deltas + (d < samples % deltas ? 1 : 0);
    }
    return n;
  }

  /**
   * The loader's progress through a delta of {@code versions} at which each of {@code n} probes is
   * written: {@code n} versions drawn uniformly from {@code [0, versions)}, in ascending order.
   */
  static long[] probePoints(int n, long versions, SplittableRandom random) {
    long[] at = new long[n];
    for (int i = 0; i < n; i++) {
      at[i] = random.nextLong(versions);
    }
    Arrays.sort(at);
    return at;
  }

  private Outcome measure(Map<String, Object> lat) throws IOException, InterruptedException {
    int deltas = env.options().deltas();
    int samples = env.options().samples();
    int[] share = perDelta(samples, deltas);
    long t = System.nanoTime();
    int next = after + 1;
    long versions = 0;
    List<Sample> all = new ArrayList<>();
    double loadSeconds;
    try (LatencyProbe probe = LatencyProbe.open(cfg, new Configuration());
        Watcher watcher = new Watcher(probe);
        LatencyProbe.Loader loader = probe.startLoader(POLL)) {
      long loadStart = System.nanoTime();
      for (int d = 0; d < deltas; d++) {
        int content = firstDelta + d;
        int deltaBatch = next++;
        SyntheticBatches.write(env.web(), content, deltaBatch, env.batches(), false);
        long size = env.web().batchSize(content);
        versions += size;
        long base = loader.pagesSubmitted();
        for (long point : probePoints(share[d], size, random)) {
          // wait for the loader to get there in the delta (or past it)
          while (loader.pagesSubmitted() - base < point && loader.loadedAt(deltaBatch).isEmpty()) {
            loader.check();
            Thread.sleep(POLL.toMillis());
          }
          Sample s = probe(next++, all.size());
          all.add(s);
          watcher.add(s);
        }
        while (loader.loadedAt(deltaBatch).isEmpty()) {
          loader.check();
          Thread.sleep(POLL.toMillis());
        }
      }
      int last = next - 1;
      loader.finishAt(last);
      loader.await(TIMEOUT);
      loadSeconds = secs(loadStart);
      watcher.awaitAll();
      for (Sample s : all) {
        s.loadedAt = loader.loadedAt(s.batch);
      }
    }
    return new Outcome(next - 1, summarize(lat, all, deltas, versions, loadSeconds, t));
  }

  /** Writes the probe batch of sample {@code i} as batch {@code batch}; its clock starts. */
  private Sample probe(int batch, int i) throws IOException {
    String target = env.web().url(random.nextInt(env.web().pages()));
    Page page =
        ProbeBatch.write(
            cfg, env.batches(), batch, target, "under-load-" + i, "latency sample under load " + i);
    return new Sample(i, batch, IndexCells.page(page), System.nanoTime());
  }

  /** One sample: its batch, the cells not seen yet, and its times ({@link System#nanoTime}). */
  private static final class Sample {
    final int index;
    final int batch;
    final List<Cell> missing;
    final long start;
    volatile long visibleAt = -1;
    volatile long gaveUpAt = -1;
    OptionalLong loadedAt = OptionalLong.empty();

    Sample(int index, int batch, List<Cell> cells, long start) {
      this.index = index;
      this.batch = batch;
      this.missing = new ArrayList<>(cells);
      this.start = start;
    }

    boolean done() {
      return visibleAt >= 0 || gaveUpAt >= 0;
    }

    /** Until visible, or until given up on (the time waited, as in the idle stage). */
    double millis() {
      return ((visibleAt >= 0 ? visibleAt : gaveUpAt) - start) / 1e6;
    }
  }

  /**
   * Looks every {@link #POLL} at the samples in flight, on a thread of its own, until each is
   * visible or {@link #TIMEOUT} after its start.
   */
  private static final class Watcher implements AutoCloseable {
    private final LatencyProbe probe;
    private final List<Sample> inFlight = new ArrayList<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile RuntimeException failure;

    Watcher(LatencyProbe probe) {
      this.probe = probe;
      this.thread = new Thread(this::loop, "webindex-probe-watcher");
      this.thread.setDaemon(true);
      this.thread.start();
    }

    synchronized void add(Sample s) {
      inFlight.add(s);
    }

    private synchronized List<Sample> pending() {
      inFlight.removeIf(Sample::done);
      return List.copyOf(inFlight);
    }

    private void loop() {
      try {
        while (!closed) {
          for (Sample s : pending()) {
            s.missing.removeIf(probe::holds);
            long now = System.nanoTime();
            if (s.missing.isEmpty()) {
              s.visibleAt = now;
            } else if (now - s.start >= TIMEOUT.toNanos()) {
              s.gaveUpAt = now;
            }
          }
          Thread.sleep(POLL.toMillis());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        failure = e;
      }
    }

    /** Waits until every sample added is visible or given up on. */
    void awaitAll() throws InterruptedException {
      while (!pending().isEmpty()) {
        if (failure != null) {
          throw failure;
        }
        if (!thread.isAlive()) {
          throw new IllegalStateException("the latency watcher stopped");
        }
        Thread.sleep(POLL.toMillis());
      }
    }

    @Override
    public void close() throws InterruptedException {
      closed = true;
      thread.join();
    }
  }

  /** Fills {@code lat}; returns true when a sample never became visible. */
  private boolean summarize(
      Map<String, Object> lat,
      List<Sample> all,
      int deltas,
      long versions,
      double loadSeconds,
      long startNanos) {
    List<Double> visible = new ArrayList<>();
    List<Double> loaded = new ArrayList<>();
    List<Double> afterLoaded = new ArrayList<>();
    int failures = 0;
    for (Sample s : all) {
      double ms = s.millis();
      visible.add(ms);
      if (s.visibleAt >= 0 && s.loadedAt.isPresent()) {
        // the exporter may write the cells a moment before the loader's hook notes the batch
        double untilLoaded = Math.min(ms, (s.loadedAt.getAsLong() - s.start) / 1e6);
        loaded.add(untilLoaded);
        afterLoaded.add(ms - untilLoaded);
      }
      if (s.visibleAt < 0) {
        failures++;
        env.err()
            .printf(
                Locale.ROOT,
                "bench: latency under load, sample %d (batch %d): its cells were not in the served"
                    + " table after %d s%n",
                s.index + 1,
                s.batch,
                TIMEOUT.toSeconds());
      }
    }
    lat.put("deltas", deltas);
    lat.put("versions", versions);
    lat.put("samples", all.size());
    lat.put("visible", all.size() - failures);
    lat.put("failures", failures);
    if (!all.isEmpty()) {
      LatencyProbe.Summary v = LatencyProbe.summarize(visible);
      lat.put("p50Ms", round(v.p50()));
      lat.put("p90Ms", round(v.p90()));
      lat.put("p99Ms", round(v.p99()));
      lat.put("maxMs", round(v.max()));
      lat.put("meanMs", round(v.mean()));
      if (!loaded.isEmpty()) {
        LatencyProbe.Summary l = LatencyProbe.summarize(loaded);
        LatencyProbe.Summary a = LatencyProbe.summarize(afterLoaded);
        lat.put("loadedP50Ms", round(l.p50()));
        lat.put("loadedP99Ms", round(l.p99()));
        lat.put("afterLoadedP50Ms", round(a.p50()));
        lat.put("afterLoadedP99Ms", round(a.p99()));
      }
      env.err()
          .printf(
              Locale.ROOT,
              "bench: latency under load over %d samples: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
              all.size(),
              v.p50(),
              v.p99(),
              v.max());
    }
    lat.put("loadSeconds", round(loadSeconds));
    lat.put("pollMs", POLL.toMillis());
    lat.put("timeoutSeconds", TIMEOUT.toSeconds());
    lat.put("seconds", round(secs(startNanos)));
    lat.put("millis", visible.stream().map(Timing::round).toList());
    env.err()
        .printf(
            Locale.ROOT,
            "bench: latency under load: %,d versions in %d deltas loaded in %.1f s%n",
            versions,
            deltas,
            loadSeconds);
    return failures > 0;
  }
}
