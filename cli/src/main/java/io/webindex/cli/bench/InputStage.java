package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/** The input: batch 0 of the synthetic web, written as {@code gen} writes it. */
final class InputStage {
  private InputStage() {}

  /** Writes batch 0 and puts its links, bytes and time into {@code input}. */
  static void run(BenchEnv env, Map<String, Object> input)
      throws IOException, InterruptedException {
    long t = System.nanoTime();
    SyntheticBatches.Written gen = SyntheticBatches.write(env.web(), 0, env.batches(), false);
    double genSecs = secs(t);
    // the stages after this one run in this JVM: the recompute's heap is not the generator's cache
    // (4M URLs, about 300 MB, at 10M pages: its collector spent two thirds of job 2 in full
    // collections with them); the delta batches make their few URLs again
    env.web().releaseCache();
    input.put("links", gen.links());
    input.put("bytes", gen.bytes());
    input.put("genSeconds", round(genSecs));
    env.err()
        .printf(
            Locale.ROOT,
            "bench: generated %,d pages, %,d links (%,d bytes) in %.1f s%n",
            env.options().pages(),
            gen.links(),
            gen.bytes(),
            genSecs);
  }
}
