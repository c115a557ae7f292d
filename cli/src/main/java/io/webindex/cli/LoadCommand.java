package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.BatchApplier;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.AccumuloConnections;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.Connector;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.mini.MiniFluo;
import org.apache.hadoop.conf.Configuration;

/** {@code load}: applies new raw-page batches through the Fluo application. */
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
                             without it they must already run (Fluo's own oracle and workers)
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
    boolean embedded = args.has("embedded");
    Connector conn = AccumuloConnections.connect(cfg);
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
      String app = WebindexApp.currentApp(cfg, conn);
      while (app != null) {
        app = loadInto(app, cfg, conn, ctx, embedded, upTo, rate, watch);
      }
    } finally {
      done.countDown();
    }
    return 0;
  }

  /**
   * Loads through application {@code app} until done (or, with --watch, until stopped); returns the
   * application to go on with when a cut-over made another one the served one, else null.
   */
  private static String loadInto(
      String app,
      WebindexConfig cfg,
      Connector conn,
      Cli ctx,
      boolean embedded,
      Long upTo,
      int rate,
      int watch)
      throws Exception {
    if (!embedded && !WebindexApp.processes(cfg, app).oracle()) {
      // a Fluo client waits for the oracle forever: say what must run instead
      throw new UsageException(
          "no oracle of Fluo application "
              + app
              + " runs: start its oracle and workers (`fluo oracle`/`fluo worker` with the"
              + " application's configuration), or pass --embedded to run them in this process");
    }
    Path dataDir = embedded ? Files.createTempDirectory("webindex-fluo-") : null;
    try (MiniFluo mini =
            embedded
                ? WebindexApp.startEmbedded(WebindexApp.connection(cfg, app), dataDir, 4)
                : null;
        FluoClient client =
            FluoFactory.newClient(
                mini != null ? mini.getClientConfiguration() : WebindexApp.connection(cfg, app))) {
      do {
        String served = WebindexApp.currentApp(cfg, conn);
        if (!served.equals(app)) {
          // a cut-over switched the served table: feeding the old application would update a
          // table nobody reads any more
          ctx.err()
              .printf(
                  "load: the served table is now maintained by Fluo application %s (was %s):"
                      + " following it%n",
                  served, app);
          ctx.err().flush();
          if (mini != null) {
            mini.waitForObservers();
          }
          return served;
        }
        BatchApplier.Result r =
            new BatchApplier(client, cfg, new Configuration(), ctx.err())
                .rateLimit(rate)
                .applyPending(upTo);
        if (mini != null) {
          mini.waitForObservers();
        }
        if (r.batches() == 0 && watch == 0) {
          ctx.out().printf("nothing to apply: every batch up to %d is applied%n", r.appliedAfter());
        } else if (r.batches() > 0) {
          ctx.out()
              .printf(
                  "applied batches %d..%d: %d page versions (%d applied, %d stale), %d rejected, %.0f pages/s%n",
                  r.appliedBefore() + 1,
                  r.appliedAfter(),
                  r.pages(),
                  r.applied(),
                  r.stale(),
                  r.rejected(),
                  r.pagesPerSecond());
          ctx.out().flush();
        }
      } while (watch > 0 && !ctx.awaitStop(watch * 1000L));
    } finally {
      if (dataDir != null) {
        EmbeddedAccumulo.deleteRecursively(dataDir);
      }
    }
    return null;
  }

  private static long parseLong(String option, String v) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new UsageException(option + " must be a batch number: " + v);
    }
  }
}
