package io.webindex.cli.bench;

import io.webindex.cli.Cli;
import io.webindex.cli.UsageException;
import io.webindex.core.args.Args;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@code bench}, checked: what to time ({@code recompute}, {@code load}, {@code
 * latency}, {@code check} or {@code all}) and on what.
 */
record BenchOptions(
    List<String> raw,
    String what,
    int pages,
    long seed,
    int deltas,
    int deltaPages,
    int samples,
    Path out,
    boolean keep) {

  static final Set<String> WHAT = Set.of("recompute", "load", "latency", "check", "all");

  static BenchOptions parse(List<String> raw, Cli ctx) {
    Args args =
        Args.parse(
            raw,
            Set.of("pages", "seed", "deltas", "delta-pages", "samples", "out"),
            Set.of("keep"));
    List<String> pos =
        args.expectPositionals(1, "what to time: recompute, load, latency, check or all");
    String what = pos.get(0);
    if (!WHAT.contains(what)) {
      throw new UsageException(
          "bench times recompute, load, latency, check or all, not '" + what + "'");
    }
    int pages = args.intValue("pages", 100_000);
    if (pages < 1) {
      throw new UsageException("--pages must be at least 1");
    }
    long seed;
    try {
      seed = Long.parseLong(args.value("seed").orElse("1"));
    } catch (NumberFormatException e) {
      throw new UsageException("--seed must be a whole number: " + args.value("seed").get());
    }
    int deltas = args.intValue("deltas", 4);
    int deltaPages = args.intValue("delta-pages", Math.max(1, pages / 20));
    if (deltas < 1 || deltaPages < 1) {
      throw new UsageException("--deltas and --delta-pages must be at least 1");
    }
    int samples = args.intValue("samples", 50);
    if (samples < 1) {
      throw new UsageException("--samples must be at least 1");
    }
    Path out = ctx.userPath(args.value("out").orElse("bench-out"));
    return new BenchOptions(
        raw, what, pages, seed, deltas, deltaPages, samples, out, args.has("keep"));
  }

  /** Whether {@code load} runs. */
  boolean load() {
    return what.equals("load") || what.equals("all");
  }

  /** Whether the check of the recomputed table against a clone of it runs. */
  boolean check() {
    return what.equals("check") || what.equals("all");
  }

  /** Whether {@code latency} runs. */
  boolean latency() {
    return what.equals("latency") || what.equals("all");
  }

  /** Whether the Fluo application runs (and so the guard check against a recompute after it). */
  boolean fluo() {
    return load() || latency();
  }
}
