package io.webindex.cli;

import io.webindex.check.CheckTool;
import io.webindex.core.args.Args;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.util.ToolRunner;

/** {@code check}: the consistency check of mr-jobs, on the configured Accumulo. */
final class CheckCommand implements Command {
  @Override
  public String name() {
    return "check";
  }

  @Override
  public String summary() {
    return "compare a batch run's table with the Fluo-maintained table";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex check --run ID (--actual TABLE | --served [--settle S]) [--applied A]
                                  [--mode M] [--out DIR] [--fluo [--embedded]] [--conf FILE]
                                  [--json]

        Compares the query table of batch run ID (the truth) with TABLE (the Fluo-maintained
        table), cell for cell, and checks both tables' invariants (pagecount = rank columns,
        incount = inlinks columns, one t: row and one rank per seen URI with its incount, no
        orphans). Cells that batches newer than the run's snapshot (up to A) may have changed are
        skipped, not reported. Writes DIR/check.json and DIR/check.html and prints a summary.
        Exit status: 0 consistent, 1 inconsistent (only these two are verdicts), 2 a usage or
        configuration error, 3 unavailable for now (Accumulo unreachable, no oracle runs, the live
        side did not settle: run it again later), 4 an unexpected failure.

          --run ID       the batch run to compare against
          --actual TABLE the Fluo-maintained query table
          --served       the served table, as a scheduler checks it while the loader and the
                         Fluo services run: the check learns which batch the application that
                         maintains it has applied, waits until none of its work is in flight
                         (notifications not yet exported), and skips what the batches after the
                         snapshot changed (up to the newest complete one: the loader may apply
                         it meanwhile); the report says what it waited for and skipped. Needs
                         the application's oracle running
          --settle S     with --served: wait at most S seconds for the live side, its oracle
                         included (default 300)
          --applied A    the highest batch the Fluo application applied (default: the run's
                         snapshot, i.e. the loader was paused there; with --served: learned)
          --mode M       auto (default), files (one process reading clones of both tables'
                         files, and of their history and frontier tables; needs CREATE_TABLE
                         and WRITE on all of them), scanner (one process reading through the
                         tablet servers) or mapreduce (one map task per tablet; for tables
                         that do not fit one process); auto is scanner below 1M query cells
                         (the run's), files from there (scanner where files cannot be read), or
                         mapreduce beyond 50M cells when jobs run on a cluster (not on the local
                         job runner)
          --out DIR      where the reports go (default: the working directory)
          --fluo         also compare the Fluo table (of the application maintaining the served
                         table) with the run's Fluo seed; needs the application to have applied
                         exactly the run's batches, and its oracle running (without one it
                         stops at once, exit status 3, naming what to start)
          --embedded     with --fluo: run the application's oracle in this process
          --conf FILE    webindex configuration (default: conf/webindex.properties, else the
                         running `bin/webindex dev` instance)
          --json         print the report (DIR/check.json) instead of the summary
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(
            raw,
            Set.of(Cli.CONF_OPTION, "run", "actual", "applied", "mode", "out", "settle"),
            Set.of("fluo", "embedded", "json", "served"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "");
    Cli.Loaded loaded = ctx.config(args.value(Cli.CONF_OPTION).orElse(null));
    List<String> toolArgs = new ArrayList<>(List.of("--webindex-conf", loaded.source().toString()));
    toolArgs.addAll(List.of("--run", args.required("run", "the batch run")));
    if (args.has("served")) {
      toolArgs.add("--served");
      args.value("actual").ifPresent(v -> toolArgs.addAll(List.of("--actual", v)));
    } else {
      toolArgs.addAll(List.of("--actual", args.required("actual", "the Fluo-maintained table")));
    }
    args.value("settle").ifPresent(v -> toolArgs.addAll(List.of("--settle", v)));
    args.value("applied").ifPresent(v -> toolArgs.addAll(List.of("--applied", v)));
    args.value("mode").ifPresent(v -> toolArgs.addAll(List.of("--mode", v)));
    if (args.has("fluo")) {
      toolArgs.add("--fluo");
    }
    if (args.has("embedded")) {
      toolArgs.add("--embedded");
    }
    toolArgs.addAll(
        List.of(
            "--out",
            args.value("out")
                .map(o -> ctx.userPath(o).toString())
                .orElse(ctx.userPath(".").toString())));
    ctx.out().flush();
    boolean json = args.has("json");
    PrintStream out =
        json
            ? new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8)
            : new PrintStream(ctx.rawOut(), true, StandardCharsets.UTF_8);
    int status =
        ToolRunner.run(ctx.hadoopConf(), new CheckTool(out), toolArgs.toArray(new String[0]));
    if (json && (status == 0 || status == CheckTool.INCONSISTENT)) {
      ctx.out().print(Files.readString(Path.of(toolArgs.get(toolArgs.size() - 1), "check.json")));
    }
    return status;
  }
}
