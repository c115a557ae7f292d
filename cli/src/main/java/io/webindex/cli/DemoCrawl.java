package io.webindex.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.core.frontier.service.UrlFrontier.UrlInfo;
import io.webindex.core.schema.FrontierOpsSchema;
import io.webindex.core.schema.LocalBatches;
import io.webindex.fluo.BatchApplier;
import io.webindex.fluo.LoadTool;
import io.webindex.store.FrontierQuery;
import io.webindex.store.QueryService;
import io.webindex.store.frontier.AccumuloUrlFrontier;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.accumulo.core.client.Connector;

/**
 * The demo's crawl loop on the served index (docs/frontier.md): shows the frontier's first URLs
 * due, then a crawler takes up to {@code crawl} of them through the URLFrontier operations ({@code
 * GetURLs}, one URL per host), fetches them — each page as the index knows it (unchanged), a page
 * never crawled as found without links — reports each one back ({@code PutURLs}, known, refetchable
 * a day later by its own reckoning), and stores the pages as the next batch, which the Fluo
 * application applies ({@code load --embedded}). The frontier then has them due at their schedule's
 * next fetch: the index's newer crawl supersedes the crawler's own date.
 */
final class DemoCrawl {
  /** The pages the demo's crawler fetched, in the demo's output directory. */
  static final String CRAWL_FILE = "crawl.jsonl";

  static final String FOUND_TITLE = "fetched by the demo's crawler";

  private static final int SHOWN = 10;

  private final Connector conn;
  private final WebindexConfig cfg;
  private final Cli ctx;

  DemoCrawl(Connector conn, WebindexConfig cfg, Cli ctx) {
    this.conn = conn;
    this.cfg = cfg;
    this.ctx = ctx;
  }

  /**
   * Prints the first URLs due on {@code served} (its frontier, one per host), then crawls up to
   * {@code crawl} of them into batch {@code batch} of {@code batchesDir}; {@code out} gets {@link
   * #CRAWL_FILE}.
   */
  void run(String served, int crawl, Path batchesDir, long batch, Path out) throws Exception {
    PrintWriter o = ctx.out();
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    FrontierQuery.FrontierAnswer due =
        new FrontierQuery(conn, served)
            .next(
                now.toEpochMilli(),
                SHOWN,
                1,
                FrontierQuery.readOps(conn, FrontierOpsSchema.opsTable(cfg.tablePrefix())));
    o.printf(
        "4. Which URLs would a crawler fetch next? (%d of %d due, one per host)%n",
        due.urls().size(), due.due());
    if (due.urls().isEmpty()) {
      o.println("   (nothing is due)");
      return;
    }
    for (FrontierQuery.Due d : due.urls()) {
      o.printf("   %-17s urc %-3d %s%n", when(d.entry().dueMillis()), d.entry().urc(), d.url());
    }
    if (crawl == 0) {
      return;
    }
    List<UrlInfo> fetched = new ArrayList<>();
    try (AccumuloUrlFrontier frontier = AccumuloUrlFrontier.open(conn, cfg)) {
      frontier.getUrls(
          new UrlFrontier.GetParams(1, crawl, "", 0, UrlFrontier.DEFAULT_CRAWL), fetched::add);
      if (fetched.isEmpty()) {
        o.println("5. The crawler got no URL (every host within its delay)");
        return;
      }
      byte[] pages = pages(new QueryService(conn, served), fetched, now);
      Files.write(out.resolve(CRAWL_FILE), pages);
      // the crawler reports each URL done before its pages reach the index, as crawlers do
      long refetch = now.plus(1, ChronoUnit.DAYS).getEpochSecond();
      for (UrlInfo u : fetched) {
        UrlFrontier.Ack ack = frontier.put(new UrlFrontier.PutItem(u, false, refetch));
        if (ack != UrlFrontier.Ack.OK) {
          throw new IllegalStateException("the frontier answered " + ack + " for " + u.url());
        }
      }
      LocalBatches.write(batchesDir, batch, Map.of("crawl-00000.jsonl", pages));
      List<BatchApplier.Result> rounds =
          new LoadTool(new PrintWriter(java.io.Writer.nullWriter()), ctx.err())
              .load(cfg, new LoadTool.Options(null, 0, 0, true));
      long applied = rounds.stream().mapToLong(BatchApplier.Result::pages).sum();
      frontier.refresh();
      o.printf(
          "5. The crawler fetched %d %s (batch %d, %d page %s applied by the Fluo"
              + " application); due again:%n",
          fetched.size(),
          fetched.size() == 1 ? "URL" : "URLs",
          batch,
          applied,
          applied == 1 ? "version" : "versions");
      for (UrlInfo u : fetched) {
        String again =
            frontier
                .urlStatus(UrlFrontier.DEFAULT_CRAWL, u.url(), "")
                .map(s -> when(s.refetchableFromSeconds() * 1000))
                .orElse("(not in the frontier)");
        o.printf("   %-17s %s%n", again, u.url());
      }
    }
  }

  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC);

  /** A due time as the demo prints it: "now" for 0, else the minute (UTC). */
  static String when(long millis) {
    return millis == 0 ? "now" : MINUTE.format(Instant.ofEpochMilli(millis));
  }

  /**
   * The fetched pages as JSON lines (docs/input.md), crawled at {@code now}: a page the index has
   * with its title and links as they are (the crawler found it unchanged), another with {@link
   * #FOUND_TITLE} and no links.
   */
  static byte[] pages(QueryService q, List<UrlInfo> fetched, Instant now) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    JsonFactory json = new JsonFactory();
    for (UrlInfo u : fetched) {
      QueryService.PageAnswer p = q.page(u.url());
      try (JsonGenerator g = json.createGenerator(bytes)) {
        g.writeStartObject();
        g.writeStringField("url", u.url());
        g.writeStringField("crawled", now.toString());
        boolean crawled = p.crawled() != null;
        g.writeStringField("title", crawled ? p.title() : FOUND_TITLE);
        g.writeArrayFieldStart("links");
        if (crawled) {
          for (QueryService.Outlink l : p.outlinks()) {
            g.writeStartObject();
            g.writeStringField("url", l.url());
            g.writeStringField("anchor", l.anchor());
            g.writeEndObject();
          }
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      bytes.write('\n');
    }
    return bytes.toByteArray();
  }
}
