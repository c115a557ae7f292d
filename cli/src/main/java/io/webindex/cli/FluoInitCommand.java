package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/** {@code fluo-init}: (re)initialises the Fluo application from a batch run. */
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
        usage: bin/webindex fluo-init --run ID [--conf FILE]

        Initialises the Fluo application webindex.fluo.app afresh from the successful batch run
        ID: clears the application's Fluo table (<prefix>_fluo) and ZooKeeper state, configures
        its observers and queues, points its exporter at the run's query table, and bulk imports
        the run's Fluo seed (which holds the resume point: the run's snapshot). Run it while no
        worker of the application is running. The run's table becomes the served table (the one
        query and dump read by default). Then apply the newer batches with `bin/webindex load`
        (--embedded runs the workers in that process).

          --run ID      the batch run to start from (see its record in <prefix>_meta)
          --conf FILE   webindex configuration (default: conf/webindex.properties, else the
                        running `bin/webindex dev` instance)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args = Args.parse(raw, Set.of(Cli.CONF_OPTION, "run"), Set.of());
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "");
    String runId = args.required("run", "the batch run to start from");
    WebindexConfig cfg = ctx.config(args.value(Cli.CONF_OPTION).orElse(null)).config();
    RunRegistry runs = new RunRegistry(AccumuloConnections.connect(cfg), cfg.metaTable());
    RunRecord run =
        runs.get(runId)
            .orElseThrow(() -> new UsageException("no run " + runId + " in " + cfg.metaTable()));
    WebindexApp.initializeFromRun(cfg, run, new Configuration());
    runs.serve(run, cfg.fluoApp());
    ctx.out()
        .printf(
            "Fluo application %s initialised from run %s (snapshot %d); it exports to %s, now the served table%n",
            cfg.fluoApp(), run.runId(), run.snapshot(), run.table());
    return 0;
  }
}
