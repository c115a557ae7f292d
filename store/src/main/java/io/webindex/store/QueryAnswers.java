package io.webindex.store;

import io.webindex.core.history.Crawl;
import io.webindex.core.history.Schedule;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.FrontierQuery.Due;
import io.webindex.store.FrontierQuery.FrontierAnswer;
import io.webindex.store.HistoryQuery.HistoryAnswer;
import io.webindex.store.HistoryQuery.KeptCrawl;
import io.webindex.store.HistoryQuery.UrcPoint;
import io.webindex.store.QueryService.DomainAnswer;
import io.webindex.store.QueryService.InlinksAnswer;
import io.webindex.store.QueryService.TopAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The three answers and run records as JSON objects (field order fixed), shared by the command
 * line's {@code --json} and the web application's {@code /api/v1}, so that a script sees the same
 * document from either.
 */
public final class QueryAnswers {
  private QueryAnswers() {}

  /**
   * A run record: {@code {"id", "status", "snapshot", "table", "started", "finished", "seconds",
   * "counters", "message"}} (times ISO-8601, {@code null} while unknown).
   */
  public static Map<String, Object> run(RunRecord r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.runId());
    m.put("status", r.status().name());
    m.put("snapshot", r.snapshot());
    m.put("table", r.table());
    m.put("started", r.started().toString());
    m.put("finished", r.finished() == null ? null : r.finished().toString());
    m.put(
        "seconds",
        r.finished() == null
            ? null
            : Duration.between(r.started(), r.finished()).toMillis() / 1000.0);
    m.put("counters", new TreeMap<>(r.counters()));
    m.put("message", r.message() == null || r.message().isEmpty() ? null : r.message());
    // the version of webindex that recomputed it (null: recorded before versions were)
    m.put("version", r.version().isEmpty() ? null : r.version());
    return m;
  }

  /** {@code {"table", "uris": [{"uri", "url", "urc"}…], "next"}}. */
  public static Map<String, Object> top(String table, TopAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", table);
    m.put("uris", a.uris());
    m.put("next", a.next());
    return m;
  }

  /** {@code {"table", "domain", "pagecount", "uris", "next"}}. */
  public static Map<String, Object> domain(String table, DomainAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", table);
    m.put("domain", a.domain());
    m.put("pagecount", a.pageCount());
    m.put("uris", a.uris());
    m.put("next", a.next());
    return m;
  }

  /** {@code {"table", "uri", "url", "incount", "inlinks": [{"uri", "url", "anchor"}…], "next"}}. */
  public static Map<String, Object> inlinks(String table, InlinksAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", table);
    m.put("uri", a.uri());
    m.put("url", a.url());
    m.put("incount", a.incount());
    m.put("inlinks", a.inlinks());
    m.put("next", a.next());
    return m;
  }

  /**
   * A page of a URI's crawl history: {@code {"table", "history", "uri", "url", "schedule",
   * "crawls": [{"crawled", "status", "change", "signature", "outlinks"}…], "next", "urc": [{"run",
   * "urc"}…]}}. {@code schedule} is {@code {"first", "last", "modified", "crawls", "changes",
   * "intervalSeconds", "nextFetch"}}, or null for a URI never crawled; the crawls are newest first,
   * {@code change} one of {@code changed}, {@code unchanged}, {@code first}, {@code unknown} (the
   * crawl before it is no longer kept) and {@code signature} null for {@code gone}; the urc series
   * is oldest first, {@code run} the batch run's start. Instants are ISO-8601 UTC in milliseconds.
   */
  public static Map<String, Object> history(String queryTable, HistoryAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", queryTable);
    m.put("history", a.table());
    m.put("uri", a.uri());
    m.put("url", a.url());
    m.put("schedule", a.schedule() == null ? null : schedule(a.schedule()));
    List<Map<String, Object>> crawls = new ArrayList<>(a.crawls().size());
    for (KeptCrawl k : a.crawls()) {
      Crawl c = k.crawl();
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("crawled", HistorySchema.iso(c.crawledMillis()));
      e.put("status", c.status().code());
      e.put("change", k.change().word());
      e.put("signature", c.signature().isEmpty() ? null : c.signature());
      e.put("outlinks", c.outlinks());
      crawls.add(e);
    }
    m.put("crawls", crawls);
    m.put("next", a.next());
    List<Map<String, Object>> urc = new ArrayList<>(a.urc().size());
    for (UrcPoint p : a.urc()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("run", HistorySchema.iso(p.runMillis()));
      e.put("urc", p.urc());
      urc.add(e);
    }
    m.put("urc", urc);
    return m;
  }

  /**
   * The next URLs due in a frontier table: {@code {"table", "frontier", "at", "limit", "perHost",
   * "urls": [{"due", "urc", "queue", "uri", "url"}…], "summary": {"queues", "urls", "due",
   * "dueQueues", "inFlight", "blockedQueues", "active", "skipped"}}}. {@code due} is the ISO-8601
   * instant the URL is due at, or null when it is due at once (never crawled); the URLs are in the
   * order a fetcher gets them (the queues round-robin); the summary counts the whole frontier
   * table: its queues, its URLs, the URLs due at {@code at}, the queues with a URL due; of the
   * frontier service at {@code at}: the URLs in flight, the queues blocked, whether it hands out
   * URLs; and the cells skipped because they do not decode. URLs in flight and queues held
   * (blocked, or all while inactive) are not listed.
   */
  public static Map<String, Object> frontier(String queryTable, FrontierAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", queryTable);
    m.put("frontier", a.table());
    m.put("at", HistorySchema.iso(a.atMillis()));
    m.put("limit", a.limit());
    m.put("perHost", a.perHost());
    List<Map<String, Object>> urls = new ArrayList<>(a.urls().size());
    for (Due d : a.urls()) {
      Map<String, Object> e = new LinkedHashMap<>();
      long due = d.entry().dueMillis();
      e.put("due", due == 0 ? null : HistorySchema.iso(due));
      e.put("urc", d.entry().urc());
      e.put("queue", d.entry().queue());
      e.put("uri", d.entry().uriKey());
      e.put("url", d.url());
      urls.add(e);
    }
    m.put("urls", urls);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("queues", a.queues());
    s.put("urls", a.urlCount());
    s.put("due", a.due());
    s.put("dueQueues", a.dueQueues());
    s.put("inFlight", a.inFlight());
    s.put("blockedQueues", a.blockedQueues());
    s.put("active", a.active());
    s.put("skipped", a.skipped());
    m.put("summary", s);
    return m;
  }

  private static Map<String, Object> schedule(Schedule s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("first", HistorySchema.iso(s.firstCrawlMillis()));
    m.put("last", HistorySchema.iso(s.lastCrawlMillis()));
    m.put("modified", HistorySchema.iso(s.lastModifiedMillis()));
    m.put("crawls", s.crawls());
    m.put("changes", s.changes());
    m.put("intervalSeconds", s.intervalSeconds());
    m.put("nextFetch", HistorySchema.iso(s.nextFetchMillis()));
    return m;
  }
}
