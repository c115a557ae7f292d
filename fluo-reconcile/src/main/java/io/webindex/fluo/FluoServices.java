package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.StoreException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import org.apache.accumulo.core.client.Connector;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.service.FluoService;
import org.apache.fluo.core.client.FluoAdminImpl;
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
  public static final Duration DEFAULT_MAX_SCAN_INTERVAL = Duration.ofSeconds(10);

  /** How often a running service looks whether its application is still the served one. */
  static final Duration SERVED_CHECK = Duration.ofSeconds(30);

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
    try (FluoAdminImpl admin = new SecretFreeAdmin(WebindexApp.connection(cfg, name))) {
      if (!admin.zookeeperInitialized()) {
        throw new StoreException(
            "Fluo application "
                + name
                + (app.isPresent() ? "" : " (the served one)")
                + " is not initialised: `fluo-init --run ID` or `reconcile --run ID` initialise"
                + " one");
      }
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
    fc.setWorkerThreads(o.threads());
    int max = (int) Math.min(Integer.MAX_VALUE, o.maxScanInterval().toMillis());
    fc.setProperty(FluoConfigurationImpl.NTFY_FINDER_MAX_SLEEP_TIME_PROP, max);
    fc.setProperty(
        FluoConfigurationImpl.NTFY_FINDER_MIN_SLEEP_TIME_PROP,
        Math.min(FluoConfigurationImpl.NTFY_FINDER_MIN_SLEEP_TIME_DEFAULT, max));
    run(cfg, app, "worker", FluoFactory.newWorker(fc), stop, progress);
  }

  private static FluoConfiguration prepare(WebindexConfig cfg, String app) {
    if (!silenceConfigurationPrint()) {
      throw new StoreException(
          "the logging configuration lets Fluo print the application's configuration, the"
              + " Accumulo password included, at INFO: set the level of logger "
              + CONFIGURATION_LOGGER
              + " to WARN");
    }
    application(cfg, Optional.of(app));
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
