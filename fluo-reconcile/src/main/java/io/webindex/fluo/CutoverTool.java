package io.webindex.fluo;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.exit.ExitStatus;
import io.webindex.store.ToolConfig;
import io.webindex.store.ToolMain;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;

/** What {@link FluoInitTool} and {@link ReconcileTool} share: arguments, running, exit status. */
abstract class CutoverTool extends Configured implements Tool {
  /** Exit status: done. */
  public static final int OK = ExitStatus.OK;

  /** Exit status: a usage error, or refused before anything served changed. */
  public static final int REFUSED = ExitStatus.USAGE;

  /**
   * Exit status: the application waits for its oracle and workers (transient); run again once they
   * run.
   */
  public static final int WAITING = ExitStatus.TRANSIENT;

  protected final PrintWriter out;
  protected final PrintWriter err;

  CutoverTool(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  abstract String name();

  abstract String usage();

  abstract Set<String> flags();

  abstract Cutover.Options options(WebindexConfig cfg, Args args);

  public abstract void report(WebindexConfig cfg, Cutover.Result r);

  /** {@code --wait SECONDS}: how long to wait for the application's workers. */
  static Duration workerWait(Args args) {
    return Duration.ofSeconds(args.nonNegative("wait", Cutover.WORKER_WAIT.toSeconds()));
  }

  static Args parse(String[] args, Set<String> flags) {
    Args a = ToolConfig.args(args, Set.of("run", "wait"), flags);
    if (!a.helpRequested()) {
      a.required("run");
      workerWait(a);
    }
    return a;
  }

  @Override
  public int run(String[] args) throws Exception {
    try {
      Args a = parse(args, flags());
      if (a.helpRequested()) {
        out.print(usage());
        return OK;
      }
      WebindexConfig cfg = ToolConfig.load(getConf(), a, "webindex.mr.");
      Cutover.Result r = new Cutover(cfg, getConf(), err).run(options(cfg, a));
      return finish(cfg, r);
    } catch (Exception e) {
      return ToolMain.fail(name(), e, err);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** Prints the outcome of a cut-over; its exit status. */
  public int finish(WebindexConfig cfg, Cutover.Result r) {
    if (r.waiting() != null) {
      err.println("webindex: " + r.waiting());
      return WAITING;
    }
    report(cfg, r);
    return OK;
  }
}
