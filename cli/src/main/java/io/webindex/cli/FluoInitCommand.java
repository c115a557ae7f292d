package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.Cutover;
import io.webindex.fluo.FluoInitTool;
import java.util.List;
import java.util.Set;

/**
 * {@code fluo-init}: starts the configured Fluo application from a batch run ({@link
 * FluoInitTool}).
 */
final class FluoInitCommand implements Command {
  @Override
  public String name() {
    return "fluo-init";
  }

  @Override
  public String summary() {
    return "initialise the Fluo application from a batch run's seed";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex fluo-init --run ID [--embedded] [--force] [--wait SECONDS] [--conf FILE]

        Initialises the Fluo application webindex.fluo.app from the successful batch run ID:
        configures its observers and queues, points its exporter at the run's query table, and
        bulk imports the run's Fluo seed (which holds the resume point: the run's snapshot).
        Then it applies the batches newer than the snapshot, and only then makes the run's
        table the served table (the one query and dump read by default).

        It checks before it changes anything: the run succeeded, its seed is there and was laid
        out with webindex.fluo.buckets buckets, and no application maintained its table yet.
        When the application exists already (for another run, or serving), it refuses unless
        --force is given; when it was started from the same run, it is resumed instead.

          --run ID      the batch run to start from (see its record in <prefix>_meta)
          --embedded    run the application's workers in this process (MiniFluo) to catch up;
                        without it, when batches are pending, its oracle and workers must run
                        as their own processes: it waits for them, else says what to start and
                        exits with status 3 (run it again once they run)
          --wait S      how long to wait for the oracle and workers to run, and again, once
                        the pending batches are loaded, for them to export them (default 20
                        seconds each)
          --force       re-initialise an existing application (its state is discarded; the
                        table it maintained is no longer kept up to date)
          --conf FILE   webindex configuration (default: conf/webindex.properties, else the
                        running `bin/webindex dev` instance)

        exit status: 0 done, 2 refused (nothing served changed), 3 waiting for the
        application's oracle and workers, or Accumulo unavailable (run it again later)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(raw, Set.of(Cli.CONF_OPTION, "run", "wait"), Set.of("embedded", "force"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "");
    String runId = args.required("run", "the batch run to start from");
    WebindexConfig cfg = ctx.config(args.value(Cli.CONF_OPTION).orElse(null)).config();
    Cutover.Result r =
        new Cutover(cfg, ctx.hadoopConf(), ctx.err())
            .run(
                FluoInitTool.options(
                    cfg,
                    runId,
                    args.has("embedded"),
                    args.has("force"),
                    ReconcileCommand.wait(args)));
    return new FluoInitTool(ctx.out(), ctx.err()).finish(cfg, r);
  }
}
