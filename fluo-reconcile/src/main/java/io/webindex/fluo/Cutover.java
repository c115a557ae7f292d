package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.RunTables;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Starting the live side from a batch run: {@code fluo-init} (into the configured application) and
 * {@code reconcile} (one application per run). Both start an application from the run's seed (or
 * resume the one already started from it), catch it up with the batches newer than the run's
 * snapshot, and only then make the run's table and that application the served ones, in one
 * compare-and-set. Every step before the switch leaves the served table and the application that
 * maintains it as they were, and a repeat of the same call resumes where the last one stopped.
 *
 * <p>Safety rules: a table that an application already maintained is never seeded again (its
 * content is no longer the run's result); such a run is resumed with its own application, or
 * refused. The served application is never re-initialised without {@code force}.
 */
public final class Cutover {
  /** What to do. */
  public record Options(
      String runId,
      String app,
      boolean embedded,
      boolean force,
      boolean retention,
      Duration workerWait) {}

  /**
   * What happened. {@code caughtUp} is what the catch-up applied, null when none ran (no batch was
   * pending for an application running elsewhere, or it waits for its processes).
   */
  public record Result(
      RunRecord run,
      String app,
      boolean resumed,
      long appliedAfter,
      boolean served,
      RunRegistry.Served now,
      String previousTable,
      String previousApp,
      List<String> dropped,
      String waiting,
      BatchApplier.Result caughtUp) {}

  /** How long a cut-over without {@code --embedded} waits for the application's workers. */
  public static final Duration WORKER_WAIT = Duration.ofSeconds(20);

  /** Runs left {@code RUNNING} this long are taken for abandoned by the retention. */
  public static final Duration RUNNING_GRACE = Duration.ofHours(24);

  private final WebindexConfig cfg;
  private final Configuration hadoop;
  private final PrintWriter progress;

  public Cutover(WebindexConfig cfg, Configuration hadoop, PrintWriter progress) {
    this.cfg = cfg;
    this.hadoop = hadoop;
    this.progress = progress;
  }

  /** The application {@code reconcile} starts for a run. */
  public static String reconcileApp(WebindexConfig cfg, String runId) {
    return cfg.fluoApp() + "_" + runId;
  }

  public Result run(Options o) throws IOException {
    Connector conn = AccumuloConnections.connect(cfg);
    RunRegistry runs = new RunRegistry(conn, cfg.metaTable()).ensureTable();
    RunRecord run =
        runs.get(o.runId())
            .orElseThrow(
                () -> new StoreException("no run " + o.runId() + " in " + cfg.metaTable()));
    if (run.status() != RunRecord.Status.SUCCEEDED) {
      throw new StoreException("run " + o.runId() + " did not succeed (" + run.status() + ")");
    }
    if (!conn.tableOperations().exists(run.table())) {
      throw new StoreException(
          "the table of run " + o.runId() + " (" + run.table() + ") was dropped");
    }
    // the served pointer as this cut-over found it: the switch happens only if it is unchanged
    ServedState found = ServedState.read(runs, cfg);
    RunRegistry.ServedVersion start = found.version();
    Optional<RunRegistry.Served> before = found.served();
    String previousTable = before.map(RunRegistry.Served::table).orElse("");
    String previousApp = found.app();
    String app = o.app();
    boolean resume = resumable(runs, run, app);
    if (!resume) {
      // an application of the run that maintains its table may run under another name (the
      // run was served through fluo-init, or reconciled before): resume that one
      for (RunRegistry.FluoApp a : runs.apps()) {
        if (!a.name().equals(app) && resumable(runs, run, a.name())) {
          app = a.name();
          resume = true;
        }
      }
    }
    if (!resume) {
      boolean servedApp = before.isPresent() && previousApp.equals(app);
      if ((servedApp || WebindexApp.exists(cfg, app)) && !o.force() && !halfMade(runs, app)) {
        throw new StoreException(
            "Fluo application "
                + app
                + " exists"
                + (servedApp ? " and maintains the served table " + previousTable : "")
                + "; nothing was changed. Re-initialising it discards its state: add --force to do"
                + " that, or use `reconcile --run "
                + o.runId()
                + "` to start a new application beside it");
      }
      refuseRunningProcesses(app);
      WebindexApp.initializeFromRun(cfg, run, hadoop, app);
      say(
          "Fluo application %s initialised from run %s (snapshot %d)",
          app, run.runId(), run.snapshot());
    } else {
      say("resuming Fluo application %s of run %s", app, run.runId());
    }

    boolean alreadyServed =
        before.isPresent()
            && before.get().table().equals(run.table())
            && before.get().fluoApp().equals(app);
    if (!alreadyServed) {
      // the Fluo services that follow the served pointer serve this application from now on too,
      // so that its catch-up runs on them, and the retention keeps it
      runs.setCutoverTarget(
          new RunRegistry.CutoverTarget(app, run.runId(), run.table(), Instant.now()));
    }
    long newest = newestBatch();
    CatchUp c =
        catchUp(
            app, run.snapshot(), o.embedded(), resume && !alreadyServed, newest, o.workerWait());
    if (c.waiting() != null) {
      return new Result(
          run,
          app,
          resume,
          c.applied(),
          false,
          before.orElse(null),
          previousTable,
          previousApp,
          List.of(),
          c.waiting(),
          c.batches());
    }
    RunRegistry.Served now;
    if (alreadyServed) {
      now = before.get();
    } else {
      now = switchTo(runs, run, app, start, previousTable);
      runs.clearCutoverTarget(app);
    }
    List<String> dropped = o.retention() ? applyRetention(runs) : List.of();
    return new Result(
        run,
        app,
        resume,
        c.applied(),
        !alreadyServed,
        now,
        previousTable,
        previousApp,
        dropped,
        null,
        c.batches());
  }

  /**
   * The switch: one compare-and-set against the served pointer as this cut-over found it. When
   * another cut-over (or a rollback) switched it in between, this one does not switch back over
   * that newer decision: it refuses, and a repeat of the command decides afresh.
   */
  private static RunRegistry.Served switchTo(
      RunRegistry runs,
      RunRecord run,
      String app,
      RunRegistry.ServedVersion start,
      String previousTable) {
    Optional<RunRegistry.Served> now;
    try {
      now = runs.serveIfUnchanged(run, app, start);
    } catch (StoreException e) {
      throw new StoreException(
          "the switch failed; "
              + (previousTable.isEmpty() ? "nothing" : previousTable)
              + " is still served: "
              + e.getMessage(),
          e);
    }
    if (now.isPresent()) {
      return now.get();
    }
    Optional<RunRegistry.Served> other = runs.served();
    if (other.isPresent()
        && other.get().table().equals(run.table())
        && other.get().fluoApp().equals(app)) {
      return other.get(); // a repeat of this cut-over switched meanwhile
    }
    throw new StoreException(
        "the served table changed while this cut-over caught up (another cut-over or a rollback"
            + " made "
            + other.map(x -> x.table() + " of run " + x.runId()).orElse("nothing")
            + " the served one): this one does not switch back over that newer decision. Nothing"
            + " was switched; run the command again if run "
            + run.runId()
            + " is still the one to serve");
  }

  /**
   * Before an application is (re)initialised: none of its oracles and workers may run, since
   * initialising clears the state they work on. Services that follow the served pointer never serve
   * an application while it initialises; services started with {@code --app} must be stopped.
   */
  private void refuseRunningProcesses(String app) {
    WebindexApp.Processes p = WebindexApp.processes(cfg, app);
    if (p.oracle() || p.workers() > 0) {
      throw new StoreException(
          "Fluo application "
              + app
              + " cannot be initialised while "
              + (p.oracle() ? "an oracle" + (p.workers() > 0 ? " and " : "") : "")
              + (p.workers() > 0 ? p.workers() + " worker(s)" : "")
              + " of it run: initialising clears the state they work on. Stop them (fluo-oracle"
              + " and fluo-worker processes of it), then run this command again; nothing was"
              + " changed");
    }
  }

  /** An application started from this run, whose initialisation completed and that still exists. */
  private boolean resumable(RunRegistry runs, RunRecord run, String app) {
    return runs.app(app)
            .filter(a -> a.runId().equals(run.runId()) && a.table().equals(run.table()))
            .filter(a -> a.state() == RunRegistry.AppState.READY)
            .isPresent()
        && WebindexApp.exists(cfg, app);
  }

  /** An application whose initialisation never completed: it never ran, so it may be cleared. */
  private static boolean halfMade(RunRegistry runs, String app) {
    return runs.app(app).map(a -> a.state() == RunRegistry.AppState.INITIALIZING).orElse(false);
  }

  private long newestBatch() throws IOException {
    List<RawPageStore.Batch> b = new RawPageStore(cfg.storeRoot(), hadoop).batches();
    return b.isEmpty() ? -1 : b.get(b.size() - 1).seq();
  }

  private record CatchUp(long applied, BatchApplier.Result batches, String waiting) {}

  private CatchUp catchUp(
      String app, long snapshot, boolean embedded, boolean mayHaveWork, long newest, Duration wait)
      throws IOException {
    // loading through an application of another version would write this version's format into it
    WebindexApp.requireThisVersion(cfg, app);
    if (embedded) {
      try (FluoSession fluo = FluoSession.embedded(cfg, app, FluoSession.WORKER_THREADS)) {
        BatchApplier.Result r =
            new BatchApplier(fluo.client(), cfg, hadoop, progress).applyPending(null);
        fluo.awaitIdle();
        return new CatchUp(r.appliedAfter(), r, null);
      }
    }
    if (!mayHaveWork && newest <= snapshot) {
      // no batch after the run's snapshot, and nothing in flight that the switch would have to
      // wait for: a new application (the seed sets no notification), or the one served already
      return new CatchUp(snapshot, null, null);
    }
    // a Fluo client needs the oracle for every read: never block on one that does not run
    WebindexApp.Processes p = FluoSession.awaitProcesses(cfg, app, wait);
    if (!p.oracle() || p.workers() == 0) {
      return new CatchUp(
          -1,
          null,
          String.format(
              "Fluo application %s must catch up to batch %d (its run's snapshot is %d), and %s:"
                  + " %s, then run this command again: it resumes from here. The served table is"
                  + " unchanged.",
              app,
              newest,
              snapshot,
              !p.oracle() ? "no oracle runs" : "no worker runs",
              FluoSession.startHint(app)));
    }
    try (FluoSession fluo = FluoSession.running(cfg, app)) {
      BatchApplier.Result r =
          new BatchApplier(fluo.client(), cfg, hadoop, progress).applyPending(null);
      // the switch must not come before the catch-up is in the table: wait for its workers, as
      // long again as for the processes, counted from here (applying a long catch-up's batches
      // is this command's own work, not the workers' wait)
      Idleness.Result idle = fluo.awaitIdle(wait);
      if (!idle.idle()) {
        return new CatchUp(
            r.appliedAfter(),
            r,
            String.format(
                "Fluo application %s applied batches up to %d, but its workers have not finished"
                    + " exporting them to %s (%d notifications pending after %d s): run this"
                    + " command again, with a longer --wait if the workers are slow; it resumes"
                    + " from here. The served table is unchanged.",
                app,
                r.appliedAfter(),
                WebindexApp.fluoTable(cfg, app),
                idle.pending(),
                idle.waited().toSeconds()));
      }
      say(
          "Fluo application %s caught up to batch %d and exported it (waited %d ms for its"
              + " workers)",
          app, r.appliedAfter(), idle.waited().toMillis());
      return new CatchUp(r.appliedAfter(), r, null);
    }
  }

  /**
   * Drops what the retention expires: query tables, work directories (with their seeds) and Fluo
   * applications of old runs and of runs abandoned while {@code RUNNING}. Returns what it dropped.
   */
  public List<String> applyRetention(RunRegistry runs) throws IOException {
    RunRegistry.Expired expired = runs.expired(cfg.retentionRuns(), RUNNING_GRACE, Instant.now());
    Connector conn = AccumuloConnections.connect(cfg);
    List<String> dropped = new ArrayList<>();
    for (RunRegistry.FluoApp a : expired.apps()) {
      try {
        WebindexApp.remove(cfg, runs, a.name());
        dropped.add("Fluo application " + a.name());
      } catch (RuntimeException e) {
        // e.g. a worker of it still runs: it is tried again by the next retention
        say("retention: could not remove Fluo application %s: %s", a.name(), e.getMessage());
      }
    }
    for (RunRecord r : expired.runs()) {
      dropped.addAll(RunTables.dropAll(conn, r.table()));
      if (!r.workDir().isEmpty()) {
        Path work = new Path(r.workDir());
        FileSystem fs = work.getFileSystem(hadoop);
        if (fs.exists(work)) {
          fs.delete(work, true);
          dropped.add(work.toString());
        }
      }
      runs.markDropped(r, Instant.now());
    }
    return dropped;
  }

  private void say(String format, Object... args) {
    if (progress != null) {
      progress.printf(format + "%n", args);
      progress.flush();
    }
  }
}
