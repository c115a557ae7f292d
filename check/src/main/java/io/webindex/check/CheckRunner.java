package io.webindex.check;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.mr.CheckJob;
import io.webindex.check.mr.FindingLines;
import io.webindex.check.scan.CompanionChecks;
import io.webindex.check.scan.FileCheck;
import io.webindex.check.scan.ScannerCheck;
import io.webindex.check.scan.SnapshotExclusions;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.QuerySchema;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.StoreException;
import io.webindex.store.mapreduce.Jobs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a consistency check between a batch run's table (expected) and the Fluo-maintained table
 * (actual): in one process, reading both tables' files ({@link FileCheck}) or through two scanners,
 * or as a MapReduce job over row ranges for tables that are too large for one process. Both skip
 * what batches newer than the run's snapshot may have changed ({@link SnapshotExclusions}).
 */
public final class CheckRunner {
  private static final Logger log = LoggerFactory.getLogger(CheckRunner.class);

  /** How to run the comparison. */
  public enum Mode {
    /**
     * SCANNER below {@link #FILES_FROM} cells; FILES up to {@link #SCANNER_LIMIT} cells, and at any
     * larger size when MapReduce would run on the local job runner (SCANNER where it cannot read
     * the files); else MAPREDUCE.
     */
    AUTO,
    /** In this process, both tables read through their tablet servers. */
    SCANNER,
    /** In this process, both tables' files read here from clones of them ({@link FileCheck}). */
    FILES,
    /** A MapReduce job over row ranges. */
    MAPREDUCE
  }

  /**
   * Tables with up to this many cells (the run's count) are compared in one process by AUTO: the
   * one-process check's memory does not grow with the tables (its URI facts are joined in sorted
   * runs on disk), and it reads its tables' files at more than a million cells a second on two
   * cores, faster than the job (docs/performance.md); beyond this a cluster's map tasks in parallel
   * are worth their start. Without a cluster (the local job runner) there are none: the job would
   * read both tables through the tablet servers on the same cores, about half as fast, so AUTO
   * stays in this process at any size.
   */
  public static final long SCANNER_LIMIT = 50_000_000;

  /**
   * Runs of fewer query cells than this are compared through the tablet servers by AUTO (SCANNER):
   * the files mode's clones (up to six tables flushed, cloned, taken offline and deleted) cost the
   * master and the tablet servers a second or two whatever the tables' size, and below about this
   * size the scanners read the cells in no more time than that (docs/performance.md).
   */
  public static final long FILES_FROM = 1_000_000;

  /**
   * What AUTO runs for a run of {@code cells} query cells, its MapReduce jobs on the local job
   * runner ({@code local}, {@link Jobs#runLocally}) or on a cluster.
   */
  static Mode auto(long cells, boolean local) {
    return auto(cells, local, FILES_FROM);
  }

  static Mode auto(long cells, boolean local, long filesFrom) {
    if (cells < filesFrom) {
      return Mode.SCANNER;
    }
    return cells <= SCANNER_LIMIT || local ? Mode.FILES : Mode.MAPREDUCE;
  }

  private final WebindexConfig cfg;
  private final Connector conn;
  private final Configuration hadoop;
  private int samplesPerKind = 20;
  private long filesFrom = FILES_FROM;
  private Consumer<? super Job> beforeSubmit = job -> {};
  private long inFlightViolations;

  public CheckRunner(WebindexConfig cfg, Connector conn, Configuration hadoop) {
    this.cfg = cfg;
    this.conn = conn;
    this.hadoop = hadoop;
  }

  /**
   * The live table's invariant violations the last {@link #run} did not count because they lay in
   * cells of batches after the applied one (work that may have been in flight while it read).
   */
  public long inFlightViolations() {
    return inFlightViolations;
  }

  public CheckRunner samplesPerKind(int n) {
    this.samplesPerKind = n;
    return this;
  }

  /** AUTO's {@link #FILES_FROM} for this runner: tests of the files mode on small tables. */
  CheckRunner filesFrom(long cells) {
    this.filesFrom = cells;
    return this;
  }

  /**
   * Shows each MapReduce job to {@code observer} just before it is submitted (its secrets already
   * stripped): for tests and tooling that inspect what a job carries.
   */
  public CheckRunner beforeSubmit(Consumer<? super Job> observer) {
    this.beforeSubmit = observer;
    return this;
  }

  /**
   * Compares the run's table with {@code actualTable}.
   *
   * @param applied the highest batch the Fluo application applied (batches newer than the run's
   *     snapshot up to it are excluded); the snapshot itself when Fluo was paused there
   */
  public CheckReport run(RunRecord run, String actualTable, long applied, Mode mode)
      throws Exception {
    return run(run, actualTable, applied, applied, mode);
  }

  /**
   * As {@link #run(RunRecord, String, long, Mode)}, skipping the cells of batches up to {@code
   * excludeUpTo} (at least {@code applied}): batches a loader that runs during the comparison may
   * apply.
   */
  public CheckReport run(
      RunRecord run, String actualTable, long applied, long excludeUpTo, Mode mode)
      throws Exception {
    if (run.status() != RunRecord.Status.SUCCEEDED) {
      throw new StoreException(
          "run "
              + run.runId()
              + " did not succeed ("
              + run.status()
              + "): nothing to check against");
    }
    if (!conn.tableOperations().exists(actualTable)) {
      throw new StoreException("no table " + actualTable);
    }
    if (applied < run.snapshot()) {
      throw new StoreException(
          "the Fluo application has applied batches up to "
              + applied
              + " only, older than run "
              + run.runId()
              + "'s snapshot "
              + run.snapshot()
              + ": load up to the snapshot first");
    }
    Instant started = Instant.now();
    Exclusions skip =
        SnapshotExclusions.compute(
            conn,
            run.table(),
            new RawPageStore(cfg.storeRoot(), hadoop),
            run.snapshot(),
            Math.max(applied, excludeUpTo),
            cfg.readLimits());
    CheckAccumulator acc = new CheckAccumulator(samplesPerKind);
    if (excludeUpTo > applied) {
      // batches the loader may apply while the tables are read: the live table's cells they touch
      // may be half-way through the observers, so their invariants are not held against it
      acc.ignoreInFlight(
          CheckAccumulator.ACTUAL,
          SnapshotExclusions.compute(
              conn,
              actualTable,
              new RawPageStore(cfg.storeRoot(), hadoop),
              applied,
              excludeUpTo,
              cfg.readLimits()));
    }
    Mode m = mode;
    if (m == Mode.AUTO) {
      m =
          auto(
              run.counters().getOrDefault("write.QUERY_CELLS", 0L),
              Jobs.runLocally(hadoop),
              filesFrom);
    }
    if (m == Mode.FILES) {
      CheckProgress progress = CheckProgress.stderr(acc);
      try {
        // the history and frontier tables from their files too
        FileCheck.runWithCompanions(
            conn, hadoop, run.table(), actualTable, cfg.historySettings(), skip, acc, progress);
        progress.done();
      } catch (FileCheck.Unavailable e) {
        if (mode != Mode.AUTO) {
          throw new StoreException(
              "cannot read the tables' files: " + e.getMessage() + "; use --mode scanner", e);
        }
        log.warn(
            "check: cannot read the tables' files ({}): comparing them through the tablet"
                + " servers instead (mode scanner)",
            e.getMessage());
        m = Mode.SCANNER;
      }
    }
    if (m == Mode.SCANNER) {
      CheckProgress progress = CheckProgress.stderr(acc);
      ScannerCheck.run(conn, run.table(), actualTable, skip, acc, progress);
      progress.done();
    } else if (m == Mode.MAPREDUCE) {
      mapreduce(run, actualTable, skip, acc);
    }
    if (m != Mode.FILES) {
      // the files mode compared them from their files; here, through scanners in this process
      CompanionChecks.run(conn, run.table(), actualTable, cfg.historySettings(), skip, acc);
    }
    inFlightViolations = acc.inFlightViolations();
    return new CheckReport(
        run.table(),
        actualTable,
        run.runId(),
        run.snapshot(),
        applied,
        m.name().toLowerCase(),
        started,
        Instant.now(),
        acc.ranges(),
        acc.invariants(),
        null,
        acc.samples());
  }

  /**
   * The MapReduce check. Its files (the exclusions, the job's output and task errors) live in a
   * fresh owner-only directory under the run's work directory, deleted on every path; the tasks get
   * the Accumulo password from the job's credentials.
   */
  private void mapreduce(RunRecord run, String actualTable, Exclusions skip, CheckAccumulator acc)
      throws Exception {
    Path dir =
        new Path(
            new Path(run.workDir()),
            "check-"
                + System.currentTimeMillis()
                + "-"
                + UUID.randomUUID().toString().substring(0, 8));
    FileSystem fs = dir.getFileSystem(hadoop);
    try {
      if (!fs.mkdirs(dir, new FsPermission((short) 0700))) {
        throw new StoreException("cannot create the check's directory " + dir);
      }
      Path excl = null;
      if (!skip.isEmpty()) {
        excl = new Path(dir, "exclusions");
        try (OutputStream out = fs.create(excl, false)) {
          StringBuilder sb = new StringBuilder();
          skip.uris().forEach(u -> sb.append("u\t").append(u).append('\n'));
          skip.domains().forEach(d -> sb.append("d\t").append(d).append('\n'));
          out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
      }
      Path out = new Path(dir, "out");
      SortedSet<String> splits = splits(run.table(), actualTable);
      Job job =
          CheckJob.create(
              hadoop,
              cfg,
              conn,
              run.table(),
              actualTable,
              excl,
              boundaries(splits),
              splits,
              reducers(splits),
              out,
              samplesPerKind);
      Jobs.label(job, "check", run.runId(), "check");
      try {
        Jobs.run(job, new Path(dir, "task-errors"), beforeSubmit);
      } catch (Jobs.JobFailed e) {
        // not the operator's to fix by changing the command: an internal failure (exit 4)
        throw new IllegalStateException("the check job failed: " + e.getMessage(), e);
      }
      CheckJob.addCounters(job, acc);
      Path samples = new Path(out, CheckJob.OUT_SAMPLES);
      if (fs.exists(samples)) {
        for (FileStatus st : fs.listStatus(samples)) {
          try (InputStream in = fs.open(st.getPath())) {
            FindingLines.fromLines(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                .forEach(acc::addSample);
          }
        }
      }
    } finally {
      try {
        if (fs.exists(dir) && !fs.delete(dir, true)) {
          log.warn("could not delete the check's directory {}", dir);
        }
      } catch (IOException e) {
        log.warn("could not delete the check's directory {}: {}", dir, e.toString());
      }
    }
  }

  /** The most reduce tasks a check job gets. */
  static final int MAX_REDUCERS = 8;

  /** The split points of the tables, together. */
  SortedSet<String> splits(String... tables)
      throws AccumuloException, AccumuloSecurityException, TableNotFoundException {
    TreeSet<String> splits = new TreeSet<>();
    for (String t : tables) {
      for (Text split : conn.tableOperations().listSplits(t)) {
        splits.add(split.toString());
      }
    }
    return splits;
  }

  /**
   * Reduce tasks: one per tablet of the tables compared ({@code splits}: their split points
   * together), at most {@link #MAX_REDUCERS}. The reducers join one small fact per URI and part, so
   * their work grows with the tables, not with the row-range prefixes the map tasks add: a check of
   * two single-tablet tables gets one reducer (each reduce task is a container of its own on YARN).
   */
  static int reducers(SortedSet<String> splits) {
    return Math.min(MAX_REDUCERS, splits.size() + 1);
  }

  /**
   * Row ranges: the tables' split points ({@code splits}) and the row-range prefixes. A map task
   * takes the ranges between two consecutive split points, so the prefixes cut its work into ranges
   * but add no task.
   */
  static List<String> boundaries(SortedSet<String> splits) {
    TreeSet<String> rows = new TreeSet<>(QuerySchema.ROW_RANGES);
    rows.addAll(splits);
    return new ArrayList<>(rows);
  }
}
