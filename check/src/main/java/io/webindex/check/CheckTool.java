package io.webindex.check;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.report.CheckReportConsole;
import io.webindex.check.report.CheckReportHtml;
import io.webindex.check.report.CheckReportJson;
import io.webindex.core.args.Args;
import io.webindex.core.args.ArgsException;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.exit.ExitStatus;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.JobSecrets;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import io.webindex.store.mapreduce.Jobs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.Tool;

/**
 * {@code check}: compares a batch run's table with the Fluo-maintained table and checks both
 * tables' invariants; writes {@code check.json} and {@code check.html}, prints a summary; exit
 * status ({@link ExitStatus}) 0 iff consistent, 1 if not, 2 for a usage or configuration error, 3
 * when Accumulo or the live side is unavailable for now (a live side that did not settle), 4 for
 * anything unexpected. {@code --served} instead of {@code --actual TABLE} compares with the table
 * the served pointer names (for a scheduler, which cannot know it in advance); without {@code
 * --applied} it also learns which batch the application that maintains it has applied, once no work
 * of it is in flight (waiting up to {@code --settle} seconds), and skips what batches newer than
 * the snapshot changed; an {@code --out} with a scheme ({@code hdfs:///…}) is written through
 * Hadoop's file system.
 *
 * <pre>
 * hadoop jar webindex-mr-jobs-*-job.jar io.webindex.check.CheckTool \
 *     --webindex-conf FILE --run ID (--actual TABLE | --served [--settle S]) [--applied A]
 *     [--mode auto|files|scanner|mapreduce] [--out DIR]
 * </pre>
 */
public final class CheckTool extends Configured implements Tool {
  public static final int INCONSISTENT = ExitStatus.INCONSISTENT;
  public static final int USAGE = ExitStatus.USAGE;

  /** An {@code --out} with a scheme (hdfs://…, file:/…) is written through Hadoop. */
  private static final Pattern HADOOP_URI = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:/.*");

  private final PrintStream out;

  public CheckTool() {
    this(System.out);
  }

  public CheckTool(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    ToolMain.exit("check", new CheckTool(), args);
  }

  static String usage() {
    return "usage: check [--webindex-conf FILE] --run ID (--actual TABLE | --served [--settle S])"
        + " [--applied A] [--mode auto|files|scanner|mapreduce] [--out DIR] [--fluo [--embedded]]";
  }

  @Override
  public int run(String[] args) throws Exception {
    try {
      JobSecrets.refuse(getConf());
      return parseAndRun(args);
    } catch (Exception e) {
      int status = ToolMain.fail("check", e, System.err);
      if (e instanceof IllegalArgumentException) {
        System.err.println(usage());
      }
      return status;
    }
  }

  private int parseAndRun(String[] args) throws Exception {
    Args a = parse(args);
    if (a.helpRequested()) {
      out.println(usage());
      return 0;
    }
    WebindexConfig cfg = ToolConfig.load(getConf(), a, "webindex.mr.", "webindex.check.");
    Options o = options(a);
    Connector conn = AccumuloConnections.connect(cfg);
    CheckReport report = check(cfg, conn, getConf(), o);
    Configuration conf = new Configuration(getConf());
    String outDir = a.value("out").orElse(".");
    if (HADOOP_URI.matcher(outDir).matches()) {
      write(report, new org.apache.hadoop.fs.Path(outDir), conf);
    } else {
      write(report, Paths.get(outDir));
    }
    record(
        cfg,
        conn,
        report,
        HADOOP_URI.matcher(outDir).matches()
            ? outDir + "/check.html"
            : Paths.get(outDir).toAbsolutePath().normalize().resolve("check.html").toString());
    out.println(CheckReportConsole.summary(report));
    out.flush();
    return report.consistent() ? 0 : INCONSISTENT;
  }

  /**
   * What to check: run {@code runId}'s table against {@code actual} (null: the served table), with
   * the Fluo application's resume point {@code applied} (null: the run's snapshot); with {@code
   * fluo} also the Fluo table against the run's seed, through the application running elsewhere or,
   * with {@code embedded}, run in this process.
   */
  public record Options(
      String runId,
      String actual,
      Long applied,
      CheckRunner.Mode mode,
      boolean fluo,
      boolean embedded,
      Duration settle) {
    /** Options with the default {@code --settle} ({@link #DEFAULT_SETTLE}). */
    public Options(
        String runId,
        String actual,
        Long applied,
        CheckRunner.Mode mode,
        boolean fluo,
        boolean embedded) {
      this(runId, actual, applied, mode, fluo, embedded, DEFAULT_SETTLE);
    }
  }

  /** How long {@code --served} waits by default for the live side to settle. */
  public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(300);

  /**
   * The typed entry point: the consistency check as {@code check} runs it, without writing or
   * printing the report.
   *
   * @throws IllegalArgumentException for a run, table or option that cannot be checked
   * @throws StoreException when Accumulo fails, or (with {@code fluo} and without {@code embedded})
   *     no oracle of the application runs
   */
  public static CheckReport check(WebindexConfig cfg, Configuration hadoop, Options o)
      throws Exception {
    return check(cfg, AccumuloConnections.connect(cfg), hadoop, o);
  }

  /** As {@link #check(WebindexConfig, Configuration, Options)}, over connection {@code conn}. */
  public static CheckReport check(
      WebindexConfig cfg, Connector conn, Configuration hadoop, Options o) throws Exception {
    RunRegistry registry = new RunRegistry(conn, cfg.metaTable());
    RunRecord run =
        registry
            .get(o.runId())
            .orElseThrow(
                () ->
                    new IllegalArgumentException("no run " + o.runId() + " in " + cfg.metaTable()));
    Configuration conf = new Configuration(hadoop);
    Jobs.setUnlessConfigured(conf, "mapreduce.client.completion.pollinterval", "50");
    CheckReport report;
    long applied;
    ServedState served = o.actual() == null ? ServedState.read(registry, cfg) : null;
    if (served != null && o.applied() == null && FluoSide.maintained(cfg, served)) {
      report =
          checkLive(
              cfg, conn, conf, run, o, FluoSide.require("--served on a Fluo-maintained table"));
      applied = report.fluoApplied();
    } else {
      String actual = o.actual() == null ? servedTable(served, cfg) : o.actual();
      applied = o.applied() != null ? o.applied() : run.snapshot();
      report = new CheckRunner(cfg, conn, conf).run(run, actual, applied, o.mode());
    }
    if (o.fluo()) {
      report =
          withSeed(
              report, FluoSide.require("--fluo").seed(cfg, conn, conf, run, applied, o.embedded()));
    }
    return report;
  }

  /**
   * Records the verdict as the last check ({@link RunRegistry#recordCheck}), for the health page
   * and {@code status}, with where its report ({@code check.html}) is. A failure to record is
   * reported on stderr, not fatal: the report is written.
   */
  public static void record(WebindexConfig cfg, Connector conn, CheckReport r, String reportPath) {
    try {
      new RunRegistry(conn, cfg.metaTable())
          .ensureTable()
          .recordCheck(
              new RunRegistry.LastCheck(
                  r.consistent() ? "CONSISTENT" : "INCONSISTENT",
                  r.runId(),
                  r.actualTable(),
                  r.fluoApplied(),
                  r.differences(),
                  r.invariantViolations(),
                  r.finished(),
                  reportPath));
    } catch (RuntimeException e) {
      System.err.println(
          "check: could not record the verdict in " + cfg.metaTable() + ": " + e.getMessage());
    }
  }

  /** How often {@code --served} compares again when batches keep arriving during a comparison. */
  static final int LIVE_ATTEMPTS = 3;

  /**
   * {@code --served} without {@code --applied}, and a Fluo application maintains the served table:
   * the check learns the live side itself. (A served table no application maintains is compared as
   * it is, with the run's snapshot as the applied batch.) It waits (up to {@code settle}) until the
   * application that maintains the served table is idle and has applied at least the run's snapshot
   * ({@link FluoSide#settle}), takes the batch it then has applied as the applied batch, and skips
   * the cells of every batch after the snapshot up to the newest complete one in the store (the
   * loader may apply those during the comparison). When a newer batch became complete during the
   * comparison, its changes may be half in the table: it compares again, up to {@link
   * #LIVE_ATTEMPTS} times.
   */
  private static CheckReport checkLive(
      WebindexConfig cfg,
      Connector conn,
      Configuration conf,
      RunRecord run,
      Options o,
      FluoSide fluo)
      throws Exception {
    RawPageStore store = new RawPageStore(cfg.storeRoot(), conf);
    CheckReport report = null;
    for (int attempt = 1; attempt <= LIVE_ATTEMPTS; attempt++) {
      FluoSide.Settled live = fluo.settle(cfg, conn, run.snapshot(), o.settle());
      long upTo = Math.max(live.applied(), newestBatch(store));
      CheckRunner runner = new CheckRunner(cfg, conn, conf);
      report =
          runner
              .run(run, live.table(), live.applied(), upTo, o.mode())
              .withLive(
                  new CheckReport.Live(
                      live.app(),
                      live.applied(),
                      live.pendingAtStart(),
                      live.waited().toMillis(),
                      upTo,
                      runner.inFlightViolations(),
                      attempt));
      long newest = newestBatch(store);
      if (newest <= upTo) {
        return report;
      }
      System.err.printf(
          "check: batch %d became complete during the comparison (its changes may be half in the"
              + " table): comparing again%n",
          newest);
    }
    throw new StoreException(
        "batches kept arriving during "
            + LIVE_ATTEMPTS
            + " comparisons of the served table: run the check again later (last: "
            + CheckReportConsole.summary(report).lines().findFirst().orElse("")
            + ")");
  }

  private static long newestBatch(RawPageStore store) throws IOException {
    List<RawPageStore.Batch> b = store.batches();
    return b.isEmpty() ? -1 : b.get(b.size() - 1).seq();
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
    Args a =
        ToolConfig.args(
            args,
            Set.of("run", "actual", "applied", "mode", "out", "settle"),
            Set.of("fluo", "embedded", "served"));
    if (!a.helpRequested()) {
      options(a);
    }
    return a;
  }

  /** What the parsed arguments ask to check. */
  private static Options options(Args a) {
    if (!a.has("run") || !(a.has("actual") || a.has("served"))) {
      throw new ArgsException("--run and --actual (or --served) are required");
    }
    if (a.has("actual") && a.has("served")) {
      throw new ArgsException("--actual and --served name the same table: give one");
    }
    String mode = a.value("mode").orElse("auto");
    CheckRunner.Mode m;
    try {
      m = CheckRunner.Mode.valueOf(mode.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ArgsException("--mode takes auto, files, scanner or mapreduce, not " + mode);
    }
    return new Options(
        a.required("run"),
        a.value("actual").orElse(null),
        a.has("applied") ? a.longValue("applied", 0) : null,
        m,
        a.has("fluo"),
        a.has("embedded"),
        Duration.ofSeconds(a.nonNegative("settle", DEFAULT_SETTLE.toSeconds())));
  }

  /** {@code --served}: the table the served pointer of {@code <prefix>_meta} names. */
  private static String servedTable(ServedState served, WebindexConfig cfg) {
    return served
        .table()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "--served: no table is served yet (no served row in "
                        + cfg.metaTable()
                        + "); give --actual TABLE"));
  }

  /** The report with a seed comparison. */
  public static CheckReport withSeed(CheckReport r, CheckReport.SeedComparison seed) {
    return new CheckReport(
        r.expectedTable(),
        r.actualTable(),
        r.runId(),
        r.snapshot(),
        r.fluoApplied(),
        r.mode(),
        r.started(),
        r.finished(),
        r.ranges(),
        r.invariants(),
        seed,
        r.samples());
  }

  /** Writes {@code check.json} and {@code check.html} into {@code dir}. */
  public static void write(CheckReport report, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("check.json"), CheckReportJson.toJson(report), StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("check.html"), CheckReportHtml.toHtml(report), StandardCharsets.UTF_8);
  }

  /**
   * Writes {@code check.json} and {@code check.html} into the Hadoop directory {@code dir} (HDFS,
   * for a check run by a scheduler in a container whose local files do not outlive it).
   */
  static void write(CheckReport report, org.apache.hadoop.fs.Path dir, Configuration conf)
      throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    fs.mkdirs(dir);
    for (Map.Entry<String, String> f :
        Map.of(
                "check.json", CheckReportJson.toJson(report),
                "check.html", CheckReportHtml.toHtml(report))
            .entrySet()) {
      try (FSDataOutputStream os =
          fs.create(new org.apache.hadoop.fs.Path(dir, f.getKey()), true)) {
        os.write(f.getValue().getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
