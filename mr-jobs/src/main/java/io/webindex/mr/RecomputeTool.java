package io.webindex.mr;

import io.webindex.core.args.Args;
import io.webindex.core.args.ArgsException;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.QuerySchema;
import io.webindex.fluo.FluoSeed;
import io.webindex.mr.io.CellKey;
import io.webindex.mr.io.CellValue;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.BulkImport;
import io.webindex.store.JobSecrets;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.StoreException;
import io.webindex.store.ToolConfig;
import io.webindex.store.mapreduce.Jobs;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.accumulo.core.client.Connector;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code recompute}: recomputes the whole query table from every batch {@code <= S} of the raw page
 * store into a fresh, pre-split table {@code <prefix>_<run>}, plus the Fluo seed files, and records
 * the run in {@code <prefix>_meta}. Three MapReduce jobs (latest versions → per URI → sort and
 * write RFiles), each checked before the next; then the table is created with split points sampled
 * from the data and the RFiles are bulk imported. Nothing live is touched, and a failed run drops
 * its table and is recorded as FAILED with the failed task's exception. The same run id again
 * cleans up a FAILED attempt and starts over; a RUNNING one (a killed process) only with {@code
 * --restart}; a SUCCEEDED one never. The Accumulo password stays in the driver: a webindex password
 * key in the Hadoop configuration is refused, and every job is scrubbed of such keys ({@link
 * JobSecrets}).
 *
 * <pre>
 * hadoop jar webindex-mr-jobs.jar io.webindex.mr.RecomputeTool \
 *     [--webindex-conf FILE] [--snapshot S] [--run ID [--restart]] [-D webindex.key=value ...]
 * </pre>
 */
public final class RecomputeTool extends Configured implements Tool {
  private static final Logger log = LoggerFactory.getLogger(RecomputeTool.class);
  private static final DateTimeFormatter RUN_ID =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  /** Exit status of a usage or configuration error. */
  public static final int USAGE = 2;

  private final PrintStream out;
  private Consumer<? super Job> beforeSubmit = job -> {};

  public RecomputeTool() {
    this(System.out);
  }

  public RecomputeTool(PrintStream out) {
    this.out = out;
  }

  /**
   * Shows each MapReduce job to {@code observer} just before it is submitted (its secrets already
   * stripped): for tests and tooling that inspect what a job carries.
   */
  public RecomputeTool beforeSubmit(Consumer<? super Job> observer) {
    this.beforeSubmit = observer;
    return this;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new RecomputeTool(), args));
  }

  static String usage() {
    return "usage: recompute [--webindex-conf FILE] [--snapshot S] [--run ID [--restart]]"
        + " [-D webindex.key=value ...]";
  }

  @Override
  public int run(String[] args) throws Exception {
    try {
      JobSecrets.refuse(getConf());
      return parseAndRun(args);
    } catch (IllegalArgumentException | UncheckedIOException | UserError | StoreException e) {
      return usageError(e.getMessage());
    }
  }

  private int parseAndRun(String[] args) throws Exception {
    Args a = parse(args);
    if (a.helpRequested()) {
      out.println(usage());
      return 0;
    }
    WebindexConfig cfg = ToolConfig.load(getConf(), a, "webindex.mr.");
    String runId = a.value("run").orElseGet(() -> RUN_ID.format(Instant.now()));
    Long snapshot = a.has("snapshot") ? a.longValue("snapshot", 0) : null;
    return recompute(cfg, snapshot, runId, a.has("restart"));
  }

  /**
   * Checks the tool's own arguments (after Hadoop's generic options {@code -D}, {@code -conf}, …)
   * exactly as {@link #run} reads them, without reading a configuration or touching anything:
   * throws {@link IllegalArgumentException}, with the message {@code run} prints, for arguments
   * that {@code run} refuses with exit status 2. For schedulers' definitions (the Oozie workflow's
   * test).
   */
  public static void parseArgs(String[] args) {
    parse(args);
  }

  static Args parse(String[] args) {
    Args a = ToolConfig.args(args, Set.of("snapshot", "run"), Set.of("restart"));
    if (a.helpRequested()) {
      return a;
    }
    a.longValue("snapshot", 0);
    String runId = a.value("run").orElse(null);
    if (runId != null && !runId.matches("[A-Za-z0-9_]{1,40}")) {
      throw new ArgsException("--run takes letters, digits and '_': " + runId);
    }
    if (a.has("restart") && runId == null) {
      throw new ArgsException("--restart needs the --run it restarts");
    }
    return a;
  }

  private int usageError(String message) {
    System.err.println("recompute: " + message);
    System.err.println(usage());
    return USAGE;
  }

  /** An error an operator can fix (input missing, table exists, …). */
  static final class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UserError(String m) {
      super(m);
    }
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
      throw new UserError("no batches under " + store.batchesDir());
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

  private int recompute(WebindexConfig cfg, Long requestedSnapshot, String runId, boolean restart)
      throws Exception {
    Configuration conf = new Configuration(getConf());
    tuneLocalRunner(conf);
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
    Path latestOut = new Path(runDir, "latest");
    Path urisOut = new Path(runDir, "uris");
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
            cfg.fluoBuckets());
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
      int tablets = cfg.recomputeTablets();
      Job latest =
          LatestJob.create(
              conf,
              cfg,
              batchesDir,
              inputs,
              latestOut,
              tablets,
              sampleEvery(conf, inputs, tablets));
      runJob(latest, "latest", counters, runDir);

      // the query table's split points, from the URIs job 1 sampled: job 2 writes the rows of
      // each tablet in one reducer
      List<byte[]> uriSplits =
          pick(readSamples(workFs, new Path(latestOut, LatestJob.OUT_SAMPLES)), tablets);
      List<byte[]> querySplits = new ArrayList<>();
      for (byte[] uri : uriSplits) {
        querySplits.add(
            QuerySchema.pageRow(new String(uri, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8));
      }
      Job uris =
          UriJob.create(
              conf,
              new Path(latestOut, LatestJob.OUT_REFS),
              urisOut,
              uriSplits,
              cfg.fluoBuckets(),
              cfg.recomputeCompression());
      runJob(uris, "uris", counters, runDir);

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

      SortedSet<Text> tableSplits = new TreeSet<>();
      for (byte[] s : querySplits) {
        tableSplits.add(new Text(s));
      }
      Instant importStart = Instant.now();
      tableMayExist = true; // from here on a failure drops the table, also one half created
      BulkImport.createFresh(conn, table, tableSplits);
      if (Jobs.testFault(conf, "import")) {
        log.warn("{}=import (a test setting): taking {} offline", Jobs.TEST_FAULT, table);
        conn.tableOperations().offline(table, true);
      }
      Path queryFiles = new Path(sortedOut, SortJob.OUT_QUERY);
      if (workFs.exists(queryFiles)) {
        BulkImport.importDirectory(conn, conf, table, queryFiles, new Path(runDir, "failures"));
      }
      counters.put("time.import.ms", Duration.between(importStart, Instant.now()).toMillis());
      counters.put("table.splits", (long) tableSplits.size());
      Instant finished = Instant.now();
      counters.put("time.total.ms", Duration.between(started, finished).toMillis());
      record = record.finish(RunRecord.Status.SUCCEEDED, finished, counters, "");
      registry.put(record);
      printSummary(record);
      lastRun = record;
      return 0;
    } catch (Exception | Error e) {
      String what =
          e instanceof StoreException || e instanceof Jobs.JobFailed
              ? e.getMessage()
              : e.toString();
      log.error("run {} failed: {}", runId, what, e instanceof Jobs.JobFailed ? null : e);
      if (tableMayExist) {
        try {
          BulkImport.dropIfExists(conn, table);
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
      System.err.println(
          "recompute: run " + runId + " FAILED: " + what + " (nothing served was touched)");
      return 1;
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
    Optional<RunRegistry.Served> served = registry.served();
    if (served.isPresent()
        && (served.get().table().equals(table) || served.get().previousTable().equals(table))) {
      throw new UserError("table " + table + " is served: run " + runId + " cannot be redone");
    }
    String what = r.status() == RunRecord.Status.RUNNING ? "interrupted" : "failed";
    out.printf(
        "run %s: cleaning up the %s attempt started %s (table %s, %s)%n",
        runId, what, r.started(), table, runDir);
    log.info("run {}: cleaning up the {} attempt started {}", runId, what, r.started());
    BulkImport.dropIfExists(conn, table);
    if (workFs.exists(runDir) && !workFs.delete(runDir, true)) {
      throw new StoreException("cannot delete the earlier attempt's work directory " + runDir);
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

  /** Average bytes of plain input per reference (a link or a page) job 1 writes. */
  static final long INPUT_BYTES_PER_REF = 64;

  /** Samples per tablet job 1 aims for. */
  static final long SAMPLES_PER_TABLET = 1000;

  /**
   * How often job 1 samples a reference's URI: about {@link #SAMPLES_PER_TABLET} samples per
   * tablet, estimated from the input's size (compressed input yields fewer, which still splits
   * evenly).
   */
  static long sampleEvery(Configuration conf, List<Path> inputs, int tablets) throws IOException {
    long bytes = 0;
    for (Path p : inputs) {
      bytes += p.getFileSystem(conf).getContentSummary(p).getLength();
    }
    return Math.max(1, bytes / INPUT_BYTES_PER_REF / (tablets * SAMPLES_PER_TABLET));
  }

  /** The URIs job 1 sampled. */
  static List<byte[]> readSamples(FileSystem fs, Path samplesDir) throws IOException {
    List<byte[]> rows = new ArrayList<>();
    if (fs.exists(samplesDir)) {
      for (FileStatus st : fs.listStatus(samplesDir)) {
        if (!st.getPath().getName().startsWith("part")) {
          continue;
        }
        try (SequenceFile.Reader r =
            new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(st.getPath()))) {
          Text k = new Text();
          while (r.next(k, NullWritable.get())) {
            rows.add(k.copyBytes());
          }
        }
      }
    }
    return rows;
  }

  /** Moves the RFiles of {@code from} into {@code to}, named apart from those there. */
  static void moveFiles(FileSystem fs, Path from, Path to) throws IOException {
    if (!fs.exists(from)) {
      return;
    }
    if (!fs.exists(to) && !fs.mkdirs(to)) {
      throw new StoreException("cannot create " + to);
    }
    for (FileStatus st : fs.listStatus(from)) {
      String name = st.getPath().getName();
      if (name.endsWith(".rf")) {
        Path dest = new Path(to, "uri-" + name);
        if (!fs.rename(st.getPath(), dest)) {
          throw new StoreException("cannot move " + st.getPath() + " to " + dest);
        }
      }
    }
  }

  static List<byte[]> pick(List<byte[]> sampleRows, int tablets) {
    List<byte[]> sorted = new ArrayList<>(sampleRows);
    sorted.sort(Arrays::compareUnsigned);
    List<byte[]> out = new ArrayList<>();
    for (int i = 1; i < tablets && !sorted.isEmpty(); i++) {
      byte[] row = sorted.get((int) ((long) i * sorted.size() / tablets));
      if (out.isEmpty() || Arrays.compareUnsigned(out.get(out.size() - 1), row) < 0) {
        out.add(row);
      }
    }
    return out;
  }

  /** The smallest sort buffer the local runner sets, in MB. */
  static final int MIN_SORT_MB = 16;

  /** Share of the heap Hadoop lets one reducer's shuffle hold in memory (its default). */
  static final double SHUFFLE_HEAP_SHARE = 0.70;

  /**
   * On the local job runner: real parallelism, fast completion polling (5 s by default), and memory
   * bounded by the settings rather than by the input or the heap. Each map task holds its sort
   * buffer ({@code mapreduce.task.io.sort.mb}); each reducer's shuffle would hold up to 70 % of the
   * whole heap ({@code mapreduce.reduce.shuffle.input.buffer.percent} of {@code
   * Runtime.maxMemory()}), assuming it owns the JVM: two local reducers claimed 140 % of it, a
   * 1M-page recompute under {@code -Xmx1g} died with {@code OutOfMemoryError} in a shuffle, and the
   * heap in use grew with the input until the heap was full. Here a map task's sort buffer is
   * Hadoop's 100 MB, or less in a small heap (at most a quarter of it among the parallel maps), and
   * each local reducer's in-memory shuffle gets what a sort buffer gets (at most its share of 70 %
   * of the heap), through {@code mapreduce.reduce.memory.totalbytes}, the heap size the shuffle
   * sizes itself from: in either phase the JVM holds at most the parallel tasks times {@code
   * io.sort.mb} of records, whatever the input's size and the heap given.
   */
  static void tuneLocalRunner(Configuration conf) {
    tuneLocalRunner(conf, Runtime.getRuntime().maxMemory());
  }

  static void tuneLocalRunner(Configuration conf, long maxHeap) {
    if ("local".equals(conf.get("mapreduce.framework.name", "local"))) {
      setIfUnset(conf, "mapreduce.client.completion.pollinterval", "50");
      setIfUnset(conf, "mapreduce.local.map.tasks.maximum", "2");
      setIfUnset(conf, "mapreduce.local.reduce.tasks.maximum", "2");
      // job 2's reducers each merge the outputs of every map task (about 40 at 1M pages): in one
      // pass instead of Hadoop's default of 10 segments a pass
      setIfUnset(conf, "mapreduce.task.io.sort.factor", "100");
      // a map task allocates its whole sort buffer as it starts: at most a quarter of the heap
      // among the parallel maps (a small heap failed there at once, in Hadoop's 100 MB default)
      int maps = Math.max(1, conf.getInt("mapreduce.local.map.tasks.maximum", 1));
      long sortMb = Math.max(MIN_SORT_MB, Math.min(100, (maxHeap >> 20) / 4 / maps));
      setIfUnset(conf, "mapreduce.task.io.sort.mb", Long.toString(sortMb));
      int reducers = Math.max(1, conf.getInt("mapreduce.local.reduce.tasks.maximum", 1));
      long sortBuffer = conf.getInt("mapreduce.task.io.sort.mb", 100) * (1L << 20);
      long inMemory = Math.min(sortBuffer, (long) (maxHeap * SHUFFLE_HEAP_SHARE / reducers));
      double share =
          conf.getDouble("mapreduce.reduce.shuffle.input.buffer.percent", SHUFFLE_HEAP_SHARE);
      setIfUnset(
          conf, "mapreduce.reduce.memory.totalbytes", Long.toString((long) (inMemory / share)));
    }
  }

  private static void setIfUnset(Configuration conf, String key, String value) {
    if (conf.get(key) == null) {
      conf.set(key, value);
    }
  }

  /** The record of the run this tool completed last (empty before one succeeded). */
  public java.util.Optional<RunRecord> lastRun() {
    return java.util.Optional.ofNullable(lastRun);
  }

  private RunRecord lastRun;

  private void printSummary(RunRecord r) {
    Map<String, Long> c = r.counters();
    out.printf(
        "run %s SUCCEEDED: table %s, snapshot %d (%d batches)%n",
        r.runId(), r.table(), r.snapshot(), r.inputs().size());
    out.printf(
        "  read: %d records, %d page versions (%d deletions), %d rejected; %d links kept%n",
        c.getOrDefault("read.RECORDS", 0L),
        c.getOrDefault("read.PAGES", 0L),
        c.getOrDefault("read.DELETIONS", 0L),
        c.getOrDefault("read.REJECTED", 0L),
        c.getOrDefault("read.LINKS", 0L));
    out.printf(
        "  index: %d current pages, %d seen URIs, %d inlinks, %d query cells, %d Fluo seed entries%n",
        c.getOrDefault("latest.CURRENT_PAGES", 0L),
        c.getOrDefault("uris.SEEN_URIS", 0L),
        c.getOrDefault("uris.INLINKS", 0L),
        c.getOrDefault("write.QUERY_CELLS", 0L),
        c.getOrDefault("write.FLUO_SEED_ENTRIES", 0L));
    out.printf(
        "  time: %d ms (latest %d, uris %d, write %d, import %d)%n",
        c.getOrDefault("time.total.ms", 0L),
        c.getOrDefault("time.latest.ms", 0L),
        c.getOrDefault("time.uris.ms", 0L),
        c.getOrDefault("time.write.ms", 0L),
        c.getOrDefault("time.import.ms", 0L));
    out.printf("  Fluo seed: %s%n", r.seedDir());
  }
}
