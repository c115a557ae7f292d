package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The load: K delta batches of M page versions (re-crawls, new pages, deletions, stale versions)
 * through {@code load --embedded}, after {@code fluo-init} from the recompute.
 */
final class LoadStage {
  private static final Pattern LOAD_RATE = Pattern.compile("([0-9]+) pages/s");

  private LoadStage() {}

  /** Writes and loads the deltas, timed into {@code ld}; returns the last batch applied. */
  static int run(BenchEnv env, Map<String, Object> ld) throws Exception {
    int deltas = env.options().deltas();
    long versions = 0;
    for (int b = 1; b <= deltas; b++) {
      SyntheticBatches.write(env.web(), b, env.batches(), false);
      versions += env.web().batchSize(b);
    }
    long t = System.nanoTime();
    String loaded = env.steps().output("load", "--conf", env.conf(), "--embedded");
    double s = secs(t);
    ld.put("versions", versions);
    ld.put("seconds", round(s));
    ld.put("pagesPerSecond", Math.round(versions / s));
    Matcher m = LOAD_RATE.matcher(loaded);
    if (m.find()) {
      ld.put("loaderPagesPerSecond", Long.parseLong(m.group(1)));
    }
    env.err().printf(Locale.ROOT, "bench: load %,d versions in %.1f s%n", versions, s);
    return deltas;
  }
}
