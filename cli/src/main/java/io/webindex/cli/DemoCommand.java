package io.webindex.cli;

import io.webindex.check.CheckRunner;
import io.webindex.check.CheckTool;
import io.webindex.check.engine.CheckReport;
import io.webindex.check.report.CheckReportConsole;
import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.LocalBatches;
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
import io.webindex.store.StopOnSignal;
import io.webindex.store.TableDump;
import io.webindex.web.WebOptions;
import io.webindex.web.WebServer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code demo}: the whole cycle on one machine with no setup. Starts an embedded Accumulo in a temp
 * directory, stores the {@code --input} paths as batch 0 and each {@code --delta} as the next
 * batch, recomputes over all of them, writes the dump to {@code DIR/batch.tsv} and prints the three
 * answers. Without inputs it uses the shipped sample (the SPEC's worked example).
 */
final class DemoCommand implements Command {
  static final String SAMPLE = "/io/webindex/cli/demo/pages-00000.jsonl";
  static final String BATCH_DUMP = "batch.tsv";
  static final String INCREMENTAL_DUMP = "incremental.tsv";
  static final int INCONSISTENT = 1;
  static final int ANSWER_LIMIT = 10;

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String summary() {
    return "run the whole cycle embedded, on sample data or --input/--delta paths";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex demo [--input PATH]... [--delta PATH]... [--out DIR] [--keep]
                                 [--serve [--port P]]

        Starts an embedded Accumulo in a temporary directory and treats the --input paths as
        batch 0 and each --delta as the next batch (1, 2, ...). Then the whole cycle:
          1. a MapReduce recompute of batch 0 into a fresh table, with the Fluo seed;
          2. the Fluo application, started from that run, applies the deltas to that table
             (the live table), waits until idle, and DIR/incremental.tsv gets its dump;
          3. a MapReduce recompute of all batches: DIR/batch.tsv gets its dump;
          4. the consistency check of the two tables, and of the Fluo table against the
             batch run's seed: DIR/check.json, DIR/check.html and the verdict.
        It prints the three answers from the live table (the most referenced pages, the pages
        of the top page's domain, the pages that link to the top page) and the verdict; exit
        status 0 iff consistent. With no --input it uses the shipped sample data (the SPEC's
        worked example).

          --input PATH   a page file (JSON lines or WAT, plain or gzip) or a directory of them;
                         repeatable; all of them form batch 0
          --delta PATH   a file or directory forming the next batch; repeatable, in order
          --out DIR      where batch.tsv, incremental.tsv, check.json and check.html go
                         (default: ./demo-out)
          --keep         keep the temporary directory (Accumulo logs, run files) and say where
          --serve        then serve the live table and the check report with the web
                         application (bin/webindex serve) on 127.0.0.1, print its URL and
                         keep the embedded instance up until Ctrl-C
          --port P       the port of --serve (default 8080; 0 picks a free one)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(
            raw,
            Set.of("input", "delta", "out", "port"),
            Set.of("keep", "serve"),
            Set.of("input", "delta"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.noPositionals();
    List<Path> inputs = existingPaths(args.values("input"), ctx);
    List<Path> deltas = existingPaths(args.values("delta"), ctx);
    Path out = ctx.userPath(args.value("out").orElse("demo-out"));
    boolean keep = args.has("keep");
    boolean serve = args.has("serve");
    int port = args.intValue("port", WebOptions.DEFAULT_PORT);
    if (port < 0 || port > 65535) {
      throw new UsageException("--port must be between 0 and 65535");
    }
    if (args.has("port") && !serve) {
      throw new UsageException("--port goes with --serve");
    }
    if (inputs.isEmpty() && !deltas.isEmpty()) {
      throw new UsageException("--delta needs at least one --input (batch 0)");
    }
    Files.createDirectories(out);

    Path tmp = Files.createTempDirectory("webindex-demo-");
    StopOnSignal signal = serve ? new StopOnSignal(ctx::requestStop) : null;
    try (EmbeddedAccumulo accumulo = EmbeddedAccumulo.start(tmp)) {
      Path batches = tmp.resolve("store").resolve(BatchLayout.BATCHES_DIR);
      // each batch as docs/input.md says: its files under a temporary name, then its _SUCCESS
      // marker, then the rename to its number
      Path batch0 = LocalBatches.begin(batches, 0);
      if (inputs.isEmpty()) {
        try (InputStream in = DemoCommand.class.getResourceAsStream(SAMPLE)) {
          Files.copy(in, batch0.resolve("pages-00000.jsonl"));
        }
        ctx.err().println("demo: no --input given, using the shipped sample (the worked example)");
      } else {
        copyInto(inputs, batch0);
      }
      LocalBatches.publish(batches, 0);
      for (int d = 0; d < deltas.size(); d++) {
        copyInto(List.of(deltas.get(d)), LocalBatches.begin(batches, d + 1));
        LocalBatches.publish(batches, d + 1);
      }

      PrintStream progress =
          new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
      Connector conn = accumulo.connector();
      WebindexConfig cfg = accumulo.config();
      RunRegistry runs = new RunRegistry(conn, cfg.metaTable());

      // the steps are the operator's commands' entry points: recompute, fluo-init --embedded,
      // recompute, check --fluo --embedded
      // 1. the batch run Fluo starts from: batch 0 only
      RunRecord base = recompute(accumulo, progress, "base", 0, runs);
      // 2. the Fluo application, started from that run, applies the deltas to base's table (run
      // embedded until idle), which becomes the served table
      Cutover.Result init =
          new Cutover(cfg, new Configuration(), ctx.err())
              .run(FluoInitTool.options(cfg, base.runId(), true, false, Cutover.WORKER_WAIT));
      BatchApplier.Result applied = init.caughtUp();
      ctx.err()
          .printf(
              "demo: Fluo applied %d batches (%d page versions, %d stale) in %d ms%n",
              applied.batches(), applied.pages(), applied.stale(), applied.time().toMillis());
      // 3. the batch truth: every batch recomputed; its seed is what the Fluo table must be
      RunRecord batch = recompute(accumulo, progress, "batch", deltas.size(), runs);
      writeDump(conn, base.table(), out.resolve(INCREMENTAL_DUMP), ctx);
      writeDump(conn, batch.table(), out.resolve(BATCH_DUMP), ctx);
      printAnswers(new QueryService(conn, base.table()), ctx.out());

      // 4. the consistency check: the batch table against the Fluo-maintained one, and the Fluo
      // table against the batch run's seed
      CheckReport report =
          CheckTool.check(
              cfg,
              new Configuration(),
              new CheckTool.Options(
                  batch.runId(),
                  base.table(),
                  init.appliedAfter(),
                  CheckRunner.Mode.AUTO,
                  true,
                  true));
      CheckTool.write(report, out);
      // as `check` does: the health panel of --serve shows it
      CheckTool.record(cfg, report, out.resolve("check.html").toString());
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
      if (serve) {
        // fluo-init made the live table the served one
        WebOptions options = WebOptions.local(port).withChecksDir(out);
        try (FluoStateProbe fluo = new FluoStateProbe(cfg);
            WebServer server = WebServer.start(options, conn, cfg, fluo)) {
          ServeCommand.serveUntilStopped(server, ctx);
        }
      }
      if (!report.consistent()) {
        return INCONSISTENT;
      }
    } catch (DemoFailed e) {
      ctx.err().println("demo: " + e.getMessage());
      return e.status;
    } finally {
      if (keep) {
        ctx.err().println("demo: kept " + tmp);
      } else {
        EmbeddedAccumulo.deleteRecursively(tmp);
      }
      if (signal != null) {
        signal.close();
      }
    }
    return 0;
  }

  private static RunRecord recompute(
      EmbeddedAccumulo accumulo, PrintStream progress, String run, long snapshot, RunRegistry runs)
      throws Exception {
    int status =
        ToolRunner.run(
            new Configuration(),
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

  /** A step of the demo failed; its exit status. */
  static final class DemoFailed extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    DemoFailed(String message, int status) {
      super(message);
      this.status = status;
    }
  }

  private static void writeDump(Connector conn, String table, Path file, Cli ctx)
      throws IOException {
    long cells;
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      cells = TableDump.dump(conn, table, w);
    }
    ctx.err().println("demo: wrote " + cells + " cells of " + table + " to " + file);
  }

  /**
   * Copies files (as {@code NNN-name}) and directories (as {@code NNN-name/…}) into a batch, so
   * that files from different arguments never collide and their order is the arguments' order.
   */
  static void copyInto(List<Path> sources, Path batchDir) throws IOException {
    for (int i = 0; i < sources.size(); i++) {
      Path src = sources.get(i);
      String prefix = String.format("%03d-", i);
      Path target = batchDir.resolve(prefix + src.getFileName());
      if (Files.isDirectory(src)) {
        try (Stream<Path> files = Files.walk(src)) {
          for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
            Path to = target.resolve(src.relativize(f).toString());
            Files.createDirectories(to.getParent());
            Files.copy(f, to);
          }
        }
      } else {
        Files.copy(src, target);
      }
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

  /** The paths of {@code --input} or {@code --delta}, each of which must exist. */
  private static List<Path> existingPaths(List<String> given, Cli ctx) {
    List<Path> paths = new ArrayList<>();
    for (String g : given) {
      Path p = ctx.userPath(g);
      if (!Files.exists(p)) {
        throw new UsageException("no such file or directory: " + p);
      }
      paths.add(p);
    }
    return paths;
  }
}
