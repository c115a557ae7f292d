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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;

/**
 * The latency stage: with the served application running embedded, L times on an idle system a
 * batch of one new page ({@link ProbeBatch}) is written after the last batch applied, applied as
 * load applies batches, and timed until its cells are in the served table ({@link LatencyProbe}).
 */
final class LatencyStage {
  /** How often a latency sample looks at the served table, and how long it waits at most. */
  static final Duration LATENCY_POLL = Duration.ofMillis(5);

  static final Duration LATENCY_TIMEOUT = Duration.ofSeconds(30);

  private final BenchEnv env;
  private final WebindexConfig cfg;
  private final int after;
  private final int samples;
  private final SplittableRandom random;
  private final List<Double> visible = new ArrayList<>();
  private final List<Double> committed = new ArrayList<>();
  private final List<Double> afterCommit = new ArrayList<>();
  private int failures;

  private LatencyStage(BenchEnv env, int after) {
    this.env = env;
    this.cfg = env.ctx().config(env.conf()).config();
    this.after = after;
    this.samples = env.options().samples();
    this.random = new SplittableRandom(env.options().seed());
  }

  /**
   * Takes the samples after batch {@code after} and fills {@code lat}; returns true when a sample
   * never became visible.
   */
  static boolean run(BenchEnv env, int after, Map<String, Object> lat)
      throws IOException, InterruptedException {
    return new LatencyStage(env, after).measure(lat);
  }

  private boolean measure(Map<String, Object> lat) throws IOException, InterruptedException {
    long t = System.nanoTime();
    try (LatencyProbe probe = LatencyProbe.open(cfg, new Configuration())) {
      for (int i = 0; i < samples; i++) {
        sample(probe, i);
      }
    }
    summarize(lat, t);
    return failures > 0;
  }

  private void sample(LatencyProbe probe, int i) throws IOException, InterruptedException {
    int batch = after + 1 + i;
    String target = env.web().url(random.nextInt(env.web().pages()));
    Page page = ProbeBatch.write(cfg, env.batches(), batch, target, i);
    List<Cell> expected = IndexCells.page(page);
    // idle: every notification of the previous sample processed, then a pause of a random
    // length so that samples do not start in step with the workers' notification scans
    probe.awaitIdle();
    Thread.sleep(random.nextInt(100));
    LatencyProbe.Sample sample = probe.measure(batch, expected, LATENCY_TIMEOUT, LATENCY_POLL);
    visible.add(sample.untilVisible().toNanos() / 1e6);
    committed.add(sample.untilCommitted().toNanos() / 1e6);
    afterCommit.add(sample.untilVisible().minus(sample.untilCommitted()).toNanos() / 1e6);
    if (!sample.visible()) {
      failures++;
      env.err()
          .printf(
              Locale.ROOT,
              "bench: latency sample %d (batch %d): its cells were not in %s after %d s%n",
              i + 1,
              batch,
              probe.table(),
              LATENCY_TIMEOUT.toSeconds());
    }
    if ((i + 1) % 10 == 0 || i + 1 == samples) {
      env.err()
          .printf(
              Locale.ROOT,
              "bench: latency: %d of %d samples, last %.0f ms%n",
              i + 1,
              samples,
              visible.get(i));
    }
  }

  private void summarize(Map<String, Object> lat, long startNanos) {
    LatencyProbe.Summary v = LatencyProbe.summarize(visible);
    LatencyProbe.Summary c = LatencyProbe.summarize(committed);
    LatencyProbe.Summary a = LatencyProbe.summarize(afterCommit);
    lat.put("samples", samples);
    lat.put("visible", samples - failures);
    lat.put("failures", failures);
    lat.put("p50Ms", round(v.p50()));
    lat.put("p90Ms", round(v.p90()));
    lat.put("p99Ms", round(v.p99()));
    lat.put("maxMs", round(v.max()));
    lat.put("meanMs", round(v.mean()));
    lat.put("committedP50Ms", round(c.p50()));
    lat.put("committedP99Ms", round(c.p99()));
    lat.put("afterCommitP50Ms", round(a.p50()));
    lat.put("afterCommitP99Ms", round(a.p99()));
    lat.put("pollMs", LATENCY_POLL.toMillis());
    lat.put("timeoutSeconds", LATENCY_TIMEOUT.toSeconds());
    lat.put("seconds", round(secs(startNanos)));
    lat.put("millis", visible.stream().map(Timing::round).toList());
    env.err()
        .printf(
            Locale.ROOT,
            "bench: latency over %d samples: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
            samples,
            v.p50(),
            v.p99(),
            v.max());
  }
}
