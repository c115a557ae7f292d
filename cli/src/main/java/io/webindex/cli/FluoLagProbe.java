package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.FluoSession;
import io.webindex.store.RawPageStore;
import io.webindex.web.FluoLag;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The lag of the Fluo application for {@code serve}'s health answer: its resume point read in a
 * Fluo snapshot, against the newest complete batch of the raw page store. Each probe has a time
 * limit (a Fluo application whose oracle does not answer cannot give a snapshot; one with no oracle
 * at all is reported at once), and an answer is reused for a few seconds. The Fluo side is {@link
 * FluoSession#applied}.
 */
final class FluoLagProbe implements FluoLag, AutoCloseable {
  static final Duration TIME_LIMIT = Duration.ofSeconds(3);
  static final Duration REUSE = Duration.ofSeconds(5);

  private final WebindexConfig cfg;
  private final ExecutorService pool =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "webindex-fluo-lag");
            t.setDaemon(true);
            return t;
          });
  private Lag last;
  private long lastAt;
  private Future<Long> pending;
  private String pendingApp;

  FluoLagProbe(WebindexConfig cfg) {
    this.cfg = cfg;
  }

  @Override
  public synchronized Lag probe(String app) {
    long now = System.nanoTime();
    if (last != null && last.app().equals(app) && now - lastAt < REUSE.toNanos()) {
      return last;
    }
    Long newest = null;
    Long secondsBehind = null;
    String error = null;
    List<RawPageStore.Batch> batches = List.of();
    Configuration hadoop = new Configuration();
    try {
      batches = new RawPageStore(cfg.storeRoot(), hadoop).batches();
      newest = batches.isEmpty() ? -1L : batches.get(batches.size() - 1).seq();
    } catch (IOException | RuntimeException e) {
      error = "cannot list the batches of " + cfg.storeRoot() + ": " + e.getMessage();
    }
    Long applied = null;
    // no oracle: refused at once (FluoSession.NotRunning); an oracle that does not answer: the
    // time limit
    // a read that outlived the last probe's time limit is not abandoned: opening the first client
    // of a busy machine can take longer than the limit, and the next probe takes its answer
    Future<Long> f =
        pending != null && pendingApp.equals(app) ? pending : pool.submit(() -> readApplied(app));
    pending = null;
    try {
      applied = f.get(TIME_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending = f;
      pendingApp = app;
      error =
          "the Fluo application "
              + app
              + " gave no snapshot within "
              + TIME_LIMIT.toSeconds()
              + " s (is its oracle running?)";
    } catch (ExecutionException e) {
      error =
          e.getCause() instanceof FluoSession.NotRunning
              ? "no oracle of the Fluo application " + app + " runs: it gives no snapshot"
              : "cannot read the resume point of " + app + ": " + e.getCause().getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error = "interrupted";
    }
    Long behind = null;
    if (applied != null && newest != null) {
      behind = Math.max(0, newest - applied);
      secondsBehind = 0L;
      for (RawPageStore.Batch b : batches) {
        if (b.seq() > applied) {
          try {
            long written =
                FileSystem.get(b.dir().toUri(), hadoop)
                    .getFileStatus(b.dir())
                    .getModificationTime();
            secondsBehind = Math.max(0, (System.currentTimeMillis() - written) / 1000);
          } catch (IOException e) {
            secondsBehind = null;
            error = "cannot read the time of batch " + b.seq() + ": " + e.getMessage();
          }
          break;
        }
      }
    }
    last = new Lag(app, applied, newest, behind, secondsBehind, error);
    lastAt = now;
    return last;
  }

  private long readApplied(String app) {
    return FluoSession.applied(cfg, app);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
