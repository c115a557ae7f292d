package io.webindex.fluo;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.ToolMain;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * {@code reconcile}: cut over to a batch run ({@link Cutover}, into the application {@code
 * <webindex.fluo.app>_<run>}, with the retention).
 *
 * <pre>
 * hadoop jar webindex-mr-jobs-job.jar io.webindex.fluo.ReconcileTool \
 *     --webindex-conf FILE --run ID [--embedded] [--wait SECONDS]
 * </pre>
 *
 * Exit status: 0 switched (or already served), 2 refused before the switch, 3 waiting for the
 * application's oracle and workers or Accumulo unavailable (run it again: it resumes), 4 an
 * unexpected failure ({@link io.webindex.core.exit.ExitStatus}).
 */
public final class ReconcileTool extends CutoverTool {
  public ReconcileTool() {
    this(
        stdout(),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
  }

  public ReconcileTool(PrintWriter out, PrintWriter err) {
    super(out, err);
  }

  static PrintWriter stdout() {
    return new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
  }

  public static void main(String[] args) throws Exception {
    ToolMain.exit("reconcile", new ReconcileTool(), args);
  }

  /** Checks the arguments as {@link #run} would. @throws IllegalArgumentException if refused */
  public static void parseArgs(String[] args) {
    parse(args, Set.of("embedded"));
  }

  @Override
  String name() {
    return "reconcile";
  }

  @Override
  String usage() {
    return "usage: ReconcileTool --webindex-conf FILE --run ID [--embedded] [--wait SECONDS]\n";
  }

  @Override
  Set<String> flags() {
    return Set.of("embedded");
  }

  @Override
  Cutover.Options options(WebindexConfig cfg, Args a) {
    String runId = a.required("run");
    return options(cfg, runId, a.has("embedded"), workerWait(a));
  }

  /** The typed entry point's options for run {@code runId}. */
  public static Cutover.Options options(
      WebindexConfig cfg, String runId, boolean embedded, java.time.Duration wait) {
    return new Cutover.Options(
        runId, Cutover.reconcileApp(cfg, runId), embedded, false, true, wait);
  }

  @Override
  public void report(WebindexConfig cfg, Cutover.Result r) {
    String before = r.previousTable().isEmpty() ? "(none)" : r.previousTable();
    if (r.served()) {
      out.printf(
          "served table: %s (run %s, Fluo caught up to batch %d); previous: %s%n",
          r.now().table(), r.run().runId(), r.appliedAfter(), before);
    } else {
      out.printf(
          "served table: %s (run %s, already served; Fluo caught up to batch %d)%n",
          r.now().table(), r.run().runId(), r.appliedAfter());
    }
    out.printf(
        "Fluo application: %s (%s%s)%n",
        r.app(),
        r.resumed() ? "resumed" : "new",
        r.previousApp().equals(r.app())
            ? ""
            : "; was "
                + r.previousApp()
                + ": Fluo services without --app stop serving it by themselves, --app ones must be"
                + " stopped");
    out.printf(
        "retention (%d runs): %s%n",
        cfg.retentionRuns(),
        r.dropped().isEmpty() ? "nothing dropped" : "dropped " + String.join(", ", r.dropped()));
  }
}
