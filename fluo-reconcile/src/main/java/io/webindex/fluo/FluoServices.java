package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.accumulo.core.client.Connector;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.service.FluoService;
import org.apache.fluo.core.impl.FluoConfigurationImpl;
import org.slf4j.LoggerFactory;

/**
 * The application's oracle and workers as long-running processes of their own (not MiniFluo), the
 * Fluo 1.2 way: one oracle per application (a second one stands by and takes over when the first
 * stops) and any number of workers, each started and stopped on its own. A process serves one
 * application for its whole life: after a cut-over the new application gets its own oracle and
 * workers, and the old one's are stopped.
 *
 * <p>Each process builds its Fluo configuration from the webindex configuration (ZooKeeper, the
 * application's name, the Accumulo user and the password, which stays in this process) and reads
 * the rest (observers, queues, exporter) from the application's shared configuration in ZooKeeper,
 * which holds no password ({@link SecretFreeAdmin}). Fluo prints that merged configuration, the
 * password included, at INFO when a service starts; {@link #silenceConfigurationPrint()} makes sure
 * it never is.
 */
public final class FluoServices {
  /** Fluo's logger of {@link FluoConfiguration#print()}, which a starting service calls. */
  public static final String CONFIGURATION_LOGGER = FluoConfiguration.class.getName();

  /** Default worker threads: Fluo's. */
  public static final int DEFAULT_THREADS = FluoConfiguration.WORKER_NUM_THREADS_DEFAULT;

  /**
   * Default longest pause between two scans for notifications when a worker finds none (Fluo's
   * default, five minutes, would delay the first change after a quiet period by as much).
   */
  public static final Duration DEFAULT_MAX_SCAN_INTERVAL = Duration.ofSeconds(1);

  /**
   * Shortest pause between two scans for notifications (Fluo's default, five seconds, made every
   * hop of a change through the queues wait that long even when the worker was busy).
   */
  static final int MIN_SCAN_INTERVAL_MS = 100;

  /** How often a running service looks whether its application is still the served one. */
  static final Duration SERVED_CHECK = Duration.ofSeconds(30);

  /**
   * How often a service that follows the served pointer looks which applications to serve: a
   * cut-over's catch-up waits this long at most for the services to take its application up.
   */
  public static final Duration FOLLOW_INTERVAL = Duration.ofSeconds(1);

  /** What a process runs for each application it serves. */
  public enum Role {
    ORACLE("oracle"),
    WORKER("worker");

    private final String label;

    Role(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /** What a worker runs with. */
  public record WorkerOptions(int threads, Duration maxScanInterval) {
    public WorkerOptions {
      if (threads < 1) {
        throw new IllegalArgumentException("a worker needs at least 1 thread: " + threads);
      }
      if (maxScanInterval.toMillis() < 100) {
        throw new IllegalArgumentException(
            "the longest scan interval must be at least 100 ms, not "
                + maxScanInterval.toMillis()
                + " ms");
      }
    }

    public static WorkerOptions defaults() {
      return new WorkerOptions(DEFAULT_THREADS, DEFAULT_MAX_SCAN_INTERVAL);
    }
  }

  private FluoServices() {}

  /**
   * The application a service serves: {@code app} when given, else the one that maintains the
   * served table (else {@code webindex.fluo.app}).
   *
   * @throws StoreException when that application is not initialised
   */
  public static String application(WebindexConfig cfg, Optional<String> app) {
    String name =
        app.filter(a -> !a.isBlank())
            .orElseGet(() -> WebindexApp.currentApp(cfg, AccumuloConnections.connect(cfg)));
    if (!initialised(cfg, name)) {
      throw new StoreException(
          "Fluo application "
              + name
              + (app.isPresent() ? "" : " (the served one)")
              + " is not initialised: `fluo-init --run ID` or `reconcile --run ID` initialise"
              + " one");
    }
    return name;
  }

  /**
   * Runs the oracle of application {@code app} until {@code stop} says so, then stops it.
   *
   * @throws StoreException when the application is not initialised or Fluo's configuration print
   *     cannot be silenced
   */
  public static void runOracle(
      WebindexConfig cfg, String app, LoadTool.StopSignal stop, PrintWriter progress)
      throws InterruptedException {
    FluoConfiguration fc = prepare(cfg, app);
    if (WebindexApp.processes(cfg, app).oracle()) {
      say(
          progress,
          "an oracle of Fluo application %s runs already: this one stands by and takes over when"
              + " it stops",
          app);
    }
    run(cfg, app, "oracle", FluoFactory.newOracle(fc), stop, progress);
  }

  /**
   * Runs a worker of application {@code app} until {@code stop} says so, then stops it.
   *
   * @throws StoreException when the application is not initialised or Fluo's configuration print
   *     cannot be silenced
   */
  public static void runWorker(
      WebindexConfig cfg,
      String app,
      WorkerOptions o,
      LoadTool.StopSignal stop,
      PrintWriter progress)
      throws InterruptedException {
    FluoConfiguration fc = prepare(cfg, app);
    workerSettings(fc, o);
    run(cfg, app, "worker", FluoFactory.newWorker(fc), stop, progress);
  }

  /**
   * Runs, until {@code stop} says so, an oracle or a worker (by {@code role}) of every application
   * that has to run: the one that maintains the served table and the one a cut-over ({@code
   * reconcile}, {@code fluo-init}) is bringing up ({@link RunRegistry#cutoverTarget}), so that its
   * catch-up runs here. Looks again every {@link #FOLLOW_INTERVAL}: starts what a cut-over or an
   * initialisation made necessary, and stops serving an application once it is neither served nor
   * being brought up, or while it is (re)initialised. No restart and no second set of processes:
   * several such processes on several hosts all follow the same pointer, and two oracles of one
   * application elect one, the other standing by. A brief failure to read the pointer or to start a
   * service is reported and retried at the next look; what runs keeps running meanwhile.
   *
   * @param worker the worker's settings (ignored for the oracle)
   */
  public static void runFollowing(
      WebindexConfig cfg,
      Role role,
      WorkerOptions worker,
      LoadTool.StopSignal stop,
      PrintWriter progress)
      throws InterruptedException {
    requireSilencedConfigurationPrint();
    AutoCloseable metrics = ServiceMetrics.start(cfg, progress);
    try {
      follow(cfg, role, worker, stop, progress);
    } finally {
      ServiceMetrics.stop(metrics);
    }
  }

  private static void follow(
      WebindexConfig cfg,
      Role role,
      WorkerOptions worker,
      LoadTool.StopSignal stop,
      PrintWriter progress)
      throws InterruptedException {
    Map<String, FluoService> running = new LinkedHashMap<>();
    say(
        progress,
        "Fluo %s following the served application (ZooKeeper %s/fluo): it serves the application"
            + " that maintains the served table and the one a cut-over brings up; stop it with"
            + " Ctrl-C or SIGTERM",
        role,
        cfg.zookeepers());
    String lastProblem = null;
    boolean toldIdle = false;
    RunRegistry runs = null; // connected at the first look that can
    try {
      do {
        Set<String> wanted;
        try {
          if (runs == null) {
            runs = new RunRegistry(AccumuloConnections.connect(cfg), cfg.metaTable());
          }
          wanted = wanted(cfg, runs, running.keySet());
        } catch (RuntimeException e) {
          String problem = "cannot read which applications to serve: " + e.getMessage();
          if (!problem.equals(lastProblem)) {
            say(progress, "Fluo %s: %s; trying again, what runs keeps running", role, problem);
            lastProblem = problem;
          }
          continue;
        }
        for (var it = running.entrySet().iterator(); it.hasNext(); ) {
          Map.Entry<String, FluoService> e = it.next();
          if (!wanted.contains(e.getKey())) {
            say(
                progress,
                "Fluo application %s is no longer served nor being brought up: stopping its %s",
                e.getKey(),
                role);
            stopQuietly(e.getValue(), role, e.getKey(), progress);
            say(progress, "Fluo %s of application %s stopped", role, e.getKey());
            it.remove();
          }
        }
        for (String app : wanted) {
          if (running.containsKey(app)) {
            continue;
          }
          try {
            WebindexApp.requireThisVersion(cfg, app);
            FluoConfiguration fc = WebindexApp.connection(cfg, app);
            if (role == Role.WORKER) {
              workerSettings(fc, worker);
            }
            FluoService service =
                role == Role.WORKER ? FluoFactory.newWorker(fc) : FluoFactory.newOracle(fc);
            service.start();
            running.put(app, service);
            lastProblem = null;
            say(progress, "Fluo %s of application %s running", role, app);
          } catch (RuntimeException e) {
            String problem = "cannot start the " + role + " of " + app + ": " + e.getMessage();
            if (!problem.equals(lastProblem)) {
              say(progress, "Fluo %s: %s; trying again", role, problem);
              lastProblem = problem;
            }
          }
        }
        if (running.isEmpty() && !toldIdle) {
          say(
              progress,
              "Fluo %s: no application to serve yet (none is initialised): waiting for fluo-init"
                  + " or reconcile",
              role);
          toldIdle = true;
        } else if (!running.isEmpty()) {
          toldIdle = false;
        }
      } while (!stop.await(FOLLOW_INTERVAL.toMillis()));
    } finally {
      for (Map.Entry<String, FluoService> e : running.entrySet()) {
        say(progress, "stopping the Fluo %s of application %s", role, e.getKey());
        stopQuietly(e.getValue(), role, e.getKey(), progress);
        say(progress, "Fluo %s of application %s stopped", role, e.getKey());
      }
    }
  }

  /**
   * The applications a following service serves now: the served one and the cut-over's target, each
   * only while the registry does not record it as being (re)initialised; one it does not run yet
   * only once its ZooKeeper state is initialised (asked only then: the look runs every second).
   */
  static Set<String> wanted(WebindexConfig cfg, RunRegistry runs, Set<String> running) {
    Set<String> wanted = new LinkedHashSet<>();
    ServedState state = ServedState.read(runs, cfg);
    wanted.add(state.app());
    state.cutover().ifPresent(t -> wanted.add(t.app()));
    wanted.removeIf(
        app ->
            runs.app(app).map(a -> a.state() != RunRegistry.AppState.READY).orElse(false)
                || (!running.contains(app) && !initialised(cfg, app)));
    return wanted;
  }

  private static boolean initialised(WebindexConfig cfg, String app) {
    try (AppZooKeeper zk = new AppZooKeeper(WebindexApp.connection(cfg, app))) {
      return zk.initialized();
    }
  }

  private static void stopQuietly(
      FluoService service, Role role, String app, PrintWriter progress) {
    try {
      service.stop();
    } catch (RuntimeException e) {
      say(
          progress,
          "Fluo %s of application %s did not stop cleanly: %s",
          role,
          app,
          e.getMessage());
    }
  }

  private static void workerSettings(FluoConfiguration fc, WorkerOptions o) {
    fc.setWorkerThreads(o.threads());
    int max = (int) Math.min(Integer.MAX_VALUE, o.maxScanInterval().toMillis());
    fc.setProperty(FluoConfigurationImpl.NTFY_FINDER_MAX_SLEEP_TIME_PROP, max);
    fc.setProperty(
        FluoConfigurationImpl.NTFY_FINDER_MIN_SLEEP_TIME_PROP, Math.min(MIN_SCAN_INTERVAL_MS, max));
  }

  private static FluoConfiguration prepare(WebindexConfig cfg, String app) {
    requireSilencedConfigurationPrint();
    application(cfg, Optional.of(app));
    WebindexApp.requireThisVersion(cfg, app);
    // the connection and the password (registered for the exporter); Fluo merges the
    // application's shared configuration from ZooKeeper over it
    return WebindexApp.connection(cfg, app);
  }

  private static void run(
      WebindexConfig cfg,
      String app,
      String what,
      FluoService service,
      LoadTool.StopSignal stop,
      PrintWriter progress)
      throws InterruptedException {
    AutoCloseable metrics = ServiceMetrics.start(cfg, progress);
    try {
      runStarted(cfg, app, what, service, stop, progress);
    } finally {
      ServiceMetrics.stop(metrics);
    }
  }

  private static void runStarted(
      WebindexConfig cfg,
      String app,
      String what,
      FluoService service,
      LoadTool.StopSignal stop,
      PrintWriter progress)
      throws InterruptedException {
    service.start();
    try {
      say(
          progress,
          "Fluo %s of application %s running (ZooKeeper %s/fluo); stop it with Ctrl-C or SIGTERM",
          what,
          app,
          cfg.zookeepers());
      Connector conn = AccumuloConnections.connect(cfg);
      boolean told = false;
      while (!stop.await(SERVED_CHECK.toMillis())) {
        String served = currentAppOrNull(cfg, conn);
        if (!told && served != null && !served.equals(app)) {
          say(
              progress,
              "Fluo application %s now maintains the served table (a cut-over): once its own"
                  + " oracle and workers run, stop this %s of %s",
              served,
              what,
              app);
          told = true;
        }
      }
    } finally {
      say(progress, "stopping the Fluo %s of application %s", what, app);
      service.stop();
      say(progress, "Fluo %s of application %s stopped", what, app);
    }
  }

  private static String currentAppOrNull(WebindexConfig cfg, Connector conn) {
    try {
      return WebindexApp.currentApp(cfg, conn);
    } catch (RuntimeException e) {
      // Accumulo unreachable for a moment: the service itself retries, look again later
      return null;
    }
  }

  /** {@link #silenceConfigurationPrint()}, refusing to go on where the logger stays at INFO. */
  private static void requireSilencedConfigurationPrint() {
    if (!silenceConfigurationPrint()) {
      throw new StoreException(
          "the logging configuration lets Fluo print the application's configuration, the"
              + " Accumulo password included, at INFO: set the level of logger "
              + CONFIGURATION_LOGGER
              + " to WARN");
    }
  }

  /**
   * Raises Fluo's configuration-print logger to WARN, so that a starting service does not log the
   * merged configuration with the password. Returns whether that logger is off for INFO now. The
   * level is set through the log4j 1 API (reload4j, the binding of {@code bin/webindex} and of
   * Hadoop 3.3) when it is present, by reflection so that this module does not depend on a binding.
   */
  public static boolean silenceConfigurationPrint() {
    try {
      Class<?> loggerClass = Class.forName("org.apache.log4j.Logger");
      Class<?> levelClass = Class.forName("org.apache.log4j.Level");
      Object logger =
          loggerClass.getMethod("getLogger", String.class).invoke(null, CONFIGURATION_LOGGER);
      Object warn = levelClass.getField("WARN").get(null);
      loggerClass.getMethod("setLevel", levelClass).invoke(logger, warn);
    } catch (ReflectiveOperationException | LinkageError e) {
      // another binding: its configuration must keep the logger above INFO (checked below)
    }
    return !LoggerFactory.getLogger(CONFIGURATION_LOGGER).isInfoEnabled();
  }

  private static void say(PrintWriter progress, String format, Object... args) {
    if (progress != null) {
      progress.printf(format + "%n", args);
      progress.flush();
    }
  }
}
