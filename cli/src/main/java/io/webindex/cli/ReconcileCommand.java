package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.Cutover;
import io.webindex.fluo.ReconcileTool;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** {@code reconcile}: cut-over to a batch run (a shell over {@link ReconcileTool}). */
final class ReconcileCommand implements Command {
  @Override
  public String name() {
    return "reconcile";
  }

  @Override
  public String summary() {
    return "cut over to a batch run: re-seed Fluo, switch the served table";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex reconcile --run ID [--embedded] [--wait SECONDS] [--conf FILE]

        Makes the live side equal to the batch truth of run ID: starts a new Fluo application
        <webindex.fluo.app>_<ID> from the run's seed (its exporter writes to the run's table),
        applies the batches newer than the run's snapshot to that table, and then makes the
        table and the application the served ones in one atomic step; the previously served
        table and its application are kept. Finally applies the retention: drops the tables,
        work directories (with the Fluo seeds) and Fluo applications of runs older than the
        newest webindex.retention.runs successful ones, and of runs left RUNNING for over 24 h
        (never the served table, the one served before it, or their applications).

        Safe to repeat: when an application of run ID already exists (an earlier reconcile or
        fluo-init of the same run, finished or interrupted), it is resumed, not seeded again; a
        table that an application maintained is never seeded again. If any step before the
        switch fails, the served table and the running Fluo application stay as they were.

          --run ID       the successful batch run to cut over to
          --embedded     run the Fluo workers in this process (MiniFluo) to catch up; without it
                         they must run as their own processes: when batches are pending and no
                         worker of the application shows up in time, it says what to start and
                         exits with status 3 (run it again once they run)
          --wait S       how long to wait for the oracle and workers to run, and again, once
                         the pending batches are loaded, for them to export them (default 20
                         seconds each)
          --conf FILE    webindex configuration (default: conf/webindex.properties, else the
                         running `bin/webindex dev` instance)

        exit status: 0 switched (or already served), 2 refused before the switch, 3 waiting for
        the application's oracle and workers, or Accumulo unavailable (run it again later)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args = Args.parse(raw, Set.of(Cli.CONF_OPTION, "run", "wait"), Set.of("embedded"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "");
    String runId = args.required("run", "the batch run to cut over to");
    WebindexConfig cfg = ctx.config(args.value(Cli.CONF_OPTION).orElse(null)).config();
    Cutover.Result r =
        new Cutover(cfg, ctx.hadoopConf(), ctx.err())
            .run(ReconcileTool.options(cfg, runId, args.has("embedded"), wait(args)));
    return new ReconcileTool(ctx.out(), ctx.err()).finish(cfg, r);
  }

  /** {@code --wait SECONDS}: how long to wait for the application's workers. */
  static Duration wait(Args args) {
    int s = args.intValue("wait", (int) Cutover.WORKER_WAIT.toSeconds());
    if (s < 0) {
      throw new UsageException("--wait takes a number of seconds");
    }
    return Duration.ofSeconds(s);
  }
}
