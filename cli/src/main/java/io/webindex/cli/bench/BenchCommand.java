package io.webindex.cli.bench;

import io.webindex.cli.Cli;
import io.webindex.cli.Command;
import io.webindex.cli.ExitCodes;
import java.util.List;

/**
 * {@code bin/webindex bench}: the stages timed on the embedded instance, on a synthetic web,
 * through the same commands an operator runs; prints a table of figures and writes them as JSON.
 *
 * <p>{@link BenchRun} runs the stages ({@link InputStage}, {@link RecomputeStage} with {@link
 * FloorStage}, {@link CheckStage}, {@link LoadStage}, {@link LatencyStage}, {@link GuardStage})
 * through {@link Steps}; {@link BenchTable} prints the figures.
 */
public final class BenchCommand implements Command {
  private final Command.Dispatcher dispatcher;

  /**
   * @param dispatcher runs the commands the bench times, as {@code bin/webindex} runs them
   */
  public BenchCommand(Command.Dispatcher dispatcher) {
    this.dispatcher = dispatcher;
  }

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String summary() {
    return "time recompute, load, latency and check on a synthetic web, embedded";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex bench recompute|load|latency|check|all [--pages N] [--seed S]
                                  [--delta-pages M] [--deltas K] [--samples L] [--out DIR]
                                  [--keep]

        Starts an embedded Accumulo in a temporary directory, writes a synthetic web of N
        pages there (as bin/webindex gen does) and times the stages through the same
        commands an operator runs:
          recompute  the batch recompute of batch 0, end to end (bulk import included),
                     and the single-pass floor measured in the same run: parsing every
                     input file once and writing as many sorted cells to one RFile
          check      the consistency check of the recomputed table against a clone of it
          load       fluo-init from the recompute, then K delta batches of M page versions
                     (re-crawls, new pages, deletions, stale versions) through
                     load --embedded
          latency    fluo-init from the recompute (unless load ran), then the application
                     runs embedded while, L times on an idle system, a batch of one new
                     page linking to a crawled page is applied as load applies batches;
                     each sample is the time from the start of applying it until the
                     served table holds the page's page:cur cell and its inlink cell in
                     the target's row (polled every 5 ms; not visible within 30 s is a
                     failure); reports p50, p90, p99, max and mean
          all        all four
        Every stage needs the recompute of batch 0, so it always runs. After load and
        latency, a recompute of every batch and the check of the Fluo-maintained table
        against it run once; its verdict is reported with each of them. Prints a table
        of the figures (throughput, time, peak heap of this JVM in use and right after a
        GC, its peak RSS, the peak RSS of every process the embedded instance started,
        input size, machine) and writes it to DIR/bench.json. Exits 0 unless a stage
        failed (never because of slowness; an inconsistent check after load or latency,
        or a sample never visible, is a failure).

        options:
          --pages N        pages of the initial crawl (default 100000)
          --seed S         the synthetic web's seed (default 1)
          --deltas K       delta batches for load (default 4)
          --delta-pages M  page versions per delta batch (default N/20, at least 1)
          --samples L      latency samples (default 50)
          --out DIR        where bench.json goes (default bench-out)
          --keep           keep the temporary directory (its path is printed)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    BenchOptions options = BenchOptions.parse(raw, ctx);
    BenchRun.Result r = new BenchRun(ctx, new Steps(dispatcher, ctx), options).run();
    ctx.out().print(BenchTable.format(r.figures()));
    ctx.out().println("figures: " + r.json());
    return r.failed() ? ExitCodes.FAILED : ExitCodes.OK;
  }
}
