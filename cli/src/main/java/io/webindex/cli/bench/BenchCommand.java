package io.webindex.cli.bench;

import io.webindex.cli.BuildInfo;
import io.webindex.cli.Cli;
import io.webindex.cli.Command;
import io.webindex.cli.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bin/webindex bench}: the stages timed on the embedded instance, on a synthetic web,
 * through the same commands an operator runs; prints a table of figures and writes them as JSON.
 *
 * <p>{@link BenchRun} runs the stages ({@link InputStage}, {@link RecomputeStage} with {@link
 * FloorStage}, {@link CheckStage}, {@link LoadStage}, {@link LatencyStage}, {@link
 * LatencyUnderLoadStage}, {@link GuardStage}, {@link FrontierStage}) through {@link Steps}; {@link
 * BenchTable} prints the figures.
 */
public final class BenchCommand implements Command {
  /** The history's file name in {@code --out DIR}. */
  static final String HISTORY = "history.jsonl";

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
    return "time recompute, load, latency, check, frontier on a synthetic web";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex bench recompute|load|latency|latency-under-load|check|frontier|all
                                  [--pages N] [--seed S] [--domains D] [--delta-pages M]
                                  [--deltas K] [--samples L] [--frontiers F] [--clients C]
                                  [--seconds T] [--warmup W] [--max-queues Q]
                                  [--max-urls-per-queue U] [--frontier-delay D]
                                  [--out DIR] [--history FILE] [--keep]

        Starts an embedded Accumulo in a temporary directory, writes a synthetic web of N
        pages there (as bin/webindex gen does) and times the stages through the same
        commands an operator runs:
          recompute  the batch recompute of batch 0, end to end (bulk import included),
                     and the single-pass floor measured in the same run: parsing every
                     input file once and writing as many sorted cells to one RFile
          check      the consistency check of the recomputed table against a clone of it
          frontier   the URLFrontier service over the recompute's crawl frontier: F
                     frontier servers in this process (each with its own connection, on a
                     free port) and C crawler clients on threads, each with its own gRPC
                     channel to one of them; each client loops: GetURLs (at most Q queues,
                     U URLs per queue, leased 30 s), then every URL received put back as
                     known, refetchable a day later, on one PutURLs stream, waiting for
                     the acks; W seconds of warm-up, then T seconds measured; reports the
                     frontier's queues (hosts) and URLs, URLs handed out per second,
                     GetURLs calls per second and their latency (p50, p90, p99, max: from
                     the request to the end of its stream), acks per second. The guard: no
                     URL is handed out twice (a duplicate is a failure)
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
          latency-under-load
                     fluo-init from the recompute (unless load or latency ran), then a
                     loader runs embedded, applying each batch as soon as it is complete,
                     while K delta batches of M page versions are written (after those
                     load applied, if it ran) and, as the loader works through each delta,
                     L/K latency samples at random points of it: one-page batches as
                     above, each the next batch; each sample is the time from its batch
                     being complete until the served table holds its cells, so it waits
                     for the rest of the delta ahead of it and behind the observers'
                     backlog (not visible within 120 s is a failure); reports p50, p90,
                     p99, max and mean, and the part until the loader had loaded the
                     sample's batch
          all        all six
        Every stage needs the recompute of batch 0, so it always runs. After load and the
        latency stages, a recompute of every batch and the check of the Fluo-maintained table
        against it run once; its verdict is reported with each of them. Prints a table
        of the figures (throughput, time, peak heap of this JVM in use and right after a
        GC, its peak RSS, the peak RSS of every process the embedded instance started,
        input size, machine, the tablet server's in-memory map: native or java) and
        writes it to DIR/bench.json. Then appends one line for
        the run to its history, DIR/history.jsonl (when, the commit this build was made
        from, the command, machine, input, the guards' verdicts, a stage's error, the
        figures), and draws every run of it into DIR/history.html: one chart per figure,
        runs in order, one line per input size, failed guards and runs marked.
        Exits 0 unless a stage failed (never because of slowness; an inconsistent check
        after load or latency, a sample never visible, or a URL handed out twice is a
        failure).

        options:
          --pages N        pages of the initial crawl (default 100000)
          --seed S         the synthetic web's seed (default 1)
          --domains D      the synthetic web's registrable domains (default N/40; each
                           has up to four hosts: 1000000 pages over 2500 domains have
                           about 10,000 hosts)
          --deltas K       delta batches for load (default 4)
          --delta-pages M  page versions per delta batch (default N/20, at least 1)
          --samples L      latency samples, of each latency stage (default 50)
          --frontiers F    frontier servers (default 2)
          --clients C      crawler clients (default 4)
          --seconds T      seconds the frontier clients are measured (default 30)
          --warmup W       seconds they run before that (default 5)
          --max-queues Q   GetURLs' max_queues (default 10)
          --max-urls-per-queue U
                           GetURLs' max_urls_per_queue (default 10)
          --frontier-delay D
                           the frontier's default delay between two hand-outs of a queue,
                           set with SetDelay before the clients start (default 0: no
                           politeness pause, the service itself is measured)
          --out DIR        where bench.json goes (default bench-out)
          --history FILE   the history to append to, a .jsonl file (default
                           DIR/history.jsonl; the page is FILE with .html for .jsonl):
                           one history for runs into different --out directories
          --keep           keep the temporary directory (its path is printed)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    BenchOptions options = BenchOptions.parse(raw, ctx);
    BenchRun.Result r = new BenchRun(ctx, new Steps(dispatcher, ctx), options).run();
    ctx.out().print(BenchTable.format(r.figures()));
    ctx.out().println("figures: " + r.json());
    Path history = options.history();
    BenchHistory.append(
        history, BenchHistory.entry(r.figures(), r.failed(), r.failure(), BuildInfo.current()));
    List<BenchHistory.Run> runs = BenchHistory.read(history, ctx.err());
    Path page = plotOf(history);
    Files.writeString(page, HistoryPlot.html(runs), StandardCharsets.UTF_8);
    ctx.out()
        .println(
            "history: "
                + history
                + " ("
                + runs.size()
                + (runs.size() == 1 ? " run" : " runs")
                + "), drawn in "
                + page);
    return r.failed() ? ExitCodes.FAILED : ExitCodes.OK;
  }

  /** Where the history's page goes: beside it, {@code .html} for {@code .jsonl}. */
  static Path plotOf(Path history) {
    String name = history.getFileName().toString();
    return history.resolveSibling(name.substring(0, name.length() - ".jsonl".length()) + ".html");
  }
}
