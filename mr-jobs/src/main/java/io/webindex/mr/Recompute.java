package io.webindex.mr;

import io.webindex.core.Version;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.read.ReadCounter;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.mr.io.CellKey;
import io.webindex.mr.io.CellValue;
import io.webindex.mr.io.RefWritable;
import io.webindex.seed.FluoSeed;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.BulkImport;
import io.webindex.store.FrontierTables;
import io.webindex.store.HistoryTables;
import io.webindex.store.QueryTables;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.RunTables;
import io.webindex.store.StoreException;
import io.webindex.store.mapreduce.Jobs;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.data.Range;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recompute of one run, as {@link RecomputeTool} starts it: the batches of the snapshot, three
 * MapReduce jobs (latest versions, per URI, sort and write RFiles), the fresh pre-split query
 * table, history table and frontier table and their bulk imports, the run's record from RUNNING to
 * SUCCEEDED or FAILED; a run id used before is cleaned up first when its record allows it.
 */
final class Recompute {
  private static final Logger log = LoggerFactory.getLogger(Recompute.class);

  private final Configuration hadoop;
  private final PrintStream out;
  private final Consumer<? super Job> beforeSubmit;

  Recompute(Configuration hadoop, PrintStream out, Consumer<? super Job> beforeSubmit) {
    this.hadoop = hadoop;
    this.out = out;
    this.beforeSubmit = beforeSubmit;
  }

  /**
   * The batches to read, 0 to the snapshot: to {@code requested}, which must be there and complete
   * with every batch before it; by default to the last of the complete batches from 0 on (the first
   * one missing or incomplete and every batch after it wait for a later run, and it says so).
   *
   * @throws UserError when there is no such batch
   */
  private static List<RawPageStore.Batch> snapshotBatches(RawPageStore store, Long requested)
      throws IOException {
    RawPageStore.Pending p = store.pending(-1);
    List<RawPageStore.Batch> ready = p.ready();
    if (ready.isEmpty() && p.waiting() == null) {
      throw new UserError(store.noBatches());
    }
    long last = ready.isEmpty() ? -1 : ready.get(ready.size() - 1).seq();
    if (requested == null) {
      if (ready.isEmpty()) {
        throw new UserError("no complete batch to read: " + p.waiting().message());
      }
      if (p.waiting() != null) {
        System.err.println("recompute: snapshot " + last + ": " + p.waiting().message());
      }
      return ready;
    }
    if (requested > last) {
      throw new UserError(
          "snapshot "
              + requested
              + " needs every batch from 0 to "
              + requested
              + ", complete: "
              + (p.waiting() != null
                  ? p.waiting().message()
                  : "batch " + (last + 1) + " is not there (the last batch is " + last + ")"));
    }
    return ready.stream().filter(b -> b.seq() <= requested).toList();
  }

  /**
   * Recomputes run {@code runId} at snapshot {@code requestedSnapshot} (null: the last complete
   * batch); with {@code restart} over a RUNNING record of it.
   *
   * @return the SUCCEEDED run's record, or empty when it failed (recorded FAILED, reported on
   *     stderr)
   * @throws UserError for what an operator can fix
   */
  Optional<RunRecord> run(WebindexConfig cfg, Long requestedSnapshot, String runId, boolean restart)
      throws Exception {
    Configuration conf = new Configuration(hadoop);
    if (cfg.storeRoot().isEmpty()) {
      throw new UserError("no raw page store: set " + WebindexConfig.STORE_ROOT);
    }
    if (cfg.workDir().isEmpty()) {
      throw new UserError("no work directory: set " + WebindexConfig.WORK_DIR);
    }
    RawPageStore store = new RawPageStore(cfg.storeRoot(), conf);
    Path batchesDir = store.batchesDir();
    List<RawPageStore.Batch> read = snapshotBatches(store, requestedSnapshot);
    if (read.isEmpty()) {
      throw new UserError("no batch <= snapshot " + requestedSnapshot + " under " + batchesDir);
    }
    long snapshot = read.get(read.size() - 1).seq();
    List<Path> inputs = new ArrayList<>();
    List<String> inputNames = new ArrayList<>();
    for (RawPageStore.Batch b : read) {
      inputs.add(b.dir());
      inputNames.add(b.dir().toString());
    }
    Path runDir = new Path(new Path(cfg.workDir(), "runs"), runId);
    FileSystem workFs = runDir.getFileSystem(conf);
    runDir = workFs.makeQualified(runDir);
    Connector conn = AccumuloConnections.connect(cfg);
    String table = cfg.runTable(runId);
    RunRegistry registry = new RunRegistry(conn, cfg.metaTable());
    clearEarlierAttempt(conn, registry, runId, table, workFs, runDir, restart);
    registry.ensureTable();
    Path sortedOut = new Path(runDir, "sorted");
    Instant started = Instant.now();
    RunRecord record =
        new RunRecord(
            runId,
            RunRecord.Status.RUNNING,
            snapshot,
            table,
            started,
            null,
            inputNames,
            Map.of(),
            new Path(sortedOut, SortJob.OUT_FLUO).toString(),
            runDir.toString(),
            runningMessage(),
            cfg.fluoBuckets(),
            Version.current().webindex());
    registry.put(record);
    log.info("run {}: snapshot {}, {} batches, into {}", runId, snapshot, inputs.size(), table);
    Map<String, Long> counters = new TreeMap<>();
    boolean tableMayExist = false;
    try {
      // made here, so that a work directory that cannot be written fails with its own reason
      // (the job runner would fail the first job's setup, and report no cause)
      if (!workFs.mkdirs(runDir)) {
        throw new StoreException("cannot create the run's work directory " + runDir);
      }
      // the input's size sizes the local runner's buffers and job 1's sampling
      long inputBytes = SplitSampling.inputBytes(conf, inputs);
      LocalRunnerTuning.tune(conf, inputBytes);
      Splits splits =
          runJobs(
              conf,
              cfg,
              inputs,
              inputBytes,
              batchesDir,
              runDir,
              workFs,
              snapshot,
              counters,
              conn,
              registry.latestSucceeded(),
              started.toEpochMilli());

      SortedSet<Text> tableSplits = new TreeSet<>();
      for (byte[] s : splits.query()) {
        tableSplits.add(new Text(s));
      }
      SortedSet<Text> historySplits = new TreeSet<>();
      for (byte[] s : splits.uris()) {
        historySplits.add(new Text(s));
      }
      Instant importStart = Instant.now();
      tableMayExist = true; // from here on a failure drops the tables, also ones half created
      // the three tables are independent: each is created and gets its files at the same time as
      // the others (each step a FATE operation of its own, mostly waiting on the master)
      Path query = new Path(sortedOut, SortJob.OUT_QUERY);
      Path history = new Path(sortedOut, OUT_HISTORY);
      Path frontier = new Path(sortedOut, SortJob.OUT_FRONTIER);
      Path queryFailures = new Path(runDir, "failures");
      Path historyFailures = new Path(runDir, "history-failures");
      Path frontierFailures = new Path(runDir, "frontier-failures");
      inParallel(
          () -> {
            QueryTables.createFresh(conn, table, tableSplits);
            if (Jobs.testFault(conf, "import")) {
              log.warn("{}=import (a test setting): taking {} offline", Jobs.TEST_FAULT, table);
              conn.tableOperations().offline(table, true);
            }
            importIfAny(conn, conf, workFs, table, query, queryFailures);
          },
          () -> {
            HistoryTables.createFresh(conn, table, cfg.historySettings(), historySplits);
            importIfAny(
                conn, conf, workFs, HistorySchema.historyTable(table), history, historyFailures);
          },
          () -> {
            FrontierTables.createFresh(conn, table);
            importIfAny(
                conn,
                conf,
                workFs,
                FrontierSchema.frontierTable(table),
                frontier,
                frontierFailures);
          });
      counters.put("time.import.ms", Duration.between(importStart, Instant.now()).toMillis());
      counters.put("table.splits", (long) tableSplits.size());
      Instant finished = Instant.now();
      counters.put("time.total.ms", Duration.between(started, finished).toMillis());
      record = record.finish(RunRecord.Status.SUCCEEDED, finished, counters, "");
      registry.put(record);
      RunSummary.print(out, record);
      return Optional.of(record);
    } catch (Exception | Error e) {
      String what =
          e instanceof StoreException || e instanceof Jobs.JobFailed || e instanceof UserError
              ? e.getMessage()
              : e.toString();
      log.error(
          "run {} failed: {}",
          runId,
          what,
          e instanceof Jobs.JobFailed || e instanceof UserError ? null : e);
      if (tableMayExist) {
        try {
          RunTables.dropAll(conn, table);
        } catch (RuntimeException cleanup) {
          log.error("could not drop the half-built table {}: {}", table, cleanup.getMessage());
          what += "; the half-built table " + table + " could not be dropped: " + cleanup;
        }
      }
      try {
        registry.put(record.finish(RunRecord.Status.FAILED, Instant.now(), counters, what));
      } catch (RuntimeException recordFailed) {
        log.error("could not record run {} as FAILED: {}", runId, recordFailed.toString());
      }
      if (e instanceof UserError u) {
        throw u; // the input's fault, not a failure of the run: exit status 2
      }
      System.err.println(
          "recompute: run " + runId + " FAILED: " + what + " (nothing served was touched)");
      return Optional.empty();
    }
  }

  /** One table's part of the import: create it, then load its files. */
  private interface TableStep {
    void run() throws Exception;
  }

  /**
   * Runs {@code steps} at the same time and waits for all of them; the first failure is thrown (the
   * others' added to it as suppressed) once every step has ended.
   */
  private static void inParallel(TableStep... steps) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(steps.length);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (TableStep step : steps) {
        running.add(
            pool.submit(
                () -> {
                  step.run();
                  return null;
                }));
      }
      Exception first = null;
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Error err) {
            throw err;
          }
          Exception cause = e.getCause() instanceof Exception c ? c : e;
          if (first == null) {
            first = cause;
          } else {
            first.addSuppressed(cause);
          }
        }
      }
      if (first != null) {
        throw first;
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Bulk imports the RFiles in {@code files} into {@code table}, if the jobs wrote any. */
  private static void importIfAny(
      Connector conn, Configuration conf, FileSystem fs, String table, Path files, Path failures)
      throws IOException {
    if (fs.exists(files)) {
      BulkImport.importDirectory(conn, conf, table, files, failures);
    }
  }

  /** The history table's RFiles in {@code <runDir>/sorted}. */
  static final String OUT_HISTORY = "history";

  /** The split points of a run's tables: the URIs (history table) and their query-table rows. */
  record Splits(List<byte[]> uris, List<byte[]> query) {}

  /**
   * The three jobs of a run, each checked before the next: latest versions (and the URI samples),
   * per URI, sort and write; their RFiles end in {@code <runDir>/sorted} ({@code query}, {@code
   * history}, {@code frontier}, and the Fluo seed in {@code fluo}). The per-URI job also reads the
   * urc points of {@code previous}'s history table, if it is still there.
   *
   * @return the tables' split points
   */
  private Splits runJobs(
      Configuration conf,
      WebindexConfig cfg,
      List<Path> inputs,
      long inputBytes,
      Path batchesDir,
      Path runDir,
      FileSystem workFs,
      long snapshot,
      Map<String, Long> counters,
      Connector conn,
      Optional<RunRecord> previous,
      long startedMillis)
      throws Exception {
    Path latestOut = new Path(runDir, "latest");
    Path urisOut = new Path(runDir, "uris");
    Path sortedOut = new Path(runDir, "sorted");
    int tablets = cfg.recomputeTablets();
    Job latest =
        LatestJob.create(
            conf,
            cfg,
            batchesDir,
            inputs,
            latestOut,
            tablets,
            SplitSampling.sampleEvery(inputBytes, tablets));
    runJob(latest, "latest", counters, runDir);
    if (counters.getOrDefault("read." + ReadCounter.PAGES.name(), 0L) == 0) {
      // job 1 wrote no references, and job 2 would fail on its missing input
      throw new UserError(
          "no page accepted: "
              + counters.getOrDefault("read." + ReadCounter.RECORDS.name(), 0L)
              + " records, "
              + counters.getOrDefault("read." + ReadCounter.REJECTED.name(), 0L)
              + " rejected (samples in "
              + new Path(latestOut, LatestJob.OUT_REJECTS)
              + "; docs/input.md says what each reason means)");
    }

    // the query table's split points, from the URIs job 1 sampled: job 2 writes the rows of
    // each tablet in one reducer
    List<byte[]> uriSplits =
        SplitSampling.pick(
            SplitSampling.readSamples(workFs, new Path(latestOut, LatestJob.OUT_SAMPLES)), tablets);
    List<byte[]> querySplits = SplitSampling.pageRows(uriSplits);
    List<Path> uriInputs = new ArrayList<>();
    uriInputs.add(new Path(latestOut, LatestJob.OUT_REFS));
    if (previous.isPresent() && HistoryTables.exists(conn, previous.get().table())) {
      Instant t0 = Instant.now();
      Path urcPoints = new Path(runDir, "urc-previous");
      long points = writeUrcPoints(conn, previous.get().table(), workFs, urcPoints);
      counters.put("history.previous.urc.points", points);
      counters.put("time.urc.read.ms", Duration.between(t0, Instant.now()).toMillis());
      log.info(
          "carrying {} urc points of run {} ({})",
          points,
          previous.get().runId(),
          HistorySchema.historyTable(previous.get().table()));
      uriInputs.add(urcPoints);
    }
    Job uris =
        UriJob.create(
            conf,
            uriInputs,
            urisOut,
            uriSplits,
            cfg.fluoBuckets(),
            cfg.recomputeCompression(),
            new UriJob.History(cfg.historyVersions(), cfg.schedule(), startedMillis));
    runJob(uris, "uris", counters, runDir);
    // job 1's references were job 2's input and nothing reads them again (a failed run starts
    // over from the input): at 10M pages 22 GB of the work directory; samples and rejects stay
    deleteMatching(workFs, new Path(latestOut, LatestJob.OUT_REFS));

    List<Path> sortInputs = new ArrayList<>();
    sortInputs.add(writeResumePoint(workFs, new Path(runDir, "meta"), snapshot));
    Path cells = new Path(urisOut, UriJob.OUT_CELLS);
    if (workFs.exists(cells)) {
      sortInputs.add(cells);
    }
    Job sort =
        SortJob.create(
            conf,
            sortInputs,
            sortedOut,
            querySplits,
            cfg.fluoBuckets(),
            cfg.recomputeCompression());
    runJob(sort, "write", counters, runDir);
    // job 2's RFiles join job 3's: one directory of each table to import
    moveFiles(workFs, urisOut, new Path(sortedOut, SortJob.OUT_QUERY)); // its main output
    moveFiles(workFs, new Path(urisOut, UriJob.OUT_FLUO), new Path(sortedOut, SortJob.OUT_FLUO));
    moveFiles(
        workFs,
        new Path(urisOut, UriJob.OUT_FLUO_HISTORY),
        new Path(sortedOut, SortJob.OUT_FLUO),
        "hist-");
    moveFiles(workFs, new Path(urisOut, UriJob.OUT_HISTORY), new Path(sortedOut, OUT_HISTORY), "");
    writeSeedVersion(workFs, new Path(sortedOut, SortJob.OUT_FLUO));
    return new Splits(uriSplits, querySplits);
  }

  /**
   * Writes the urc points of {@code previousTable}'s history table as an input of the per-URI job:
   * one record per URI, keyed to reach the URI's reduce group last; its tablets read in parallel
   * (one scanner and one file each, at most as many at a time as there are cores).
   *
   * @return the number of points written
   */
  private static long writeUrcPoints(Connector conn, String previousTable, FileSystem fs, Path dir)
      throws Exception {
    List<Range> tablets = HistoryTables.tabletRanges(conn, previousTable);
    int threads = Math.max(1, Math.min(tablets.size(), Runtime.getRuntime().availableProcessors()));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> parts = new ArrayList<>();
      for (int i = 0; i < tablets.size(); i++) {
        Range range = tablets.get(i);
        Path file = new Path(dir, String.format(java.util.Locale.ROOT, "part-r-%05d", i));
        parts.add(pool.submit(() -> writeUrcPoints(conn, previousTable, range, fs, file)));
      }
      long points = 0;
      for (Future<Long> f : parts) {
        try {
          points += f.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Exception cause) {
            throw cause;
          }
          throw e;
        }
      }
      return points;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long writeUrcPoints(
      Connector conn, String previousTable, Range range, FileSystem fs, Path file)
      throws IOException {
    Text key = new Text();
    RefWritable value = new RefWritable();
    try (SequenceFile.Writer w =
        SequenceFile.createWriter(
            fs.getConf(),
            SequenceFile.Writer.file(file),
            SequenceFile.Writer.keyClass(Text.class),
            SequenceFile.Writer.valueClass(RefWritable.class),
            SequenceFile.Writer.compression(SequenceFile.CompressionType.BLOCK))) {
      return HistoryTables.readUrcSeries(
          conn,
          previousTable,
          range,
          (uri, points) ->
              w.append(RefKeys.urcPoints(key, RefKeys.bytes(uri)), value.urcPoints(points)));
    }
  }

  /**
   * Makes way for a run whose id was used before. A FAILED attempt is cleaned up (its table, if one
   * is left, dropped, its work directory deleted); a RUNNING one only with {@code --restart}, since
   * it may be running still; a SUCCEEDED one never. Without a record, an existing table or work
   * directory of that id is not ours: refused.
   */
  private void clearEarlierAttempt(
      Connector conn,
      RunRegistry registry,
      String runId,
      String table,
      FileSystem workFs,
      Path runDir,
      boolean restart)
      throws IOException {
    Optional<RunRecord> earlier = registry.get(runId);
    if (earlier.isEmpty()) {
      if (conn.tableOperations().exists(table)) {
        throw new UserError(
            "table " + table + " exists already; a run only writes into a fresh table");
      }
      if (workFs.exists(runDir)) {
        throw new UserError(
            "run directory "
                + runDir
                + " exists, but no run "
                + runId
                + " is recorded: remove it or choose another --run");
      }
      return;
    }
    RunRecord r = earlier.get();
    switch (r.status()) {
      case SUCCEEDED ->
          throw new UserError(
              "run "
                  + runId
                  + " succeeded already (table "
                  + r.table()
                  + "): a run id is used once; choose another --run");
      case RUNNING -> {
        if (!restart) {
          throw new UserError(
              "run "
                  + runId
                  + " is recorded RUNNING since "
                  + r.started()
                  + (r.message().isEmpty() ? "" : " (" + r.message() + ")")
                  + ": another recompute may still be running it. If none is (it was killed),"
                  + " rerun with --restart: the run's table and work directory are deleted and"
                  + " it starts over");
        }
      }
      case FAILED -> {
        // a failed attempt: cleaned up below
      }
      default -> throw new IllegalStateException("status " + r.status());
    }
    Optional<RunRegistry.Served> served = registry.served(); // the pointer only: no Fluo here
    if (served.isPresent()
        && (served.get().table().equals(table) || served.get().previousTable().equals(table))) {
      throw new UserError("table " + table + " is served: run " + runId + " cannot be redone");
    }
    String what = r.status() == RunRecord.Status.RUNNING ? "interrupted" : "failed";
    out.printf(
        "run %s: cleaning up the %s attempt started %s (table %s, %s)%n",
        runId, what, r.started(), table, runDir);
    log.info("run {}: cleaning up the {} attempt started {}", runId, what, r.started());
    RunTables.dropAll(conn, table);
    if (workFs.exists(runDir) && !workFs.delete(runDir, true)) {
      throw new StoreException("cannot delete the earlier attempt's work directory " + runDir);
    }
  }

  /** Deletes the files and directories that {@code pattern} (a glob) matches. */
  private static void deleteMatching(FileSystem fs, Path pattern) throws IOException {
    FileStatus[] matches = fs.globStatus(pattern);
    for (FileStatus m : matches == null ? new FileStatus[0] : matches) {
      if (!fs.delete(m.getPath(), true) && fs.exists(m.getPath())) {
        throw new StoreException("cannot delete " + m.getPath());
      }
    }
  }

  /** What a RUNNING record says about who runs it. */
  private static String runningMessage() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException | RuntimeException e) {
      host = "an unknown host";
    }
    return "running: pid " + ProcessHandle.current().pid() + " on " + host;
  }

  private void runJob(Job job, String name, Map<String, Long> counters, Path runDir)
      throws Exception {
    Instant t0 = Instant.now();
    // the work directory runs/<ID> is named after the run
    Jobs.label(job, "recompute", runDir.getName(), name);
    log.info("starting job {}", job.getJobName());
    try {
      Jobs.run(job, new Path(new Path(runDir, "task-errors"), name), beforeSubmit);
    } finally {
      counters.put("time." + name + ".ms", Duration.between(t0, Instant.now()).toMillis());
    }
    // what the job shuffled (on a cluster: what crossed the network), for sizing
    counters.put(
        "shuffle." + name + ".records",
        job.getCounters().findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue());
    counters.put(
        "shuffle." + name + ".bytes",
        job.getCounters().findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue());
    for (CounterGroup g : job.getCounters()) {
      String prefix;
      if (g.getName().equals(Counters.READ)) {
        prefix = "read.";
      } else if (g.getName().startsWith(Counters.class.getName())) {
        prefix = g.getName().substring(g.getName().lastIndexOf('$') + 1).toLowerCase() + ".";
      } else {
        continue;
      }
      for (Counter c : g) {
        // job 2 and job 3 both write cells: their counters add up
        counters.merge(prefix + c.getName(), c.getValue(), Long::sum);
      }
    }
    log.info("job {} done in {} ms", job.getJobName(), counters.get("time." + name + ".ms"));
  }

  /** The Fluo seed's resume point (this run's snapshot), as one more input of the sort job. */
  private static Path writeResumePoint(FileSystem fs, Path dir, long snapshot) throws IOException {
    RowColumnValue rcv = FluoSeed.resumePoint(snapshot);
    try (SequenceFile.Writer w =
        SequenceFile.createWriter(
            fs.getConf(),
            SequenceFile.Writer.file(new Path(dir, "part-r-00000")),
            SequenceFile.Writer.keyClass(CellKey.class),
            SequenceFile.Writer.valueClass(CellValue.class))) {
      w.append(CellKeys.fluo(rcv), CellValue.ofFinal(rcv.getValue().toArray()));
    }
    return dir;
  }

  /** The file in a Fluo seed's directory that names the version of webindex that wrote it. */
  public static final String SEED_VERSION_FILE = "WEBINDEX_VERSION";

  /** Records in the seed's directory which version wrote it (beside its RFiles, which it names). */
  static void writeSeedVersion(FileSystem fs, Path seedDir) throws IOException {
    if (!fs.exists(seedDir) && !fs.mkdirs(seedDir)) {
      throw new StoreException("cannot create " + seedDir);
    }
    try (java.io.OutputStream out = fs.create(new Path(seedDir, SEED_VERSION_FILE), true)) {
      out.write(
          (Version.current().webindex() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /** Moves the RFiles of {@code from} into {@code to}, named apart from those there. */
  static void moveFiles(FileSystem fs, Path from, Path to) throws IOException {
    moveFiles(fs, from, to, "uri-");
  }

  /** Moves the RFiles of {@code from} into {@code to}, their names prefixed with {@code prefix}. */
  static void moveFiles(FileSystem fs, Path from, Path to, String prefix) throws IOException {
    if (!fs.exists(from)) {
      return;
    }
    if (!fs.exists(to) && !fs.mkdirs(to)) {
      throw new StoreException("cannot create " + to);
    }
    for (FileStatus st : fs.listStatus(from)) {
      String name = st.getPath().getName();
      if (name.endsWith(".rf")) {
        Path dest = new Path(to, prefix + name);
        if (!fs.rename(st.getPath(), dest)) {
          throw new StoreException("cannot move " + st.getPath() + " to " + dest);
        }
      }
    }
  }
}
