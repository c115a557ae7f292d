package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.BatchApplier;
import io.webindex.fluo.LoadTool;
import io.webindex.store.StopOnSignal;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code load}: applies new raw-page batches through the Fluo application ({@link LoadTool}). */
final class LoadCommand implements Command {
  @Override
  public String name() {
    return "load";
  }

  @Override
  public String summary() {
    return "apply new raw-page batches through the Fluo application";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex load [--conf FILE] [--up-to S] [--rate N] [--watch SECONDS] [--embedded]
                                 [--json]

        Applies the batches of the raw page store newer than the application's resume point, in
        order and without gaps, complete ones only (with their _SUCCESS marker; the first batch
        missing or incomplete waits, and it says which and why), up to 16 page versions of distinct URIs per Fluo transaction (latest crawl wins
        inside Fluo), and records each batch once it is fully loaded; a restart resumes at the
        first batch not recorded.
        Prints progress and throughput to stderr and a summary to stdout.

          --conf FILE        webindex configuration (default: conf/webindex.properties, else the
                             running `bin/webindex dev` instance)
          --up-to S          apply batches <= S only
          --rate N           load at most N pages per second (default: no limit)
          --watch SECONDS    keep running: look for new batches every SECONDS until Ctrl-C;
                             after a cut-over (reconcile) it follows the served pointer to the
                             new application; once a round succeeded, a failed round (store,
                             Accumulo or oracle unreachable) is tried again after 1 s, doubling
                             up to 60 s, with one line on stderr per failure
          --embedded         run the application's oracle and workers in this process (MiniFluo);
                             without it they must already run (fluo-oracle, fluo-worker)
          --json             instead of the summary, print one JSON object per round that
                             applied batches when the command ends: appliedBefore, appliedAfter,
                             batches, pages, applied, stale, rejected, seconds, pagesPerSecond
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(
            raw, Set.of(Cli.CONF_OPTION, "up-to", "rate", "watch"), Set.of("embedded", "json"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "");
    WebindexConfig cfg = ctx.config(args.value(Cli.CONF_OPTION).orElse(null)).config();
    Long upTo = args.value("up-to").map(v -> parseLong("--up-to", v)).orElse(null);
    int rate = args.intValue("rate", 0);
    int watch = args.intValue("watch", 0);
    if (rate < 0 || watch < 0) {
      throw new UsageException("--rate and --watch take positive numbers");
    }
    boolean json = args.has("json");
    List<BatchApplier.Result> rounds;
    // a watch serves until Ctrl-C or SIGTERM; a single round ends by itself
    LoadTool tool =
        tool(json ? new PrintWriter(Writer.nullWriter()) : ctx.out(), ctx)
            .stopSignal(ctx::awaitStop);
    // the tool hears of the stop too: it interrupts a round that does not end within its grace
    try (StopOnSignal signal =
        watch > 0
            ? new StopOnSignal(
                () -> {
                  ctx.requestStop();
                  tool.requestStop();
                })
            : null) {
      rounds = tool.load(cfg, new LoadTool.Options(upTo, rate, watch, args.has("embedded")));
    }
    if (json) {
      for (BatchApplier.Result r : rounds) {
        if (r.batches() > 0) {
          ctx.out().println(RecomputeCommand.json(round(r)));
        }
      }
    }
    return 0;
  }

  private static Map<String, Object> round(BatchApplier.Result r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("appliedBefore", r.appliedBefore());
    m.put("appliedAfter", r.appliedAfter());
    m.put("batches", r.batches());
    m.put("pages", r.pages());
    m.put("applied", r.applied());
    m.put("stale", r.stale());
    m.put("rejected", r.rejected());
    m.put("seconds", r.time().toMillis() / 1000.0);
    m.put("pagesPerSecond", Math.round(r.pagesPerSecond()));
    return m;
  }

  private static long parseLong(String option, String v) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new UsageException(option + " must be a batch number: " + v);
    }
  }

  /** The loader, reading the raw page store with the command line's Hadoop configuration. */
  private static LoadTool tool(PrintWriter out, Cli ctx) {
    LoadTool tool = new LoadTool(out, ctx.err());
    tool.setConf(ctx.hadoopConf());
    return tool;
  }
}
