package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.schema.FrontierOpsSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.FrontierQuery;
import io.webindex.store.FrontierQuery.Due;
import io.webindex.store.FrontierQuery.FrontierAnswer;
import io.webindex.store.QueryAnswers;
import io.webindex.store.QueryService;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code bin/webindex frontier}: what a fetcher would get next from the frontier table of a query
 * table, without taking leases ({@link FrontierQuery}), and the frontier's totals.
 */
final class FrontierCommand implements Command {
  @Override
  public String name() {
    return "frontier";
  }

  @Override
  public String summary() {
    return "the next URLs due in the crawl frontier (no leases taken), its totals";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex frontier [--limit N] [--per-host K] [--at TIME] [--table T]
                                     [--conf FILE] [--json]

        Prints what a fetcher would get next from the crawl frontier of the query table
        (<table>_frontier), without taking leases: the URLs due at TIME, at most K of each
        queue (a queue is a host), the queues served in turn (the queue whose first URL is
        the most overdue first, one URL of each queue per round) until N URLs. URLs that
        the frontier service (frontier-serve) has handed out and not got back (in flight)
        and queues it holds (blocked, or all of them while it is inactive) are left out:

          <due><TAB><urc><TAB><queue><TAB><url>
          queues <n>  urls <n>  due <n>  due-queues <n>  in-flight <n>  blocked-queues <n>
          skipped <n>  at <time>

        <due> is the instant the URL is due, or 'now' for a URL never crawled (due at
        once); <urc> is its priority (the pages linking to it). The last line (one line)
        counts the whole frontier: its queues, its URLs, the URLs due at TIME, the queues
        with a URL due, the URLs in flight and the queues blocked at TIME, and the cells
        skipped because they do not decode; 'inactive' follows the blocked queues while the
        service hands out nothing. With --json the answer is one JSON object instead, the
        same as the web application's /api/v1/frontier answer (docs/web.md).

        options:
          --limit N         URLs to print, 1 to 10000 (default 10)
          --per-host K      URLs of one queue at most, 1 to 10000 (default 1)
          --at TIME         due at or before this ISO-8601 instant, e.g.
                            2026-12-01T00:00:00Z (default: now)
          --table T         the query table whose frontier to read (default: the served table)
          --conf FILE       the configuration to use (see bin/webindex help)
          --json            print the answer as JSON
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) {
    Args args =
        Args.parse(
            raw, Set.of("table", "limit", "per-host", "at", Cli.CONF_OPTION), Set.of("json"));
    args.noPositionals();
    int limit = args.intValue("limit", QueryCommand.DEFAULT_LIMIT);
    if (limit < 1 || limit > QueryService.MAX_LIMIT) {
      throw new UsageException("--limit must be between 1 and " + QueryService.MAX_LIMIT);
    }
    int perHost = args.intValue("per-host", FrontierQuery.DEFAULT_PER_HOST);
    if (perHost < 1 || perHost > QueryService.MAX_LIMIT) {
      throw new UsageException("--per-host must be between 1 and " + QueryService.MAX_LIMIT);
    }
    long at = args.value("at").map(FrontierCommand::instant).orElseGet(System::currentTimeMillis);
    String conf = args.value(Cli.CONF_OPTION).orElse(null);
    String table = ctx.tableOrServed(args.value("table"), conf);
    QueryService service = new QueryService(ctx.connect(conf), table);
    FrontierAnswer a =
        service.frontier(
            at,
            limit,
            perHost,
            FrontierOpsSchema.opsTable(ctx.config(conf).config().tablePrefix()));
    PrintWriter out = ctx.out();
    if (args.has("json")) {
      out.println(RecomputeCommand.json(QueryAnswers.frontier(table, a)));
      return ExitCodes.OK;
    }
    for (String line : lines(a)) {
      out.println(line);
    }
    return ExitCodes.OK;
  }

  /** An ISO-8601 instant from 1970 on, in epoch milliseconds; anything else is a usage error. */
  static long instant(String raw) {
    long ms;
    try {
      ms = Instant.parse(raw.strip()).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      ms = -1;
    }
    if (ms < 0) {
      throw new UsageException(
          "--at must be an ISO-8601 instant from 1970 on, such as 2026-12-01T00:00:00Z: " + raw);
    }
    return ms;
  }

  /** The text form of an answer (see {@link #usage}). */
  static List<String> lines(FrontierAnswer a) {
    List<String> out = new ArrayList<>(a.urls().size() + 1);
    for (Due d : a.urls()) {
      long due = d.entry().dueMillis();
      out.add(
          (due == 0 ? "now" : HistorySchema.iso(due))
              + "\t"
              + d.entry().urc()
              + "\t"
              + d.entry().queue()
              + "\t"
              + d.url());
    }
    out.add(
        "queues "
            + a.queues()
            + "  urls "
            + a.urlCount()
            + "  due "
            + a.due()
            + "  due-queues "
            + a.dueQueues()
            + "  in-flight "
            + a.inFlight()
            + "  blocked-queues "
            + a.blockedQueues()
            + (a.active() ? "" : "  inactive")
            + "  skipped "
            + a.skipped()
            + "  at "
            + HistorySchema.iso(a.atMillis()));
    return out;
  }
}
