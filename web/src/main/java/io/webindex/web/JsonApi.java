package io.webindex.web;

import io.undertow.server.HttpServerExchange;
import io.webindex.store.HistoryQuery.HistoryAnswer;
import io.webindex.store.QueryAnswers;
import io.webindex.store.QueryService;
import io.webindex.store.QueryService.DomainAnswer;
import io.webindex.store.QueryService.InlinksAnswer;
import io.webindex.store.QueryService.PageAnswer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON API under {@code /api/v1/}. {@code top}, {@code domain}, {@code inlinks}, {@code
 * history} and {@code frontier} answer with the documents of {@code bin/webindex query --json},
 * {@code bin/webindex history --json} and {@code bin/webindex frontier --json} ({@link
 * QueryAnswers}), from the same {@link QueryService}.
 */
final class JsonApi {
  /** The prefix of every address of the API. */
  static final String PREFIX = "/api/v1";

  private final ServedTable served;
  private final Runs runs;
  private final ReportFiles reports;
  private final Health health;

  private final boolean detail;

  JsonApi(ServedTable served, Runs runs, ReportFiles reports, Health health, boolean detail) {
    this.detail = detail;
    this.served = served;
    this.runs = runs;
    this.reports = reports;
    this.health = health;
  }

  void top(HttpServerExchange ex) {
    int limit = WebInput.limit(Params.query(ex, "limit"));
    String after = WebInput.cursor(Params.query(ex, "after"));
    QueryService q = served.service();
    Responses.sendJson(ex, QueryAnswers.top(q.table(), q.top(limit, after)));
  }

  /** The domain's document with its readable {@code name} after {@code domain}. */
  void domain(HttpServerExchange ex) {
    String domain = WebInput.domain(Params.path(ex, "domain"));
    int limit = WebInput.limit(Params.query(ex, "limit"));
    String after = WebInput.cursor(Params.query(ex, "after"));
    QueryService q = served.service();
    DomainAnswer a = q.domain(domain, limit, after);
    if (!a.known()) {
      throw new NotFound("no domain " + domain + " (" + a.domain() + ") in the index");
    }
    Map<String, Object> m = new LinkedHashMap<>();
    QueryAnswers.domain(q.table(), a)
        .forEach(
            (k, v) -> {
              m.put(k, v);
              if (k.equals("domain")) {
                m.put("name", Links.readableDomain(a.domain())); // for people: c.com, not com.c
              }
            });
    Responses.sendJson(ex, m);
  }

  void page(HttpServerExchange ex) {
    String url = WebInput.url(Params.query(ex, "url"));
    QueryService q = served.service();
    PageAnswer a = q.page(url);
    if (!a.known()) {
      throw new NotFound("no page " + a.url() + " in the index");
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", q.table());
    m.put("uri", a.uri());
    m.put("url", a.url());
    m.put("incount", a.incount());
    m.put("crawled", a.crawled() != null);
    if (a.crawled() != null) {
      m.put("cur", current(a));
    }
    m.put("inlinks", PREFIX + "/inlinks?url=" + Links.enc(a.url()));
    Responses.sendJson(ex, m);
  }

  /** The page as last crawled ({@code page:cur}). */
  private static Map<String, Object> current(PageAnswer a) {
    Map<String, Object> cur = new LinkedHashMap<>();
    cur.put("crawled", a.crawled());
    cur.put("title", a.title());
    cur.put("outlinkcount", a.outlinks().size());
    cur.put("outlinks", a.outlinks());
    return cur;
  }

  void inlinks(HttpServerExchange ex) {
    String url = WebInput.url(Params.query(ex, "url"));
    int limit = WebInput.limit(Params.query(ex, "limit"));
    String after = WebInput.cursor(Params.query(ex, "after"));
    QueryService q = served.service();
    InlinksAnswer a = q.inlinks(url, limit, after);
    if (!a.known()) {
      throw new NotFound("no page " + a.url() + " in the index");
    }
    Responses.sendJson(ex, QueryAnswers.inlinks(q.table(), a));
  }

  /** A page of the page's crawl history: the document of {@code bin/webindex history --json}. */
  void history(HttpServerExchange ex) {
    String url = WebInput.url(Params.query(ex, "url"));
    int limit = WebInput.limit(Params.query(ex, "limit"));
    String after = WebInput.cursor(Params.query(ex, "after"));
    QueryService q = served.service();
    if (!q.hasHistory()) {
      throw new NotFound("no crawl history is kept for table " + q.table());
    }
    HistoryAnswer a = q.history(url, limit, after);
    if (!a.known()) {
      throw new NotFound("no crawl history of " + a.url() + " in the index");
    }
    Responses.sendJson(ex, QueryAnswers.history(q.table(), a));
  }

  /** The next URLs due in the frontier: the document of {@code bin/webindex frontier --json}. */
  void frontier(HttpServerExchange ex) {
    int limit = WebInput.limit(Params.query(ex, "limit"));
    int perHost = WebInput.perHost(Params.query(ex, "perHost"));
    Long at = WebInput.atOrNow(Params.query(ex, "at"));
    QueryService q = served.service();
    if (!q.hasFrontier()) {
      throw new NotFound("no crawl frontier is kept for table " + q.table());
    }
    Responses.sendJson(
        ex, QueryAnswers.frontier(q.table(), served.frontier(q, at, limit, perHost)));
  }

  void runs(HttpServerExchange ex) {
    Responses.sendJson(ex, runs.model());
  }

  void checks(HttpServerExchange ex) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (detail) {
      m.put("directory", reports.directory()); // a path on the server: operational detail
    }
    m.put("checks", reports.list(detail));
    Responses.sendJson(ex, m);
  }

  void health(HttpServerExchange ex) {
    Health.Answer a = health.answer();
    ex.setStatusCode(a.status());
    Responses.sendJson(ex, a.body());
  }
}
