package io.webindex.cli.bench;

import io.webindex.cli.Cli;
import io.webindex.cli.UsageException;
import io.webindex.core.args.Args;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@code bench}, checked: what to time ({@code recompute}, {@code load}, {@code
 * latency}, {@code latency-under-load}, {@code check}, {@code frontier} or {@code all}) and on
 * what.
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
    Path history,
    boolean keep,
    int domains,
    FrontierLoad frontier) {

  static final Set<String> WHAT =
      Set.of("recompute", "load", "latency", "latency-under-load", "check", "frontier", "all");

  /**
   * What the frontier stage runs.
   *
   * @param servers frontier servers started in this process, each over a connection of its own
   * @param clients crawler clients, each on a thread with a channel to one server (round robin)
   * @param seconds how long the clients are measured
   * @param warmupSeconds how long they run before that (not measured; the guard covers it)
   * @param maxQueues GetURLs' max_queues
   * @param maxUrlsPerQueue GetURLs' max_urls_per_queue
   * @param delaySeconds the service's default delay of a queue (SetDelay with no queue)
   */
  record FrontierLoad(
      int servers,
      int clients,
      int seconds,
      int warmupSeconds,
      int maxQueues,
      int maxUrlsPerQueue,
      int delaySeconds) {}

  static BenchOptions parse(List<String> raw, Cli ctx) {
    Args args =
        Args.parse(
            raw,
            Set.of(
                "pages",
                "seed",
                "deltas",
                "delta-pages",
                "samples",
                "out",
                "history",
                "domains",
                "frontiers",
                "clients",
                "seconds",
                "warmup",
                "max-queues",
                "max-urls-per-queue",
                "frontier-delay"),
            Set.of("keep"));
    List<String> pos =
        args.expectPositionals(
            1,
            "what to time: recompute, load, latency, latency-under-load, check, frontier or all");
    String what = pos.get(0);
    if (!WHAT.contains(what)) {
      throw new UsageException(
          "bench times recompute, load, latency, latency-under-load, check, frontier or all, not '"
              + what
              + "'");
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
    Path history =
        args.value("history").map(ctx::userPath).orElse(out.resolve(BenchCommand.HISTORY));
    if (!history.getFileName().toString().endsWith(".jsonl")) {
      throw new UsageException("--history must name a .jsonl file: " + history);
    }
    int domains = GenCommand.domains(args, pages);
    return new BenchOptions(
        raw,
        what,
        pages,
        seed,
        deltas,
        deltaPages,
        samples,
        out,
        history,
        args.has("keep"),
        domains,
        frontierLoad(args));
  }

  private static FrontierLoad frontierLoad(Args args) {
    FrontierLoad f =
        new FrontierLoad(
            args.intValue("frontiers", 2),
            args.intValue("clients", 4),
            args.intValue("seconds", 30),
            args.intValue("warmup", 5),
            args.intValue("max-queues", 10),
            args.intValue("max-urls-per-queue", 10),
            args.intValue("frontier-delay", 0));
    if (f.servers() < 1 || f.clients() < 1 || f.seconds() < 1) {
      throw new UsageException("--frontiers, --clients and --seconds must be at least 1");
    }
    if (f.warmupSeconds() < 0 || f.delaySeconds() < 0) {
      throw new UsageException("--warmup and --frontier-delay must not be negative");
    }
    if (f.maxQueues() < 1 || f.maxUrlsPerQueue() < 1) {
      throw new UsageException("--max-queues and --max-urls-per-queue must be at least 1");
    }
    return f;
  }

  /** Whether the frontier service is measured. */
  boolean frontierStage() {
    return what.equals("frontier") || what.equals("all");
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

  /** Whether {@code latency-under-load} runs. */
  boolean latencyUnderLoad() {
    return what.equals("latency-under-load") || what.equals("all");
  }

  /** Whether the Fluo application runs (and so the guard check against a recompute after it). */
  boolean fluo() {
    return load() || latency() || latencyUnderLoad();
  }
}
