package io.webindex.fluo;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;

/**
 * {@code fluo-worker}: runs a worker of a Fluo application until SIGTERM or Ctrl-C: of the
 * application {@code --app} names ({@link FluoServices#runWorker}), else of every application that
 * has to run, following the served pointer through cut-overs ({@link FluoServices#runFollowing}).
 *
 * <pre>
 * hadoop jar webindex-mr-jobs-job.jar io.webindex.fluo.FluoWorkerTool \
 *     --webindex-conf FILE [--app NAME] [--threads N] [--max-scan-interval SECONDS]
 * </pre>
 *
 * Exit status: 2 a usage error or refused (e.g. the application is not initialised); stopped by a
 * signal, the JVM exits with the signal's status (143 for SIGTERM, 130 for Ctrl-C) once the worker
 * stopped.
 */
public final class FluoWorkerTool extends FluoServiceTool {
  public FluoWorkerTool() {
    super();
  }

  public FluoWorkerTool(PrintWriter out, PrintWriter err) {
    super(out, err);
  }

  public static void main(String[] args) throws Exception {
    ToolMain.exit("fluo-worker", new FluoWorkerTool(), args);
  }

  /** Checks the arguments as {@link #run} would. @throws IllegalArgumentException if refused */
  public static void parseArgs(String[] args) {
    options(ToolConfig.args(args, Set.of("app", "threads", "max-scan-interval"), Set.of()));
  }

  @Override
  String name() {
    return "fluo-worker";
  }

  @Override
  String usage() {
    return "usage: FluoWorkerTool --webindex-conf FILE [--app NAME] [--threads N]"
        + " [--max-scan-interval SECONDS]\n";
  }

  @Override
  Set<String> valueOptions() {
    return Set.of("app", "threads", "max-scan-interval");
  }

  @Override
  void check(Args a) {
    options(a);
  }

  static FluoServices.WorkerOptions options(Args a) {
    return new FluoServices.WorkerOptions(
        a.nonNegativeInt("threads", FluoServices.DEFAULT_THREADS),
        Duration.ofSeconds(
            a.nonNegative(
                "max-scan-interval", FluoServices.DEFAULT_MAX_SCAN_INTERVAL.toSeconds())));
  }

  @Override
  void serve(WebindexConfig cfg, String app, Args a, LoadTool.StopSignal stop)
      throws InterruptedException {
    FluoServices.runWorker(cfg, app, options(a), stop, err);
  }

  @Override
  void follow(WebindexConfig cfg, Args a, LoadTool.StopSignal stop) throws InterruptedException {
    FluoServices.runFollowing(cfg, FluoServices.Role.WORKER, options(a), stop, err);
  }
}
