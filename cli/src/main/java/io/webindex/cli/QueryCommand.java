package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.schema.QuerySchema;
import io.webindex.store.QueryAnswers;
import io.webindex.store.QueryService;
import io.webindex.store.QueryService.DomainAnswer;
import io.webindex.store.QueryService.Inlink;
import io.webindex.store.QueryService.InlinksAnswer;
import io.webindex.store.QueryService.RankedUri;
import io.webindex.store.QueryService.TopAnswer;
import java.io.PrintWriter;
import java.util.List;
import java.util.Set;

/**
 * {@code bin/webindex query top|domain|inlinks}: the three questions (docs/web.md), paged and
 * decoded.
 */
final class QueryCommand implements Command {
  static final int DEFAULT_LIMIT = 10;

  @Override
  public String name() {
    return "query";
  }

  @Override
  public String summary() {
    return "answer top | domain <domain> | inlinks <url> from a query table, paged";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex query top              [--table T] [--limit N] [--after CURSOR]
               bin/webindex query domain <domain>  [--table T] [--limit N] [--after CURSOR]
               bin/webindex query inlinks <url>    [--table T] [--limit N] [--after CURSOR]
               (each also takes --conf FILE and --json)

          top               the pages referenced by the most pages, one per line:
                              <count><TAB><url>
          domain <domain>   a header line 'domain <reversed domain>  pagecount <n>', then the
                            domain's pages, most referenced first: <count><TAB><url>
                            (<domain>: a host such as www.bbc.co.uk, a domain such as
                            bbc.co.uk, a URL, or a reversed domain such as uk.co.bbc)
          inlinks <url>     a header line 'page <url>  incount <n>', then the pages that
                            link to <url>: <url><TAB><anchor text>
                            (<url>: no scheme means http://; a URI key such as
                            com.c/page1 works too)

        When more results follow, the last line is 'next: --after CURSOR': run the same
        command with --after CURSOR for the next page. With --json the answer is one JSON
        object instead, the same as the web application's /api/v1 answer (docs/web.md),
        with "next" the cursor or null.

        options:
          --table T         the query table to read (default: the served table)
          --limit N         results per page, 1 to 10000 (default 10)
          --after CURSOR    start after the page that printed this cursor
          --conf FILE       the configuration to use (see bin/webindex help)
          --json            print the answer as JSON
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) {
    Args args = Args.parse(raw, Set.of("table", "limit", "after", Cli.CONF_OPTION), Set.of("json"));
    boolean json = args.has("json");
    List<String> pos = args.positionals();
    if (pos.isEmpty()) {
      throw new UsageException("missing question: top, domain <domain> or inlinks <url>");
    }
    String question = pos.get(0);
    String subject;
    switch (question) {
      case "top" -> {
        args.expectPositionals(1, "");
        subject = null;
      }
      case "domain" -> subject = args.expectPositionals(2, "<domain> after 'query domain'").get(1);
      case "inlinks" -> subject = args.expectPositionals(2, "<url> after 'query inlinks'").get(1);
      default ->
          throw new UsageException(
              "unknown question '" + question + "': top, domain <domain> or inlinks <url>");
    }
    String table = ctx.tableOrServed(args.value("table"), args.value(Cli.CONF_OPTION).orElse(null));
    int limit = args.intValue("limit", DEFAULT_LIMIT);
    if (limit < 1 || limit > QueryService.MAX_LIMIT) {
      throw new UsageException("--limit must be between 1 and " + QueryService.MAX_LIMIT);
    }
    String after = args.value("after").orElse(null);
    QueryService service =
        new QueryService(ctx.connect(args.value(Cli.CONF_OPTION).orElse(null)), table);
    PrintWriter out = ctx.out();
    String next;
    switch (question) {
      case "top" -> {
        TopAnswer a = service.top(limit, after);
        if (json) {
          return printJson(out, QueryAnswers.top(table, a));
        }
        printRanked(out, a.uris());
        next = a.next();
      }
      case "domain" -> {
        DomainAnswer a = service.domain(subject, limit, after);
        if (json) {
          return printJson(out, QueryAnswers.domain(table, a));
        }
        out.println(
            header(QuerySchema.FAM_DOMAIN, a.domain(), QuerySchema.QUAL_PAGECOUNT, a.pageCount()));
        printRanked(out, a.uris());
        next = a.next();
      }
      default -> {
        InlinksAnswer a = service.inlinks(subject, limit, after);
        if (json) {
          return printJson(out, QueryAnswers.inlinks(table, a));
        }
        out.println(header(QuerySchema.FAM_PAGE, a.url(), QuerySchema.QUAL_INCOUNT, a.incount()));
        for (Inlink i : a.inlinks()) {
          out.println(i.url() + "\t" + i.anchor());
        }
        next = a.next();
      }
    }
    if (next != null) {
      out.println("next: --after " + next);
    }
    return 0;
  }

  private static int printJson(PrintWriter out, Object answer) {
    out.println(RecomputeCommand.json(answer));
    return 0;
  }

  /**
   * The header of a domain or inlinks answer, named after the cell the count comes from: {@code
   * domain <domain> pagecount <n>}, {@code page <url> incount <n>}.
   */
  private static String header(String family, String subject, String qualifier, long count) {
    return family + " " + subject + "  " + qualifier + " " + count;
  }

  private static void printRanked(PrintWriter out, List<RankedUri> uris) {
    for (RankedUri u : uris) {
      out.println(u.urc() + "\t" + u.url());
    }
  }
}
