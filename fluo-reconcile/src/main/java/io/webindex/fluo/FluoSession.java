package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.files.LocalFiles;
import io.webindex.store.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.mini.MiniFluo;

/**
 * The one way webindex opens a Fluo application: either embedded (its oracle and workers run in
 * this process, in a MiniFluo over the configured Accumulo) or running elsewhere ({@code
 * fluo-oracle}, {@code fluo-worker}), in which case it refuses at once when no oracle runs instead
 * of blocking (a Fluo client waits for the oracle forever).
 *
 * <p>Closing follows the order Fluo 1.2 needs (it can hang when a client is closed with work in
 * flight): the caller closes its loaders first (a {@link BatchApplier} closes its own), then {@link
 * #close} waits for the embedded observers, closes the client, then the MiniFluo, then removes the
 * MiniFluo's temporary directory.
 */
public final class FluoSession implements AutoCloseable {
  /**
   * The worker threads of an embedded application unless told otherwise: 4, but no more than the
   * machine has cores. The embedded workers share the cores with the loader and, embedded, the
   * tablet server; on 2 cores 2 threads loaded faster than 4 (docs/performance.md).
   */
  public static final int WORKER_THREADS = Math.min(4, Runtime.getRuntime().availableProcessors());

  /**
   * No oracle of the application runs: it cannot be opened without {@code --embedded}; transient,
   * since the services may come up later.
   */
  public static final class NotRunning extends StoreUnavailableException {
    private static final long serialVersionUID = 1L;

    NotRunning(String app) {
      super(
          "no oracle of Fluo application "
              + app
              + " runs: "
              + startHint(app)
              + ", or pass --embedded to run them in this process");
    }
  }

  private final WebindexConfig cfg;
  private final String app;
  private final MiniFluo mini;
  private final Path dataDir;
  private final FluoClient client;

  private FluoSession(
      WebindexConfig cfg, String app, MiniFluo mini, Path dataDir, FluoClient client) {
    this.cfg = cfg;
    this.app = app;
    this.mini = mini;
    this.dataDir = dataDir;
    this.client = client;
  }

  /**
   * Opens application {@code app}: embedded ({@link #embedded}) or the running one ({@link
   * #running}).
   */
  public static FluoSession open(WebindexConfig cfg, String app, boolean embedded) {
    return embedded ? embedded(cfg, app, WORKER_THREADS) : running(cfg, app);
  }

  /**
   * Starts the (initialised) application in this process with {@code workerThreads} worker threads
   * and low-latency notification settings, refusing one that another version of webindex
   * initialised (its observers would read that version's queue entries); its MiniFluo keeps its
   * data in a temporary directory that {@link #close} removes.
   */
  public static FluoSession embedded(WebindexConfig cfg, String app, int workerThreads) {
    Path dir;
    try {
      dir = Files.createTempDirectory("webindex-fluo-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for the embedded Fluo", e);
    }
    MiniFluo mini = null;
    try {
      WebindexApp.requireThisVersion(cfg, app);
      mini = WebindexApp.startEmbedded(WebindexApp.connection(cfg, app), dir, workerThreads);
      return new FluoSession(
          cfg, app, mini, dir, FluoFactory.newClient(mini.getClientConfiguration()));
    } catch (RuntimeException e) {
      if (mini != null) {
        mini.close();
      }
      deleteQuietly(dir, e);
      throw e;
    }
  }

  /**
   * A client of the application whose oracle and workers run as their own processes.
   *
   * @throws NotRunning when no oracle of it runs (naming the commands that start one)
   */
  public static FluoSession running(WebindexConfig cfg, String app) {
    if (!WebindexApp.processes(cfg, app).oracle()) {
      throw new NotRunning(app);
    }
    return new FluoSession(
        cfg, app, null, null, FluoFactory.newClient(WebindexApp.connection(cfg, app)));
  }

  /**
   * Waits up to {@code wait} until an oracle and at least one worker of application {@code app}
   * run; returns what runs then.
   */
  public static WebindexApp.Processes awaitProcesses(
      WebindexConfig cfg, String app, Duration wait) {
    Instant until = Instant.now().plus(wait);
    WebindexApp.Processes p = WebindexApp.processes(cfg, app);
    while ((!p.oracle() || p.workers() == 0) && Instant.now().isBefore(until)) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      p = WebindexApp.processes(cfg, app);
    }
    return p;
  }

  /** What an operator starts so that application {@code app} runs. */
  public static String startHint(String app) {
    return "start an oracle and workers that serve it (`bin/webindex fluo-oracle` and `bin/webindex"
        + " fluo-worker` without --app follow the served pointer and serve it during a cut-over;"
        + " or `bin/webindex fluo-oracle --app "
        + app
        + "` and `bin/webindex fluo-worker --app "
        + app
        + "`, see docs/fluo.md)";
  }

  /**
   * The highest batch that the running application {@code app} recorded as applied (-1 when none),
   * read in a snapshot.
   *
   * @throws NotRunning when no oracle of it runs
   */
  public static long applied(WebindexConfig cfg, String app) {
    try (FluoSession s = running(cfg, app)) {
      return WebindexApp.applied(s.client());
    }
  }

  /** The application's name. */
  public String app() {
    return app;
  }

  /** Whether the application runs in this process. */
  public boolean embedded() {
    return mini != null;
  }

  /** The client: valid until {@link #close}. */
  public FluoClient client() {
    return client;
  }

  /**
   * Waits until the embedded workers have processed every notification (the exports are then in the
   * query table). For an application running elsewhere it returns at once: its own workers go on
   * ({@link #awaitIdle(Duration)} waits for them).
   */
  public void awaitIdle() {
    if (mini != null) {
      mini.waitForObservers();
    }
  }

  /**
   * Waits up to {@code max} until the application is idle, wherever its workers run: {@link
   * Idleness#await}. Embedded, the MiniFluo's own wait (its workers are in this process).
   */
  public Idleness.Result awaitIdle(Duration max) {
    if (mini != null) {
      Instant t0 = Instant.now();
      mini.waitForObservers();
      return new Idleness.Result(true, 0, Duration.between(t0, Instant.now()));
    }
    return Idleness.await(cfg, app, max);
  }

  /** Waits for the embedded observers, then closes the client and the MiniFluo. */
  @Override
  public void close() {
    try {
      awaitIdle();
    } finally {
      try {
        client.close();
      } finally {
        if (mini != null) {
          try {
            mini.close();
          } finally {
            deleteQuietly(dataDir, null);
          }
        }
      }
    }
  }

  private static void deleteQuietly(Path dir, RuntimeException cause) {
    try {
      LocalFiles.deleteRecursively(dir);
    } catch (IOException e) {
      UncheckedIOException u = new UncheckedIOException("cannot remove " + dir, e);
      if (cause != null) {
        cause.addSuppressed(u);
      } else {
        throw u;
      }
    }
  }
}
