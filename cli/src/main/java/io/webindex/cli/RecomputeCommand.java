package io.webindex.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.args.Args;
import io.webindex.mr.RecomputeTool;
import io.webindex.store.QueryAnswers;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.util.ToolRunner;

/** {@code recompute}: the batch recompute of mr-jobs, on the configured Accumulo. */
final class RecomputeCommand implements Command {
  @Override
  public String name() {
    return "recompute";
  }

  @Override
  public String summary() {
    return "recompute the query table from all raw pages into a fresh table";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex recompute [--conf FILE] [--snapshot S] [--run ID [--restart]] [--json]

        Recomputes inlink counts, domain page counts and the t: ranking from every batch <= S of
        the raw page store (webindex.store.root) into a fresh, pre-split table <prefix>_<run>, plus
        the Fluo seed files, with Hadoop's job runner (the local one unless the Hadoop configuration
        names a cluster). Nothing served is touched. The run is recorded in <prefix>_meta.

          --conf FILE     webindex configuration (default: conf/webindex.properties, else the
                          running `webindex dev` instance)
          --snapshot S    read batches 0 to S, each there and complete (default: the last batch
                          before the first one missing or incomplete, which it names)
          --run ID        run id: letters, digits, '_' (default: UTC time yyyyMMddHHmmss);
                          a FAILED run of that id is cleaned up and run again
          --restart       also take over a run left RUNNING (its process was killed): its
                          table and work directory are removed first
          --json          print the run record as JSON (as the web application's /api/v1/runs)
                          instead of the summary

        Exit status: 0 done; 2 a usage or configuration error, missing input, no page accepted, a
        missing or incomplete batch <= S, or an existing run (RUNNING without --restart, or
        SUCCEEDED) or table; 3 Accumulo or HDFS unavailable; 4 a job or the import failed
        (recorded as FAILED, its table dropped).
        On a cluster run the same tool with `hadoop jar` (docs/recompute.md).
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(raw, Set.of(Cli.CONF_OPTION, "snapshot", "run"), Set.of("restart", "json"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return 0;
    }
    args.expectPositionals(0, "nothing");
    Cli.Loaded loaded = ctx.config(args.value(Cli.CONF_OPTION).orElse(null));
    List<String> toolArgs = new ArrayList<>(List.of("--webindex-conf", loaded.source().toString()));
    args.value("snapshot").ifPresent(s -> toolArgs.addAll(List.of("--snapshot", s)));
    args.value("run").ifPresent(r -> toolArgs.addAll(List.of("--run", r)));
    if (args.has("restart")) {
      if (args.value("run").isEmpty()) {
        throw new UsageException("--restart needs the --run it takes over");
      }
      toolArgs.add("--restart");
    }
    ctx.out().flush();
    boolean json = args.has("json");
    PrintStream out =
        json
            ? new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8)
            : new PrintStream(ctx.rawOut(), true, StandardCharsets.UTF_8);
    RecomputeTool tool = new RecomputeTool(out);
    int status = ToolRunner.run(ctx.hadoopConf(), tool, toolArgs.toArray(new String[0]));
    if (json && tool.lastRun().isPresent()) {
      ctx.out().println(json(QueryAnswers.run(tool.lastRun().get())));
    }
    return status;
  }

  static String json(Object value) {
    try {
      return new ObjectMapper().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
