package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.FluoSession;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.RawPageStore;
import io.webindex.web.FluoProbe;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The Fluo side of health ({@code serve}'s {@code /api/v1/health} and home page, {@code status}):
 * the lag of an application — its resume point read in a Fluo snapshot ({@link
 * FluoSession#applied}), against the newest complete batch of the raw page store — and its oracle
 * and workers, from Fluo's ZooKeeper state ({@link WebindexApp#processes}). Each read has a time
 * limit (a Fluo application whose oracle does not answer cannot give a snapshot; one with no oracle
 * at all is reported at once), and an answer is reused for a few seconds.
 */
final class FluoStateProbe implements FluoProbe, AutoCloseable {
  static final Duration TIME_LIMIT = Duration.ofSeconds(3);
  static final Duration REUSE = Duration.ofSeconds(5);

  private final WebindexConfig cfg;
  private final Duration limit;
  private final ExecutorService lagPool = daemonThread("webindex-fluo-lag");
  private final ExecutorService processPool = daemonThread("webindex-fluo-processes");
  private Lag last;
  private long lastAt;
  private Future<Long> pending;
  private String pendingApp;
  private final Map<String, Processes> lastProcesses = new HashMap<>();
  private final Map<String, Long> lastProcessesAt = new HashMap<>();
  private final Map<String, Future<WebindexApp.Processes>> pendingProcesses = new HashMap<>();

  FluoStateProbe(WebindexConfig cfg) {
    this(cfg, TIME_LIMIT);
  }

  /** A probe whose reads give up after {@code limit}. */
  FluoStateProbe(WebindexConfig cfg, Duration limit) {
    this.cfg = cfg;
    this.limit = limit;
  }

  private static ExecutorService daemonThread(String name) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  @Override
  public synchronized Lag lag(String app) {
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
        pending != null && pendingApp.equals(app)
            ? pending
            : lagPool.submit(() -> readApplied(app));
    pending = null;
    try {
      applied = f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending = f;
      pendingApp = app;
      error =
          "the Fluo application "
              + app
              + " gave no snapshot within "
              + limit.toSeconds()
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
  public synchronized Processes processes(String app) {
    long now = System.nanoTime();
    Long at = lastProcessesAt.get(app);
    if (at != null && now - at < REUSE.toNanos()) {
      return lastProcesses.get(app);
    }
    // as for the lag: a read that outlived the time limit is taken up by the next probe
    Future<WebindexApp.Processes> f = pendingProcesses.remove(app);
    if (f == null) {
      f = processPool.submit(() -> WebindexApp.processes(cfg, app));
    }
    Processes p;
    try {
      WebindexApp.Processes r = f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
      p = new Processes(app, r.oracle(), r.workers(), null);
    } catch (TimeoutException e) {
      pendingProcesses.put(app, f);
      p =
          new Processes(
              app,
              null,
              null,
              "the Fluo state of " + app + " could not be read within " + limit.toSeconds() + " s");
    } catch (ExecutionException e) {
      p =
          new Processes(
              app,
              null,
              null,
              "cannot read the Fluo state of " + app + ": " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p = new Processes(app, null, null, "interrupted");
    }
    lastProcesses.put(app, p);
    lastProcessesAt.put(app, now);
    return p;
  }

  @Override
  public void close() {
    lagPool.shutdownNow();
    processPool.shutdownNow();
  }
}
