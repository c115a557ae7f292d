package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.history.Crawl;
import io.webindex.core.history.Schedule;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.HistoryQuery.HistoryAnswer;
import io.webindex.store.HistoryQuery.KeptCrawl;
import io.webindex.store.HistoryQuery.UrcPoint;
import io.webindex.store.QueryAnswers;
import io.webindex.store.QueryService;
import io.webindex.store.StoreException;
import io.webindex.web.Overview;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code bin/webindex history <url>}: a page's crawl history from the history table of a query
 * table: its refetch schedule, its kept crawls newest first (paged as {@code query} pages), its urc
 * series.
 */
final class HistoryCommand implements Command {
  @Override
  public String name() {
    return "history";
  }

  @Override
  public String summary() {
    return "a page's crawl history: schedule, crawls (paged), urc series";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex history <url> [--table T] [--limit N] [--after CURSOR]
                                          [--conf FILE] [--json]

        Prints the crawl history of <url> (no scheme means http://; a URI key such as
        com.c/page1 works too), read from the history table of the query table
        (<table>_history):

          page <url>  crawls <n>  changes <n>
          first <time>  last <time>  modified <time>
          interval <seconds> s (<readable>)  next fetch <time>
          <time><TAB><ok|gone><TAB><change><TAB><signature><TAB><outlinks>   (newest first)
          urc<TAB><run start><TAB><count>                                 (oldest first)

        <change> is changed or unchanged (against the crawl before it), first (the page's
        first crawl) or unknown (the crawl before it is no longer kept); a gone crawl's
        signature is '-'. A page that was only linked to, never crawled, prints
        'page <url>  never crawled' and its urc series. When more crawls follow, the last
        line is 'next: --after CURSOR': run the same command with --after CURSOR for the
        next page. With --json the answer is one JSON object instead, the same as the web
        application's /api/v1/history answer (docs/web.md).

        A page the history table does not know is an error (exit status 2).

        options:
          --table T         the query table whose history to read (default: the served table)
          --limit N         crawls per page, 1 to 10000 (default 10)
          --after CURSOR    start after the page that printed this cursor
          --conf FILE       the configuration to use (see bin/webindex help)
          --json            print the answer as JSON
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) {
    Args args = Args.parse(raw, Set.of("table", "limit", "after", Cli.CONF_OPTION), Set.of("json"));
    String url = args.expectPositionals(1, "<url>").get(0);
    String conf = args.value(Cli.CONF_OPTION).orElse(null);
    String table = ctx.tableOrServed(args.value("table"), conf);
    int limit = args.intValue("limit", QueryCommand.DEFAULT_LIMIT);
    if (limit < 1 || limit > QueryService.MAX_LIMIT) {
      throw new UsageException("--limit must be between 1 and " + QueryService.MAX_LIMIT);
    }
    String after = args.value("after").orElse(null);
    QueryService service = new QueryService(ctx.connect(conf), table);
    HistoryAnswer a = service.history(url, limit, after);
    if (!a.known()) {
      throw new StoreException("no crawl history of " + a.url() + " in table '" + a.table() + "'");
    }
    PrintWriter out = ctx.out();
    if (args.has("json")) {
      out.println(RecomputeCommand.json(QueryAnswers.history(table, a)));
      return ExitCodes.OK;
    }
    for (String line : lines(a)) {
      out.println(line);
    }
    return ExitCodes.OK;
  }

  /** The text form of one page of a history (see {@link #usage}). */
  static List<String> lines(HistoryAnswer a) {
    List<String> out = new ArrayList<>();
    Schedule s = a.schedule();
    if (s == null) {
      out.add("page " + a.url() + "  never crawled");
    } else {
      out.add("page " + a.url() + "  crawls " + s.crawls() + "  changes " + s.changes());
      out.add(
          "first "
              + HistorySchema.iso(s.firstCrawlMillis())
              + "  last "
              + HistorySchema.iso(s.lastCrawlMillis())
              + "  modified "
              + HistorySchema.iso(s.lastModifiedMillis()));
      out.add(
          "interval "
              + s.intervalSeconds()
              + " s ("
              + Overview.duration(s.intervalSeconds())
              + ")  next fetch "
              + HistorySchema.iso(s.nextFetchMillis()));
    }
    for (KeptCrawl k : a.crawls()) {
      Crawl c = k.crawl();
      out.add(
          HistorySchema.iso(c.crawledMillis())
              + "\t"
              + c.status().code()
              + "\t"
              + k.change().word()
              + "\t"
              + (c.signature().isEmpty() ? HistorySchema.NO_SIGNATURE : c.signature())
              + "\t"
              + c.outlinks());
    }
    for (UrcPoint p : a.urc()) {
      out.add("urc\t" + HistorySchema.iso(p.runMillis()) + "\t" + p.urc());
    }
    if (a.next() != null) {
      out.add("next: --after " + a.next());
    }
    return out;
  }
}
