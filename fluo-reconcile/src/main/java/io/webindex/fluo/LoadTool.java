package io.webindex.fluo;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.StopOnSignal;
import io.webindex.store.StoreException;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code load}: applies the raw-page batches newer than the served application's resume point
 * through it ({@link BatchApplier}); with {@code --watch} it keeps looking for new batches, and
 * follows the served pointer to a new application after a cut-over.
 *
 * <pre>
 * hadoop jar webindex-mr-jobs-job.jar io.webindex.fluo.LoadTool \
 *     --webindex-conf FILE [--up-to S] [--rate N] [--watch SECONDS] [--embedded]
 * </pre>
 *
 * Exit status ({@link io.webindex.core.exit.ExitStatus}): 0 done (or stopped), 2 a usage error, 3
 * no oracle of the application runs or Accumulo is unavailable, 4 anything unexpected.
 */
public final class LoadTool extends Configured implements Tool {
  private static final Logger log = LoggerFactory.getLogger(LoadTool.class);

  /** What to load. */
  public record Options(Long upTo, int rate, int watchSeconds, boolean embedded) {}

  /** Waits up to {@code millis} for a stop request; true when one came. */
  public interface StopSignal {
    boolean await(long millis) throws InterruptedException;
  }

  private final PrintWriter out;
  private final PrintWriter err;
  private final CountDownLatch stop = new CountDownLatch(1);
  private StopSignal stopSignal = millis -> stop.await(millis, TimeUnit.MILLISECONDS);
  private String waitingSaid; // what the last round said waits: a watch says it once

  public LoadTool() {
    this(
        ReconcileTool.stdout(),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
  }

  public LoadTool(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) throws Exception {
    ToolMain.exit("load", new LoadTool(), args);
  }

  /** Where {@code --watch} learns that it should stop (default: {@link #requestStop()}). */
  public LoadTool stopSignal(StopSignal s) {
    this.stopSignal = s;
    return this;
  }

  /**
   * Ends a {@code --watch} after the current round; a round that has not ended {@link
   * #STOP_GRACE_MILLIS} later is interrupted.
   */
  public void requestStop() {
    stop.countDown();
    interruptAfterGrace();
  }

  private static final Set<String> VALUES = Set.of("up-to", "rate", "watch");

  /** Checks the arguments as {@link #run} would. @throws IllegalArgumentException if refused */
  public static void parseArgs(String[] args) {
    options(ToolConfig.args(args, VALUES, Set.of("embedded")));
  }

  private static Options options(Args a) {
    Long upTo = a.value("up-to").isPresent() ? a.nonNegative("up-to", 0) : null;
    return new Options(
        upTo, a.nonNegativeInt("rate", 0), a.nonNegativeInt("watch", 0), a.has("embedded"));
  }

  @Override
  public int run(String[] args) throws Exception {
    StopOnSignal signal = null;
    try {
      Args a = ToolConfig.args(args, VALUES, Set.of("embedded"));
      if (a.helpRequested()) {
        out.print(
            "usage: LoadTool --webindex-conf FILE [--up-to S] [--rate N] [--watch SECONDS]"
                + " [--embedded]\n");
        return 0;
      }
      Options o = options(a);
      WebindexConfig cfg = ToolConfig.load(getConf(), a, "webindex.mr.");
      if (o.watchSeconds() > 0) {
        // a watch serves until Ctrl-C or SIGTERM; a single round ends by itself
        signal = new StopOnSignal(this::requestStop);
      }
      load(cfg, o);
      return 0;
    } catch (Exception e) {
      return ToolMain.fail("load", e, err);
    } finally {
      if (signal != null) {
        signal.close();
      }
      out.flush();
      err.flush();
    }
  }

  /**
   * The typed entry point: loads through the served application until done (with a watch: until
   * stopped), following cut-overs. Returns what every round applied. With a watch, once a round
   * succeeded, a round that fails is tried again with a back-off ({@link WatchBackoff}).
   *
   * @throws StoreException when no oracle of the application runs (without {@code embedded}), or
   *     the store or Accumulo fails (with a watch: before a first round succeeded)
   */
  public List<BatchApplier.Result> load(WebindexConfig cfg, Options o) throws Exception {
    LoaderMetrics.exportQueueClient(null); // the loader's figures exist from the start
    if (o.watchSeconds() == 0) {
      return loadRounds(cfg, o);
    }
    AutoCloseable metrics = ServiceMetrics.start(cfg, err);
    CountDownLatch ended = new CountDownLatch(1);
    watching = new Watching(Thread.currentThread(), ended);
    try {
      return loadRounds(cfg, o);
    } finally {
      ended.countDown();
      watching = null;
      Thread.interrupted(); // an interrupt of the stop (see requestStop) that came as it ended
      ServiceMetrics.stop(metrics);
    }
  }

  /**
   * How long a watch's current round may go on after {@link #requestStop()} before it is
   * interrupted. A round blocked on an oracle that is gone (stopped first, or failing over while
   * the loader stops) waits for it with an ever longer back-off and would hold the stop until the
   * shutdown gives up. An interrupted round is safe: every page version is applied in a transaction
   * of its own, and the next start resumes after the last batch recorded as applied.
   */
  static final long STOP_GRACE_MILLIS = 5_000;

  /** The thread of a running watch and the latch it opens when it ends. */
  private record Watching(Thread loader, CountDownLatch ended) {}

  private volatile Watching watching;

  /**
   * Interrupts the running watch's round every {@link #STOP_GRACE_MILLIS} until it ended, once it
   * did not end within the grace.
   */
  private void interruptAfterGrace() {
    Watching w = watching;
    if (w == null) {
      return;
    }
    Thread t =
        new Thread(
            () -> {
              try {
                while (!w.ended().await(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                  err.printf(
                      "load: stopping: the current round did not end within %d s, interrupting it"
                          + " (the next start resumes after the last batch applied)%n",
                      STOP_GRACE_MILLIS / 1000);
                  err.flush();
                  w.loader().interrupt();
                }
              } catch (InterruptedException e) {
                // the JVM goes down
              }
            },
            "webindex-load-stop");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Logs what the embedded application's transactions did so far, by class ({@link FluoTxFigures}):
   * with {@code -v}, the work per page version the loader and each observer cost.
   */
  private static void logTransactions(String app, long versions) {
    for (FluoTxFigures f : FluoTxFigures.of(app).values()) {
      log.info("fluo transactions of {}: {}", app, f.describe(versions));
    }
  }

  private List<BatchApplier.Result> loadRounds(WebindexConfig cfg, Options o) throws Exception {
    Connector conn = AccumuloConnections.connect(cfg);
    List<BatchApplier.Result> rounds = new ArrayList<>();
    String app = WebindexApp.currentApp(cfg, conn);
    WatchBackoff backoff = new WatchBackoff(err);
    while (app != null) {
      try {
        app = loadInto(app, cfg, conn, o, rounds);
      } catch (Exception e) {
        if (o.watchSeconds() > 0 && stop.getCount() == 0) {
          // a round interrupted by a stop (see requestStop): the watch ends as stopped
          Thread.interrupted();
          return rounds;
        }
        // a watch is a service: it waits for the application's oracle even before its first
        // round (the services start in any order, an oracle fails over), and outlives brief
        // outages once it ran; any other first failure is a configuration error
        boolean noOracle = e instanceof FluoSession.NotRunning && !o.embedded();
        if (o.watchSeconds() == 0 || (rounds.isEmpty() && !noOracle) || !WatchBackoff.retries(e)) {
          throw e;
        }
        if (stopSignal.await(backoff.failed(e, rounds.size()).toMillis())) {
          return rounds;
        }
      }
    }
    return rounds;
  }

  /**
   * Loads through application {@code app} until done (or, with a watch, until stopped); returns the
   * application to go on with when a cut-over made another one the served one, else null.
   */
  private String loadInto(
      String app, WebindexConfig cfg, Connector conn, Options o, List<BatchApplier.Result> rounds)
      throws Exception {
    // loading through an application of another version would write this version's format into
    // it (a read-only client, e.g. the check's, may read any version's resume point)
    WebindexApp.requireThisVersion(cfg, app);
    // without --embedded: refuses at once when no oracle runs (a client would wait for it forever)
    long versions = 0;
    try (FluoSession fluo = FluoSession.open(cfg, app, o.embedded())) {
      LoaderMetrics.exportQueueClient(fluo.client());
      try {
        do {
          String served = WebindexApp.currentApp(cfg, conn);
          if (!served.equals(app)) {
            // a cut-over switched the served table: feeding the old application would update a
            // table nobody reads any more
            err.printf(
                "load: the served table is now maintained by Fluo application %s (was %s):"
                    + " following it%n",
                served, app);
            err.flush();
            fluo.awaitIdle();
            return served;
          }
          BatchApplier.Result r =
              new BatchApplier(
                      fluo.client(), cfg, getConf() == null ? new Configuration() : getConf(), err)
                  .rateLimit(o.rate())
                  .waitingSaid(waitingSaid)
                  .applyPending(o.upTo());
          waitingSaid = r.waiting();
          fluo.awaitIdle();
          rounds.add(r);
          versions += r.pages();
          if (o.embedded() && r.batches() > 0 && log.isInfoEnabled()) {
            logTransactions(app, versions);
          }
          if (r.batches() == 0 && o.watchSeconds() == 0) {
            out.printf("nothing to apply: every batch up to %d is applied%n", r.appliedAfter());
          } else if (r.batches() > 0) {
            out.printf(
                "applied batches %d..%d: %d page versions (%d applied, %d stale), %d rejected, %.0f"
                    + " pages/s%n",
                r.appliedBefore() + 1,
                r.appliedAfter(),
                r.pages(),
                r.applied(),
                r.stale(),
                r.rejected(),
                r.pagesPerSecond());
          }
          out.flush();
        } while (o.watchSeconds() > 0 && !stopSignal.await(o.watchSeconds() * 1000L));
      } finally {
        LoaderMetrics.exportQueueClient(null);
      }
    }
    return null;
  }
}
