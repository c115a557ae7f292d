package io.webindex.fluo;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import java.io.PrintWriter;

/**
 * {@code fluo-oracle}: runs the oracle of a Fluo application until SIGTERM or Ctrl-C: of the
 * application {@code --app} names ({@link FluoServices#runOracle}), else of every application that
 * has to run, following the served pointer through cut-overs ({@link FluoServices#runFollowing}).
 *
 * <pre>
 * hadoop jar webindex-mr-jobs-job.jar io.webindex.fluo.FluoOracleTool \
 *     --webindex-conf FILE [--app NAME]
 * </pre>
 *
 * Exit status: 2 a usage error or refused (e.g. the application is not initialised); stopped by a
 * signal, the JVM exits with the signal's status (143 for SIGTERM, 130 for Ctrl-C) once the oracle
 * stopped.
 */
public final class FluoOracleTool extends FluoServiceTool {
  public FluoOracleTool() {
    super();
  }

  public FluoOracleTool(PrintWriter out, PrintWriter err) {
    super(out, err);
  }

  public static void main(String[] args) throws Exception {
    ToolMain.exit("fluo-oracle", new FluoOracleTool(), args);
  }

  /** Checks the arguments as {@link #run} would. @throws IllegalArgumentException if refused */
  public static void parseArgs(String[] args) {
    ToolConfig.args(args, java.util.Set.of("app"), java.util.Set.of());
  }

  @Override
  String name() {
    return "fluo-oracle";
  }

  @Override
  String usage() {
    return "usage: FluoOracleTool --webindex-conf FILE [--app NAME]\n";
  }

  @Override
  void serve(WebindexConfig cfg, String app, Args a, LoadTool.StopSignal stop)
      throws InterruptedException {
    FluoServices.runOracle(cfg, app, stop, err);
  }

  @Override
  void follow(WebindexConfig cfg, Args a, LoadTool.StopSignal stop) throws InterruptedException {
    FluoServices.runFollowing(cfg, FluoServices.Role.ORACLE, null, stop, err);
  }
}
