package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.LoadTool;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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

        Applies the batches of the raw page store newer than the application's resume point, in
        order, one Fluo transaction per page version (latest crawl wins inside Fluo), and records
        each batch once it is fully loaded; a restart resumes at the first batch not recorded.
        Prints progress and throughput to stderr and a summary to stdout.

          --conf FILE        webindex configuration (default: conf/webindex.properties, else the
                             running `bin/webindex dev` instance)
          --up-to S          apply batches <= S only
          --rate N           load at most N pages per second (default: no limit)
          --watch SECONDS    keep running: look for new batches every SECONDS until Ctrl-C;
                             after a cut-over (reconcile) it follows the served pointer to the
                             new application
          --embedded         run the application's oracle and workers in this process (MiniFluo);
                             without it they must already run (fluo-oracle, fluo-worker)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(raw, Set.of(Cli.CONF_OPTION, "up-to", "rate", "watch"), Set.of("embedded"));
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
    CountDownLatch done = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              ctx.requestStop();
              try {
                done.await(60, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "webindex-load-shutdown");
    if (watch > 0) {
      Runtime.getRuntime().addShutdownHook(hook);
    }
    try {
      new LoadTool(ctx.out(), ctx.err())
          .stopSignal(ctx::awaitStop)
          .load(cfg, new LoadTool.Options(upTo, rate, watch, args.has("embedded")));
    } finally {
      done.countDown();
    }
    return 0;
  }

  private static long parseLong(String option, String v) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new UsageException(option + " must be a batch number: " + v);
    }
  }
}
