package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.BatchApplier;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.accumulo.core.client.Connector;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.mini.MiniFluo;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * {@code reconcile}: cut-over to a batch run. Re-seeds the Fluo application from the run, applies
 * the batches newer than its snapshot to the run's table, and only then switches the served table
 * (one atomic mutation), keeping the previous one; then applies the retention.
 */
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
        usage: bin/webindex reconcile --run ID [--embedded] [--conf FILE]

        Makes the live side equal to the batch truth of run ID: starts a new Fluo application
        <webindex.fluo.app>_<ID> from the run's seed (its exporter writes to the run's table),
        applies the batches newer than the run's snapshot to that table, and then makes the
        table and the application the served ones in one atomic step; the previously served
        table and its application are kept. Finally drops the tables of runs older than the
        newest webindex.retention.runs successful ones (never the served table or the one served
        before it). If any step before the switch fails, the served table and the running Fluo
        application stay as they were.

          --run ID       the successful batch run to cut over to
          --embedded     run the Fluo workers in this process (MiniFluo) to catch up; without it
                         they must already run (Fluo's own oracle and workers)
          --conf FILE    webindex configuration (default: conf/webindex.properties, else the
                         running `bin/webindex dev` instance)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args = Args.parse(raw, Set.of(Cli.CONF_OPTION, "run"), Set.of("embedded"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "");
    String runId = args.required("run", "the batch run to cut over to");
    WebindexConfig cfg = ctx.config(args.value(Cli.CONF_OPTION).orElse(null)).config();
    Connector conn = AccumuloConnections.connect(cfg);
    RunRegistry runs = new RunRegistry(conn, cfg.metaTable());
    RunRecord run =
        runs.get(runId)
            .orElseThrow(() -> new UsageException("no run " + runId + " in " + cfg.metaTable()));
    if (run.status() != RunRecord.Status.SUCCEEDED) {
      throw new UsageException("run " + runId + " did not succeed (" + run.status() + ")");
    }
    if (!conn.tableOperations().exists(run.table())) {
      throw new UsageException("the table of run " + runId + " (" + run.table() + ") was dropped");
    }
    Configuration hadoop = new Configuration();
    org.apache.hadoop.fs.Path seed = new org.apache.hadoop.fs.Path(run.seedDir());
    FileSystem fs = seed.getFileSystem(hadoop);
    if (!fs.exists(seed)) {
      throw new UsageException("the Fluo seed of run " + runId + " is gone: " + seed);
    }
    String before = runs.served().map(RunRegistry.Served::table).orElse("(none)");

    // a new application for the run: the one maintaining the served table stays as it is until
    // the switch, so a failure before it changes nothing that is served or running
    String current = WebindexApp.currentApp(cfg, conn);
    String app = cfg.fluoApp() + "_" + run.runId();
    if (app.equals(current)) {
      app = app + "_" + System.currentTimeMillis() / 1000;
    }
    FluoConfiguration fc = WebindexApp.initializeFromRun(cfg, run, hadoop, app);
    BatchApplier.Result caughtUp;
    boolean embedded = args.has("embedded");
    Path dataDir = embedded ? Files.createTempDirectory("webindex-fluo-") : null;
    try (MiniFluo mini = embedded ? WebindexApp.startEmbedded(fc, dataDir, 4) : null;
        FluoClient client =
            FluoFactory.newClient(
                mini != null ? mini.getClientConfiguration() : WebindexApp.connection(cfg, app))) {
      caughtUp = new BatchApplier(client, cfg, hadoop, ctx.err()).applyPending(null);
      if (mini != null) {
        mini.waitForObservers();
      }
    } finally {
      if (dataDir != null) {
        EmbeddedAccumulo.deleteRecursively(dataDir);
      }
    }
    RunRegistry.Served now;
    try {
      now = runs.serve(run, app);
    } catch (StoreException e) {
      throw new StoreException(
          "the switch failed; " + before + " is still served: " + e.getMessage(), e);
    }
    List<String> dropped = runs.applyRetention(cfg.retentionRuns());
    ctx.out()
        .printf(
            "served table: %s (run %s, Fluo caught up to batch %d); previous: %s%n",
            now.table(), run.runId(), caughtUp.appliedAfter(), before);
    ctx.out()
        .printf(
            "Fluo application: %s (was %s; stop the old one's workers on a cluster)%n",
            app, current);
    ctx.out()
        .printf(
            "retention (%d runs): %s%n",
            cfg.retentionRuns(),
            dropped.isEmpty() ? "nothing dropped" : "dropped " + String.join(", ", dropped));
    return 0;
  }
}
