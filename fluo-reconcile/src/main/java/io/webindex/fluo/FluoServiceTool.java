package io.webindex.fluo;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.StopOnSignal;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;

/**
 * What {@link FluoOracleTool} and {@link FluoWorkerTool} share: arguments, running until SIGTERM or
 * Ctrl-C (a {@link StopOnSignal} stops the service cleanly), exit status.
 */
abstract class FluoServiceTool extends Configured implements Tool {
  /** Exit status: stopped on request. */
  public static final int OK = 0;

  /** Exit status: a usage error, or refused before the service started. */
  public static final int REFUSED = 2;

  protected final PrintWriter out;
  protected final PrintWriter err;
  private final CountDownLatch stop = new CountDownLatch(1);

  FluoServiceTool() {
    this(
        ReconcileTool.stdout(),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
  }

  FluoServiceTool(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  abstract String name();

  abstract String usage();

  Set<String> valueOptions() {
    return Set.of("app");
  }

  abstract void serve(WebindexConfig cfg, String app, Args a, LoadTool.StopSignal stop)
      throws InterruptedException;

  /**
   * Without {@code --app}: serves every application that has to run ({@link
   * FluoServices#runFollowing}).
   */
  abstract void follow(WebindexConfig cfg, Args a, LoadTool.StopSignal stop)
      throws InterruptedException;

  /** Checks the options as {@link #run} does; the worker's override checks its own. */
  void check(Args a) {}

  /** Stops the service (as SIGTERM does). */
  public void requestStop() {
    stop.countDown();
  }

  @Override
  public int run(String[] args) throws Exception {
    StopOnSignal signal = null;
    try {
      Args a = ToolConfig.args(args, valueOptions(), Set.of());
      if (a.helpRequested()) {
        out.print(usage());
        return OK;
      }
      check(a);
      WebindexConfig cfg = ToolConfig.load(getConf(), a, "webindex.mr.");
      java.util.Optional<String> pinned = a.value("app").filter(x -> !x.isBlank());
      // with --app: that application for the process's whole life, refused when not initialised
      String app = pinned.isPresent() ? FluoServices.application(cfg, pinned) : null;
      signal = new StopOnSignal(this::requestStop);
      LoadTool.StopSignal stopped = millis -> stop.await(millis, TimeUnit.MILLISECONDS);
      if (app != null) {
        serve(cfg, app, a, stopped);
      } else {
        follow(cfg, a, stopped);
      }
      return OK;
    } catch (Exception e) {
      return ToolMain.fail(name(), e, err);
    } finally {
      if (signal != null) {
        signal.close();
      }
      out.flush();
      err.flush();
    }
  }
}
