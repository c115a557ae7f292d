package io.webindex.web;

import io.undertow.server.HttpServerExchange;
import io.webindex.core.history.Crawl;
import io.webindex.core.history.Schedule;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.FrontierQuery.Due;
import io.webindex.store.FrontierQuery.FrontierAnswer;
import io.webindex.store.HistoryQuery.HistoryAnswer;
import io.webindex.store.HistoryQuery.KeptCrawl;
import io.webindex.store.HistoryQuery.UrcPoint;
import io.webindex.store.QueryService;
import io.webindex.store.QueryService.DomainAnswer;
import io.webindex.store.QueryService.InlinksAnswer;
import io.webindex.store.QueryService.PageAnswer;
import io.webindex.store.QueryService.TopAnswer;
import io.webindex.store.StoreException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server-rendered pages for people: the most referenced pages (with the health panel), a
 * domain, a page with its outlinks and inlinks, the search box, the crawl frontier, the runs and
 * the checks. The same {@link QueryService} answers as the API's.
 */
final class HtmlPages {
  private static final Logger log = LoggerFactory.getLogger(HtmlPages.class);

  private final ServedTable served;
  private final OverviewCache overview;

  /** Whether the health panel (operational detail) is shown on the home page. */
  private final boolean detail;

  private final Runs runs;
  private final ReportFiles reports;
  private final Templates templates;

  HtmlPages(
      ServedTable served,
      OverviewCache overview,
      Runs runs,
      ReportFiles reports,
      Templates templates,
      boolean detail) {
    this.detail = detail;
    this.served = served;
    this.overview = overview;
    this.runs = runs;
    this.reports = reports;
    this.templates = templates;
  }

  /** {@code /}: the most referenced pages; the health panel on the first page only. */
  void top(HttpServerExchange ex) {
    int limit = WebInput.limit(Params.query(ex, "limit"));
    String after = WebInput.cursor(Params.query(ex, "after"));
    QueryService q = served.service();
    TopAnswer a = q.top(limit, after);
    Map<String, Object> m = Templates.model("Most referenced pages");
    m.put("table", q.table());
    if (after == null && detail) {
      Overview o = overview.getOrNull();
      m.put("health", o == null ? null : o.lines(Instant.now()));
    }
    m.put("rows", ranked(a.uris()));
    m.put("nextHref", a.next() == null ? null : "/?" + pageQuery(limit, a.next()));
    m.put("firstHref", after == null ? null : "/");
    templates.send(ex, "top", m);
  }

  void domain(HttpServerExchange ex) {
    String domain = WebInput.domain(Params.path(ex, "domain"));
    int limit = WebInput.limit(Params.query(ex, "limit"));
    String after = WebInput.cursor(Params.query(ex, "after"));
    QueryService q = served.service();
    DomainAnswer a = q.domain(domain, limit, after);
    if (!a.known()) {
      throw new NotFound("no domain " + domain + " in the index");
    }
    String name = Links.readableDomain(a.domain());
    Map<String, Object> m = Templates.model("Domain " + name);
    m.put("q", domain);
    m.put("table", q.table());
    m.put("name", name);
    m.put("reversed", a.domain());
    m.put("pagecount", a.pageCount());
    m.put("rows", ranked(a.uris()));
    String self = "/domain/" + Links.enc(name);
    m.put("nextHref", a.next() == null ? null : self + "?" + pageQuery(limit, a.next()));
    m.put("firstHref", after == null ? null : self);
    templates.send(ex, "domain", m);
  }

  /** {@code /page?url=}: the page, its outlinks, and a page of its inlinks. */
  void page(HttpServerExchange ex) {
    String url = WebInput.url(Params.query(ex, "url"));
    int limit = WebInput.limit(Params.query(ex, "limit"));
    String after = WebInput.cursor(Params.query(ex, "after"));
    QueryService q = served.service();
    PageAnswer p = q.page(url);
    if (!p.known()) {
      throw new NotFound("no page " + p.url() + " in the index");
    }
    InlinksAnswer in = q.inlinks(p.uri(), limit, after);
    Map<String, Object> m = Templates.model(p.url());
    m.put("q", url);
    m.put("table", q.table());
    m.put("url", p.url());
    m.put("uri", p.uri());
    m.put("incount", p.incount());
    m.put("crawled", p.crawled());
    m.put("pageTitle", p.title());
    m.put("outlinks", outlinks(p));
    m.put("inlinks", inlinks(in));
    String host = Links.hostOf(p.url());
    m.put("domainHref", host == null ? null : "/domain/" + Links.enc(host));
    String self = "/page?url=" + Links.enc(p.url());
    m.put("nextHref", in.next() == null ? null : self + "&" + pageQuery(limit, in.next()));
    m.put("firstHref", after == null ? null : self);
    m.put("history", history(q, p.uri()));
    templates.send(ex, "page", m);
  }

  /** How many crawls the page view shows: the newest ones; the API pages through all. */
  static final int TIMELINE_CRAWLS = 20;

  /**
   * The page's crawl history for its timeline and sparkline: null when the table keeps no history
   * (a table recomputed without one), {@code unavailable} when it cannot be read (the user may not
   * read it: logged), else {@code known} false when the history has nothing of the page.
   */
  static Map<String, Object> history(QueryService q, String uri) {
    if (!q.hasHistory()) {
      return null;
    }
    Map<String, Object> h = new LinkedHashMap<>();
    HistoryAnswer a;
    try {
      a = q.history(uri, TIMELINE_CRAWLS, null);
    } catch (StoreException e) {
      // the rest of the page answers from the query table: show it without the history
      log.warn("the crawl history of {} cannot be read: {}", uri, e.getMessage());
      h.put("unavailable", true);
      return h;
    }
    h.put("known", a.known());
    Schedule s = a.schedule();
    if (s != null) {
      Map<String, Object> sched = new LinkedHashMap<>();
      sched.put("crawls", s.crawls());
      sched.put("changes", s.changes());
      sched.put("first", readable(s.firstCrawlMillis()));
      sched.put("modified", readable(s.lastModifiedMillis()));
      sched.put("interval", Overview.duration(s.intervalSeconds()));
      sched.put("intervalSeconds", s.intervalSeconds());
      sched.put("nextFetch", readable(s.nextFetchMillis()));
      sched.put("nextFetchIso", HistorySchema.iso(s.nextFetchMillis()));
      h.put("schedule", sched);
    }
    List<Map<String, Object>> crawls = new ArrayList<>();
    for (KeptCrawl k : a.crawls()) {
      Crawl c = k.crawl();
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("iso", HistorySchema.iso(c.crawledMillis()));
      r.put("when", readable(c.crawledMillis()));
      r.put("status", c.status().code());
      r.put("change", k.change().word());
      r.put("kind", c.gone() ? "gone" : k.change().word());
      r.put("signature", c.signature());
      r.put("outlinks", c.outlinks());
      crawls.add(r);
    }
    h.put("crawls", crawls);
    h.put(
        "moreHref",
        a.next() == null
            ? null
            : JsonApi.PREFIX + "/history?url=" + Links.enc(a.url()) + "&after=" + a.next());
    List<Map<String, Object>> urc = new ArrayList<>();
    for (UrcPoint pt : a.urc()) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("iso", HistorySchema.iso(pt.runMillis()));
      r.put("when", readable(pt.runMillis()));
      r.put("urc", pt.urc());
      urc.add(r);
    }
    h.put("urc", urc);
    Sparkline line = Sparkline.of(a.urc());
    if (line != null) {
      Map<String, Object> sp = new LinkedHashMap<>();
      sp.put("width", Sparkline.WIDTH);
      sp.put("height", Sparkline.HEIGHT);
      sp.put("points", line.points());
      sp.put("lastX", line.lastX());
      sp.put("lastY", line.lastY());
      sp.put("min", line.min());
      sp.put("max", line.max());
      sp.put("last", a.urc().get(a.urc().size() - 1).urc());
      sp.put("runs", a.urc().size());
      h.put("sparkline", sp);
    }
    return h;
  }

  private static final DateTimeFormatter READABLE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** {@code 2026-11-20 10:02:00 UTC}. */
  static String readable(long millis) {
    return READABLE.format(Instant.ofEpochMilli(millis));
  }

  private static List<Map<String, Object>> outlinks(PageAnswer p) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (QueryService.Outlink o : p.outlinks()) {
      out.add(link(o.url(), o.anchor()));
    }
    return out;
  }

  private static List<Map<String, Object>> inlinks(InlinksAnswer in) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (QueryService.Inlink i : in.inlinks()) {
      out.add(link(i.url(), i.anchor()));
    }
    return out;
  }

  private static Map<String, Object> link(String url, String anchor) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("url", url);
    r.put("anchor", anchor);
    r.put("href", "/page?url=" + Links.enc(url));
    return r;
  }

  /**
   * The search box: a bare host or domain ({@code c.com}, {@code www.bbc.co.uk}) opens the domain,
   * anything with a path or scheme opens the page; a bare name that names no domain but a page
   * opens the page.
   */
  void search(HttpServerExchange ex) {
    String raw = Params.query(ex, "q");
    if (raw == null || raw.isBlank()) {
      Responses.redirect(ex, "/");
      return;
    }
    String s = WebInput.query(raw);
    QueryService q = served.service();
    boolean urlLike = s.contains("://") || s.contains("/");
    if (!urlLike) {
      DomainAnswer d = domainOrBadRequest(q, s);
      if (d.known()) {
        Responses.redirect(ex, "/domain/" + Links.enc(Links.readableDomain(d.domain())));
        return;
      }
    }
    PageAnswer p = q.page(s);
    if (p.known()) {
      Responses.redirect(ex, "/page?url=" + Links.enc(p.url()));
      return;
    }
    throw new NotFound("nothing in the index for " + s);
  }

  private static DomainAnswer domainOrBadRequest(QueryService q, String s) {
    try {
      return q.domain(s, 1, null);
    } catch (IllegalArgumentException e) {
      throw new WebInput.BadRequest(e.getMessage());
    }
  }

  /**
   * {@code /frontier}: the next URLs due (as {@code /api/v1/frontier} answers) and the frontier's
   * totals; a served table without a frontier table says so.
   */
  void frontier(HttpServerExchange ex) {
    int limit = WebInput.limit(Params.query(ex, "limit"));
    int perHost = WebInput.perHost(Params.query(ex, "perHost"));
    String atRaw = Params.query(ex, "at");
    Long at = WebInput.atOrNow(atRaw);
    QueryService q = served.service();
    Map<String, Object> m = Templates.model("Crawl frontier");
    m.put("table", q.table());
    m.put("kept", q.hasFrontier());
    if (!q.hasFrontier()) {
      templates.send(ex, "frontier", m);
      return;
    }
    FrontierAnswer a = served.frontier(q, at, limit, perHost);
    m.put("frontierTable", a.table());
    m.put("at", HistorySchema.iso(a.atMillis()));
    m.put("atGiven", atRaw != null && !atRaw.isEmpty());
    m.put("perHost", a.perHost());
    m.put("queues", a.queues());
    m.put("urlCount", a.urlCount());
    m.put("due", a.due());
    m.put("dueQueues", a.dueQueues());
    m.put("inFlight", a.inFlight());
    m.put("blockedQueues", a.blockedQueues());
    m.put("active", a.active());
    m.put("skipped", a.skipped());
    List<Map<String, Object>> rows = new ArrayList<>(a.urls().size());
    for (Due d : a.urls()) {
      Map<String, Object> r = new LinkedHashMap<>();
      long due = d.entry().dueMillis();
      r.put("due", due == 0 ? "now" : HistorySchema.iso(due));
      r.put("urc", d.entry().urc());
      r.put("queue", d.entry().queue());
      r.put("url", d.url());
      r.put("href", "/page?url=" + Links.enc(d.url()));
      rows.add(r);
    }
    m.put("rows", rows);
    templates.send(ex, "frontier", m);
  }

  void runs(HttpServerExchange ex) {
    Map<String, Object> m = Templates.model("Runs");
    m.putAll(runs.model());
    templates.send(ex, "runs", m);
  }

  void checks(HttpServerExchange ex) {
    Map<String, Object> m = Templates.model("Checks");
    m.put("checks", reports.list(detail));
    m.put("configured", reports.directory() != null);
    templates.send(ex, "checks", m);
  }

  private static List<Map<String, Object>> ranked(List<QueryService.RankedUri> uris) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (QueryService.RankedUri u : uris) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("url", u.url());
      r.put("count", u.urc());
      r.put("href", "/page?url=" + Links.enc(u.url()));
      rows.add(r);
    }
    return rows;
  }

  /** The query of the following page: its cursor, and the limit unless it is the default. */
  private static String pageQuery(int limit, String next) {
    return (limit == WebInput.DEFAULT_LIMIT ? "" : "limit=" + limit + "&")
        + "after="
        + Links.enc(next);
  }
}
