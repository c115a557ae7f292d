package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.StoreException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Set;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;

/** What {@link FluoInitTool} and {@link ReconcileTool} share: arguments, running, exit status. */
abstract class CutoverTool extends Configured implements Tool {
  /** Exit status: done. */
  public static final int OK = 0;

  /** Exit status: a usage error, or refused before anything served changed. */
  public static final int REFUSED = 2;

  /** Exit status: the application waits for its oracle and workers; run again once they run. */
  public static final int WAITING = 3;

  protected final PrintWriter out;
  protected final PrintWriter err;

  CutoverTool(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  abstract String name();

  abstract String usage();

  abstract Set<String> flags();

  abstract Cutover.Options options(WebindexConfig cfg, ToolArgs args);

  public abstract void report(WebindexConfig cfg, Cutover.Result r);

  /** {@code --wait SECONDS}: how long to wait for the application's workers. */
  static Duration workerWait(ToolArgs args) {
    return Duration.ofSeconds(args.longValue("wait", Cutover.WORKER_WAIT.toSeconds()));
  }

  static ToolArgs parse(String[] args, Set<String> flags) {
    ToolArgs a = ToolArgs.parse(args, Set.of("run", "wait"), flags);
    if (!a.help) {
      a.required("run");
      workerWait(a);
    }
    return a;
  }

  @Override
  public int run(String[] args) throws Exception {
    try {
      ToolArgs a = parse(args, flags());
      if (a.help) {
        out.print(usage());
        return OK;
      }
      WebindexConfig cfg = a.config(getConf());
      Cutover.Result r = new Cutover(cfg, getConf(), err).run(options(cfg, a));
      return finish(cfg, r);
    } catch (IllegalArgumentException | StoreException | UncheckedIOException e) {
      err.println(name() + ": " + e.getMessage());
      return REFUSED;
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
