package io.webindex.cli;

import io.webindex.check.CheckRunner;
import io.webindex.check.CheckTool;
import io.webindex.check.engine.CheckReport;
import io.webindex.check.report.CheckReportConsole;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import io.webindex.fluo.BatchApplier;
import io.webindex.fluo.Cutover;
import io.webindex.fluo.FluoInitTool;
import io.webindex.mr.RecomputeTool;
import io.webindex.store.QueryService;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.TableDump;
import io.webindex.web.WebOptions;
import io.webindex.web.WebServer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.util.ToolRunner;

/**
 * The steps of {@code demo} on the embedded instance, once its batches are stored. They are the
 * operator's commands' entry points: recompute, fluo-init --embedded, recompute, check --fluo
 * --embedded; then the dumps, the three answers and the verdict; then the crawl loop ({@link
 * DemoCrawl}: the frontier's first URLs, a crawler's round, its pages loaded); and with {@code
 * --serve} the web application until Ctrl-C.
 */
final class DemoCycle {
  static final String BATCH_DUMP = "batch.tsv";
  static final String INCREMENTAL_DUMP = "incremental.tsv";
  static final int INCONSISTENT = ExitCodes.INCONSISTENT;
  static final int ANSWER_LIMIT = 10;

  private final EmbeddedAccumulo accumulo;

  /** The command line of {@code demo}, checked. */
  record Options(
      List<Path> inputs,
      List<Path> deltas,
      Path out,
      boolean keep,
      boolean serve,
      int port,
      int crawl) {}

  private final Options options;
  private final Path batches;
  private final Cli ctx;
  private final Connector conn;
  private final WebindexConfig cfg;
  private final RunRegistry runs;
  private final PrintStream progress =
      new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);

  DemoCycle(EmbeddedAccumulo accumulo, Options options, Path batches, Cli ctx) {
    this.accumulo = accumulo;
    this.options = options;
    this.batches = batches;
    this.ctx = ctx;
    this.conn = accumulo.connector();
    this.cfg = accumulo.config();
    this.runs = new RunRegistry(conn, cfg.metaTable());
  }

  /** Runs the cycle; returns 0 when the tables are consistent, else {@link #INCONSISTENT}. */
  int run() throws Exception {
    Path out = options.out();
    // 1. the batch run Fluo starts from: batch 0 only
    RunRecord base = recompute("base", 0);
    // 2. the Fluo application, started from that run, applies the deltas to base's table (run
    // embedded until idle), which becomes the served table
    Cutover.Result init = applyDeltas(base);
    // 3. the batch truth: every batch recomputed; its seed is what the Fluo table must be
    RunRecord batch = recompute("batch", options.deltas().size());
    writeDump(base.table(), out.resolve(INCREMENTAL_DUMP));
    writeDump(batch.table(), out.resolve(BATCH_DUMP));
    printAnswers(new QueryService(conn, base.table()), ctx.out());
    // 4. the consistency check: the batch table against the Fluo-maintained one, and the Fluo
    // table against the batch run's seed
    CheckReport report = check(batch, base, init);
    // 5. the crawl loop on the live table: the frontier's first URLs, a crawler's round through
    // it, its pages as the next batch, applied by the Fluo application
    new DemoCrawl(conn, cfg, ctx)
        .run(base.table(), options.crawl(), batches, options.deltas().size() + 1, out);
    if (options.serve()) {
      serve();
    }
    return report.consistent() ? ExitCodes.OK : INCONSISTENT;
  }

  private RunRecord recompute(String run, long snapshot) throws Exception {
    int status =
        ToolRunner.run(
            ctx.localHadoopConf(),
            new RecomputeTool(progress),
            new String[] {
              "--webindex-conf",
              accumulo.connectionFile().toString(),
              "--run",
              run,
              "--snapshot",
              Long.toString(snapshot)
            });
    if (status != 0) {
      throw new DemoFailed(
          "the batch recompute '" + run + "' failed (exit " + status + ")", status);
    }
    return runs.get(run).orElseThrow();
  }

  /** fluo-init --embedded from {@code base}: applies the deltas until idle. */
  private Cutover.Result applyDeltas(RunRecord base) throws Exception {
    Cutover.Result init =
        new Cutover(cfg, ctx.localHadoopConf(), ctx.err())
            .run(FluoInitTool.options(cfg, base.runId(), true, false, Cutover.WORKER_WAIT));
    BatchApplier.Result applied = init.caughtUp();
    ctx.err()
        .printf(
            "demo: Fluo applied %d batches (%d page versions, %d stale) in %d ms%n",
            applied.batches(), applied.pages(), applied.stale(), applied.time().toMillis());
    return init;
  }

  private void writeDump(String table, Path file) throws IOException {
    long cells;
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      cells = TableDump.dump(conn, table, w);
    }
    ctx.err().println("demo: wrote " + cells + " cells of " + table + " to " + file);
  }

  /** The check, written and recorded as {@code check} does, and its verdict printed. */
  private CheckReport check(RunRecord batch, RunRecord base, Cutover.Result init) throws Exception {
    Path out = options.out();
    CheckReport report =
        CheckTool.check(
            cfg,
            conn,
            ctx.localHadoopConf(),
            new CheckTool.Options(
                batch.runId(),
                base.table(),
                init.appliedAfter(),
                CheckRunner.Mode.AUTO,
                true,
                true));
    CheckTool.write(report, out);
    // as `check` does: the health panel of --serve shows it
    CheckTool.record(cfg, conn, report, out.resolve("check.html").toString());
    ctx.err().println(CheckReportConsole.summary(report));
    ctx.out()
        .println(
            "verdict: "
                + (report.consistent() ? "CONSISTENT" : "INCONSISTENT")
                + " ("
                + report.compared()
                + " cells compared, "
                + report.differences()
                + " differences, "
                + report.invariantViolations()
                + " invariant violations; "
                + out.resolve("check.html")
                + ")");
    return report;
  }

  /** Serves the live table (fluo-init made it the served one) and the report until Ctrl-C. */
  private void serve() throws Exception {
    // a throw-away instance on loopback, its password in a temp directory: its operator sees the
    // detail (run messages, the health panel) without authentication; `serve` never does
    WebOptions web =
        WebOptions.local(options.port()).withChecksDir(options.out()).withOpenDetail(true);
    try (FluoStateProbe fluo = new FluoStateProbe(cfg);
        WebServer server = WebServer.start(web, conn, cfg, fluo)) {
      ServeCommand.serveUntilStopped(server, ctx);
    }
  }

  static void printAnswers(QueryService q, PrintWriter out) {
    QueryService.TopAnswer top = q.top(ANSWER_LIMIT, null);
    out.println("1. Which web pages are referenced by the most web pages?");
    if (top.uris().isEmpty()) {
      out.println("   (the index is empty)");
      return;
    }
    for (QueryService.RankedUri u : top.uris()) {
      out.printf("   %6d  %s%n", u.urc(), u.url());
    }
    QueryService.RankedUri first = top.uris().get(0);
    String host = first.url();
    try {
      host = WebUrl.parse(first.url()).host();
    } catch (InvalidUrlException e) {
      // a damaged key: ask with the URL as it is
    }
    QueryService.DomainAnswer d = q.domain(host, ANSWER_LIMIT, null);
    out.printf(
        "2. In the domain %s (%d %s), which pages are referenced the most?%n",
        Domains.readable(d.domain()), d.pageCount(), d.pageCount() == 1 ? "page" : "pages");
    for (QueryService.RankedUri u : d.uris()) {
      out.printf("   %6d  %s%n", u.urc(), u.url());
    }
    QueryService.InlinksAnswer in = q.inlinks(first.url(), ANSWER_LIMIT, null);
    out.printf(
        "3. Which pages reference %s (%d), with what anchor text?%n", in.url(), in.incount());
    for (QueryService.Inlink l : in.inlinks()) {
      out.printf("   %s\t%s%n", l.url(), l.anchor());
    }
  }

  /** A step of the demo failed; its exit status. */
  static final class DemoFailed extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    DemoFailed(String message, int status) {
      super(message);
      this.status = status;
    }
  }
}
