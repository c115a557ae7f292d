package io.webindex.fluo;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.ToolMain;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

/**
 * {@code fluo-init}: start the configured Fluo application ({@code webindex.fluo.app}) from a batch
 * run ({@link Cutover}, without the retention).
 *
 * <pre>
 * hadoop jar webindex-mr-jobs-job.jar io.webindex.fluo.FluoInitTool \
 *     --webindex-conf FILE --run ID [--embedded] [--force] [--wait SECONDS]
 * </pre>
 *
 * Exit status ({@link io.webindex.core.exit.ExitStatus}): 0 done, 2 refused (nothing served
 * changed), 3 waiting for the application's oracle and workers or Accumulo unavailable, 4 an
 * unexpected failure.
 */
public final class FluoInitTool extends CutoverTool {
  public FluoInitTool() {
    this(
        ReconcileTool.stdout(),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
  }

  public FluoInitTool(PrintWriter out, PrintWriter err) {
    super(out, err);
  }

  public static void main(String[] args) throws Exception {
    ToolMain.exit("fluo-init", new FluoInitTool(), args);
  }

  /** Checks the arguments as {@link #run} would. @throws IllegalArgumentException if refused */
  public static void parseArgs(String[] args) {
    parse(args, Set.of("embedded", "force"));
  }

  @Override
  String name() {
    return "fluo-init";
  }

  @Override
  String usage() {
    return "usage: FluoInitTool --webindex-conf FILE --run ID [--embedded] [--force]"
        + " [--wait SECONDS]\n";
  }

  @Override
  Set<String> flags() {
    return Set.of("embedded", "force");
  }

  @Override
  Cutover.Options options(WebindexConfig cfg, Args a) {
    return options(cfg, a.required("run"), a.has("embedded"), a.has("force"), workerWait(a));
  }

  /** The typed entry point's options. */
  public static Cutover.Options options(
      WebindexConfig cfg, String runId, boolean embedded, boolean force, Duration wait) {
    return new Cutover.Options(runId, cfg.fluoApp(), embedded, force, false, wait);
  }

  @Override
  public void report(WebindexConfig cfg, Cutover.Result r) {
    out.printf(
        "Fluo application %s %s from run %s (snapshot %d); it exports to %s, now the served"
            + " table%n",
        r.app(),
        r.resumed() ? "resumed" : "initialised",
        r.run().runId(),
        r.run().snapshot(),
        r.run().table());
    if (r.appliedAfter() > r.run().snapshot()) {
      out.printf("Fluo caught up to batch %d before the switch%n", r.appliedAfter());
    }
  }
}
