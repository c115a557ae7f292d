package io.webindex.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import io.pebbletemplates.pebble.template.PebbleTemplate;
import io.undertow.Handlers;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.PathTemplateMatch;
import io.undertow.util.StatusCodes;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.url.Domains;
import io.webindex.store.QueryAnswers;
import io.webindex.store.QueryService;
import io.webindex.store.QueryService.DomainAnswer;
import io.webindex.store.QueryService.InlinksAnswer;
import io.webindex.store.QueryService.PageAnswer;
import io.webindex.store.QueryService.TopAnswer;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.accumulo.core.client.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routes: the JSON API under {@code /api/v1/} and the server-rendered pages (Pebble templates,
 * HTML escaping by the engine). Every answer of the three questions comes from {@link QueryService}
 * — the same query layer, cursors and order as {@code bin/webindex query}.
 */
final class WebApp {
  private static final Logger log = LoggerFactory.getLogger(WebApp.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String API = "/api/v1";
  private static final String JSON_TYPE = "application/json; charset=utf-8";
  private static final String HTML_TYPE = "text/html; charset=utf-8";
  private static final String CHECK_JSON = "check.json";
  private static final String CHECK_HTML = "check.html";
  private static final String TOP_CHECK_ID = "report";
  private static final HttpString X_CONTENT_TYPE_OPTIONS = new HttpString("X-Content-Type-Options");
  private static final HttpString X_FRAME_OPTIONS = new HttpString("X-Frame-Options");
  private static final HttpString CONTENT_SECURITY_POLICY =
      new HttpString("Content-Security-Policy");
  private static final HttpString REFERRER_POLICY = new HttpString("Referrer-Policy");

  private final Connector conn;
  private final WebindexConfig cfg;
  private final ServedTable served;
  private final Path checksDir;
  private final FluoProbe fluo;
  private final long overviewNanos;
  private final AtomicReference<CachedOverview> overview = new AtomicReference<>();
  private final PebbleEngine pebble;
  private final byte[] css;

  /** The last overview gathered, and when (System.nanoTime). */
  private record CachedOverview(long at, Overview overview) {}

  /**
   * @param fluo the Fluo probe for health (null: the Fluo lag and processes are not reported)
   * @param cacheMillis how long a gathered {@link Overview} is reused
   */
  WebApp(
      Connector conn,
      WebindexConfig cfg,
      ServedTable served,
      Path checksDir,
      FluoProbe fluo,
      long cacheMillis) {
    this.fluo = fluo;
    this.overviewNanos = TimeUnit.MILLISECONDS.toNanos(cacheMillis);
    this.conn = conn;
    this.cfg = cfg;
    this.served = served;
    this.checksDir = checksDir;
    ClasspathLoader loader = new ClasspathLoader(WebApp.class.getClassLoader());
    loader.setPrefix("io/webindex/web/templates");
    loader.setSuffix(".peb");
    this.pebble =
        new PebbleEngine.Builder()
            .loader(loader)
            .autoEscaping(true)
            .defaultEscapingStrategy("html")
            .strictVariables(false)
            .build();
    this.css = resource("/io/webindex/web/static/style.css");
  }

  HttpHandler handler() {
    RoutingHandler r = Handlers.routing();
    r.get(API + "/top", safe(true, this::apiTop));
    r.get(API + "/domain/{domain}", safe(true, this::apiDomain));
    r.get(API + "/page", safe(true, this::apiPage));
    r.get(API + "/inlinks", safe(true, this::apiInlinks));
    r.get(API + "/runs", safe(true, this::apiRuns));
    r.get(API + "/checks", safe(true, this::apiChecks));
    r.get(API + "/health", safe(true, this::apiHealth));
    r.get("/", safe(false, this::pageTop));
    r.get("/domain/{domain}", safe(false, this::pageDomain));
    r.get("/page", safe(false, this::pagePage));
    r.get("/search", safe(false, this::pageSearch));
    r.get("/runs", safe(false, this::pageRuns));
    r.get("/checks", safe(false, this::pageChecks));
    r.get("/checks/{id}/{file}", safe(false, this::checkFile));
    r.get(
        "/static/style.css",
        ex -> {
          ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/css; charset=utf-8");
          ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "max-age=3600");
          ex.getResponseSender().send(ByteBuffer.wrap(css));
        });
    r.setFallbackHandler(
        safe(
            false,
            ex -> {
              throw new NotFound("no such address: " + ex.getRequestPath());
            }));
    r.setInvalidMethodHandler(ex -> sendError(ex, 405, "only GET is answered"));
    return r;
  }

  // ------------------------------------------------------------------ errors

  /** An unknown domain, page or address: HTTP 404. */
  static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFound(String message) {
      super(message);
    }
  }

  private interface Route {
    void handle(HttpServerExchange ex) throws Exception;
  }

  /**
   * Runs a route and turns every failure into a status and a reason: JSON for the API (and any
   * request under {@code /api/}), an HTML page otherwise; never a stack trace.
   */
  private HttpHandler safe(boolean api, Route route) {
    return ex -> {
      boolean json = api || ex.getRequestPath().startsWith("/api/");
      int status;
      String message;
      try {
        route.handle(ex);
        return;
      } catch (WebInput.BadRequest | IllegalArgumentException e) {
        status = 400;
        message = e.getMessage();
      } catch (NotFound e) {
        status = 404;
        message = e.getMessage();
      } catch (ServedTable.NotServed e) {
        status = 503;
        message = e.getMessage();
      } catch (StoreException e) {
        log.warn("{}: {}", ex.getRequestPath(), e.getMessage());
        status = 503;
        message = "the index cannot be read now: " + e.getMessage();
      } catch (Exception e) {
        log.error("unexpected failure answering {}", WebServer.printable(ex.getRequestPath()), e);
        status = 500;
        message = "internal error (logged on the server)";
      }
      if (ex.isResponseStarted()) {
        return;
      }
      if (json) {
        sendError(ex, status, message);
      } else {
        Map<String, Object> m = base("Error " + status);
        m.put("status", status);
        m.put("reason", StatusCodes.getReason(status));
        m.put("message", message);
        ex.setStatusCode(status);
        sendHtml(ex, "error", m);
      }
    };
  }

  static void sendError(HttpServerExchange ex, int status, String message) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", status);
    m.put("error", StatusCodes.getReason(status));
    m.put("message", message);
    ex.setStatusCode(status);
    sendJson(ex, m);
  }

  static void securityHeaders(HttpServerExchange ex) {
    ex.getResponseHeaders()
        .put(X_CONTENT_TYPE_OPTIONS, "nosniff")
        .put(X_FRAME_OPTIONS, "DENY")
        .put(
            CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self';"
                + " frame-ancestors 'none'")
        .put(REFERRER_POLICY, "same-origin");
  }

  private static void sendJson(HttpServerExchange ex, Object body) {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, JSON_TYPE);
    ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    ex.getResponseSender().send(ByteBuffer.wrap(bytes));
  }

  private void sendHtml(HttpServerExchange ex, String template, Map<String, Object> model) {
    PebbleTemplate t = pebble.getTemplate(template);
    StringWriter w = new StringWriter(4096);
    try {
      t.evaluate(w, model, Locale.ROOT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, HTML_TYPE);
    ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    ex.getResponseSender().send(w.toString(), StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ parameters

  private static String param(HttpServerExchange ex, String name) {
    Deque<String> d = ex.getQueryParameters().get(name);
    if (d == null || d.isEmpty()) {
      return null;
    }
    if (d.size() > 1) {
      throw new WebInput.BadRequest(name + " given " + d.size() + " times");
    }
    return d.getFirst();
  }

  private static String pathParam(HttpServerExchange ex, String name) {
    PathTemplateMatch m = ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
    return m == null ? null : m.getParameters().get(name);
  }

  // ------------------------------------------------------------------ the JSON API

  private void apiTop(HttpServerExchange ex) {
    int limit = WebInput.limit(param(ex, "limit"));
    String after = WebInput.cursor(param(ex, "after"));
    QueryService q = served.service();
    sendJson(ex, QueryAnswers.top(q.table(), q.top(limit, after)));
  }

  private void apiDomain(HttpServerExchange ex) {
    String domain = WebInput.domain(pathParam(ex, "domain"));
    int limit = WebInput.limit(param(ex, "limit"));
    String after = WebInput.cursor(param(ex, "after"));
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
                m.put("name", readableDomain(a.domain())); // for people: c.com, not com.c
              }
            });
    sendJson(ex, m);
  }

  private void apiPage(HttpServerExchange ex) {
    String url = WebInput.url(param(ex, "url"));
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
      Map<String, Object> cur = new LinkedHashMap<>();
      cur.put("crawled", a.crawled());
      cur.put("title", a.title());
      cur.put("outlinkcount", a.outlinks().size());
      cur.put("outlinks", a.outlinks());
      m.put("cur", cur);
    }
    m.put("inlinks", API + "/inlinks?url=" + enc(a.url()));
    sendJson(ex, m);
  }

  private void apiInlinks(HttpServerExchange ex) {
    String url = WebInput.url(param(ex, "url"));
    int limit = WebInput.limit(param(ex, "limit"));
    String after = WebInput.cursor(param(ex, "after"));
    QueryService q = served.service();
    InlinksAnswer a = q.inlinks(url, limit, after);
    if (!a.known()) {
      throw new NotFound("no page " + a.url() + " in the index");
    }
    sendJson(ex, QueryAnswers.inlinks(q.table(), a));
  }

  private void apiRuns(HttpServerExchange ex) {
    sendJson(ex, runsModel());
  }

  private Map<String, Object> runsModel() {
    RunRegistry registry = new RunRegistry(conn, cfg.metaTable());
    Optional<RunRegistry.Served> s = registry.served();
    List<RunRecord> all = new ArrayList<>(registry.list());
    all.sort(Comparator.comparing(RunRecord::started).thenComparing(RunRecord::runId).reversed());
    List<Map<String, Object>> runs = new ArrayList<>();
    for (RunRecord r : all) {
      Map<String, Object> m = new LinkedHashMap<>();
      boolean served = s.isPresent() && s.get().table().equals(r.table());
      QueryAnswers.run(r)
          .forEach(
              (k, v) -> {
                m.put(k, v);
                if (k.equals("seconds")) {
                  m.put("served", served);
                }
              });
      runs.add(m);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("served", s.map(Overview::servedJson).orElse(null));
    out.put("runs", runs);
    return out;
  }

  private void apiChecks(HttpServerExchange ex) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("directory", checksDir == null ? null : checksDir.toString());
    m.put("checks", checks());
    sendJson(ex, m);
  }

  private void apiHealth(HttpServerExchange ex) {
    Map<String, Object> m = new LinkedHashMap<>();
    boolean ok = true;
    Map<String, Object> acc = new LinkedHashMap<>();
    acc.put("instance", cfg.accumuloInstance());
    long t0 = System.nanoTime();
    try {
      conn.tableOperations().exists(cfg.metaTable());
      acc.put("reachable", true);
    } catch (RuntimeException e) {
      acc.put("reachable", false);
      acc.put("error", e.getMessage());
      ok = false;
    }
    acc.put("millis", (System.nanoTime() - t0) / 1_000_000);
    m.put("accumulo", acc);
    Map<String, Object> table = new LinkedHashMap<>();
    Overview o = null;
    if (ok) {
      Optional<RunRegistry.Served> s = served.served();
      String name = served.tableName();
      table.put("table", name);
      table.put("pointer", s.map(Overview::servedJson).orElse(null));
      table.put("exists", name != null);
      String app =
          s.map(RunRegistry.Served::fluoApp).filter(a -> !a.isEmpty()).orElse(cfg.fluoApp());
      m.put("fluoApp", app);
      o = overviewOrNull();
      if (fluo != null) {
        // the overview's lag is this one unless a fixed table (--table) hides the pointer
        FluoProbe.Lag lag =
            o != null && o.fluo() != null && o.fluo().app().equals(app) ? o.fluo() : fluo.lag(app);
        m.put("fluo", Overview.lagJson(lag));
      }
      ok = name != null;
    }
    m.put("served", table);
    m.put("status", ok ? "ok" : "unavailable");
    m.put("overview", o == null ? null : o.toJson());
    ex.setStatusCode(ok ? 200 : 503);
    sendJson(ex, m);
  }

  /**
   * {@link Overview#gather}, reused for the cache time; null (logged) when the run registry cannot
   * be read, so that health and the home page still answer.
   */
  private Overview overviewOrNull() {
    long now = System.nanoTime();
    CachedOverview c = overview.get();
    if (c != null && now - c.at() < overviewNanos) {
      return c.overview();
    }
    try {
      Overview o = Overview.gather(conn, cfg, fluo);
      overview.set(new CachedOverview(now, o));
      return o;
    } catch (RuntimeException e) {
      log.warn("cannot gather the health overview: {}", e.getMessage());
      return null;
    }
  }

  // ------------------------------------------------------------------ check reports

  /** The check reports under the checks directory, newest first. */
  private List<Map<String, Object>> checks() {
    List<Map<String, Object>> out = new ArrayList<>();
    if (checksDir == null || !Files.isDirectory(checksDir)) {
      return out;
    }
    addCheck(out, TOP_CHECK_ID, checksDir);
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(checksDir, Files::isDirectory)) {
      for (Path d : dirs) {
        String id = d.getFileName().toString();
        if (isCheckId(id) && !id.equals(TOP_CHECK_ID)) {
          addCheck(out, id, d);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(
        Comparator.comparing((Map<String, Object> m) -> String.valueOf(m.get("finished")))
            .reversed());
    return out;
  }

  private static boolean isCheckId(String id) {
    return id.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}");
  }

  private static void addCheck(List<Map<String, Object>> out, String id, Path dir) {
    Path file = dir.resolve(CHECK_JSON);
    if (!Files.isRegularFile(file)) {
      return;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    try {
      JsonNode n = JSON.readTree(file.toFile());
      m.put("verdict", n.path("verdict").asText(""));
      m.put("consistent", n.path("consistent").asBoolean(false));
      m.put("runId", n.path("runId").asText(""));
      m.put("snapshot", n.path("snapshot").asLong());
      m.put("expectedTable", n.path("tables").path("expected").asText(""));
      m.put("actualTable", n.path("tables").path("actual").asText(""));
      m.put("finished", n.path("finished").asText(""));
      m.put("compared", n.path("totals").path("compared").asLong());
      m.put("differences", n.path("totals").path("differences").asLong());
      m.put("invariantViolations", n.path("totals").path("invariantViolations").asLong());
    } catch (IOException e) {
      m.put("verdict", "UNREADABLE");
      m.put("consistent", false);
      m.put("finished", "");
      m.put("error", "cannot read " + CHECK_JSON + ": " + e.getMessage());
    }
    m.put("json", "/checks/" + id + "/" + CHECK_JSON);
    m.put(
        "html",
        Files.isRegularFile(dir.resolve(CHECK_HTML)) ? "/checks/" + id + "/" + CHECK_HTML : null);
    out.add(m);
  }

  private void checkFile(HttpServerExchange ex) throws IOException {
    String id = pathParam(ex, "id");
    String file = pathParam(ex, "file");
    if (checksDir == null
        || id == null
        || !isCheckId(id)
        || !(CHECK_JSON.equals(file) || CHECK_HTML.equals(file))) {
      throw new NotFound("no such report");
    }
    Path dir = id.equals(TOP_CHECK_ID) ? checksDir : checksDir.resolve(id);
    Path f = dir.resolve(file);
    if (!f.normalize().startsWith(checksDir.normalize()) || !Files.isRegularFile(f)) {
      throw new NotFound("no such report");
    }
    byte[] bytes = Files.readAllBytes(f);
    ex.getResponseHeaders()
        .put(Headers.CONTENT_TYPE, file.equals(CHECK_JSON) ? JSON_TYPE : HTML_TYPE);
    if (file.equals(CHECK_HTML)) {
      // the report is a self-contained page with its own inline style
      ex.getResponseHeaders()
          .put(
              CONTENT_SECURITY_POLICY,
              "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    }
    ex.getResponseSender().send(ByteBuffer.wrap(bytes));
  }

  // ------------------------------------------------------------------ pages

  private Map<String, Object> base(String title) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("title", title);
    m.put("q", "");
    m.put("table", null);
    return m;
  }

  private void pageTop(HttpServerExchange ex) {
    int limit = WebInput.limit(param(ex, "limit"));
    String after = WebInput.cursor(param(ex, "after"));
    QueryService q = served.service();
    TopAnswer a = q.top(limit, after);
    Map<String, Object> m = base("Most referenced pages");
    m.put("table", q.table());
    if (after == null) {
      Overview o = overviewOrNull();
      m.put("health", o == null ? null : o.lines(Instant.now()));
    }
    m.put("rows", ranked(a.uris()));
    m.put("nextHref", a.next() == null ? null : "/?" + pageQuery(limit, a.next()));
    m.put("firstHref", after == null ? null : "/");
    sendHtml(ex, "top", m);
  }

  private void pageDomain(HttpServerExchange ex) {
    String domain = WebInput.domain(pathParam(ex, "domain"));
    int limit = WebInput.limit(param(ex, "limit"));
    String after = WebInput.cursor(param(ex, "after"));
    QueryService q = served.service();
    DomainAnswer a = q.domain(domain, limit, after);
    if (!a.known()) {
      throw new NotFound("no domain " + domain + " in the index");
    }
    String name = readableDomain(a.domain());
    Map<String, Object> m = base("Domain " + name);
    m.put("q", domain);
    m.put("table", q.table());
    m.put("name", name);
    m.put("reversed", a.domain());
    m.put("pagecount", a.pageCount());
    m.put("rows", ranked(a.uris()));
    String self = "/domain/" + enc(name);
    m.put("nextHref", a.next() == null ? null : self + "?" + pageQuery(limit, a.next()));
    m.put("firstHref", after == null ? null : self);
    sendHtml(ex, "domain", m);
  }

  private void pagePage(HttpServerExchange ex) {
    String url = WebInput.url(param(ex, "url"));
    int limit = WebInput.limit(param(ex, "limit"));
    String after = WebInput.cursor(param(ex, "after"));
    QueryService q = served.service();
    PageAnswer p = q.page(url);
    if (!p.known()) {
      throw new NotFound("no page " + p.url() + " in the index");
    }
    InlinksAnswer in = q.inlinks(p.uri(), limit, after);
    Map<String, Object> m = base(p.url());
    m.put("q", url);
    m.put("table", q.table());
    m.put("url", p.url());
    m.put("uri", p.uri());
    m.put("incount", p.incount());
    m.put("crawled", p.crawled());
    m.put("pageTitle", p.title());
    List<Map<String, Object>> out = new ArrayList<>();
    for (QueryService.Outlink o : p.outlinks()) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("url", o.url());
      r.put("anchor", o.anchor());
      r.put("href", "/page?url=" + enc(o.url()));
      out.add(r);
    }
    m.put("outlinks", out);
    List<Map<String, Object>> inl = new ArrayList<>();
    for (QueryService.Inlink i : in.inlinks()) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("url", i.url());
      r.put("anchor", i.anchor());
      r.put("href", "/page?url=" + enc(i.url()));
      inl.add(r);
    }
    m.put("inlinks", inl);
    String host = hostOf(p.url());
    m.put("domainHref", host == null ? null : "/domain/" + enc(host));
    String self = "/page?url=" + enc(p.url());
    m.put("nextHref", in.next() == null ? null : self + "&" + pageQuery(limit, in.next()));
    m.put("firstHref", after == null ? null : self);
    sendHtml(ex, "page", m);
  }

  /**
   * The search box: a bare host or domain ({@code c.com}, {@code www.bbc.co.uk}) opens the domain,
   * anything with a path or scheme opens the page; a bare name that names no domain but a page
   * opens the page.
   */
  private void pageSearch(HttpServerExchange ex) {
    String raw = param(ex, "q");
    if (raw == null || raw.isBlank()) {
      redirect(ex, "/");
      return;
    }
    String s = WebInput.query(raw);
    QueryService q = served.service();
    boolean urlLike = s.contains("://") || s.contains("/");
    if (!urlLike) {
      DomainAnswer d;
      try {
        d = q.domain(s, 1, null);
      } catch (IllegalArgumentException e) {
        throw new WebInput.BadRequest(e.getMessage());
      }
      if (d.known()) {
        redirect(ex, "/domain/" + enc(readableDomain(d.domain())));
        return;
      }
    }
    PageAnswer p = q.page(s);
    if (p.known()) {
      redirect(ex, "/page?url=" + enc(p.url()));
      return;
    }
    throw new NotFound("nothing in the index for " + s);
  }

  private void pageRuns(HttpServerExchange ex) {
    Map<String, Object> m = base("Runs");
    m.putAll(runsModel());
    sendHtml(ex, "runs", m);
  }

  private void pageChecks(HttpServerExchange ex) {
    Map<String, Object> m = base("Checks");
    m.put("checks", checks());
    m.put("directory", checksDir == null ? null : checksDir.toString());
    sendHtml(ex, "checks", m);
  }

  private static void redirect(HttpServerExchange ex, String location) {
    ex.setStatusCode(303);
    ex.getResponseHeaders().put(Headers.LOCATION, location);
    ex.endExchange();
  }

  private static List<Map<String, Object>> ranked(List<QueryService.RankedUri> uris) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (QueryService.RankedUri u : uris) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("url", u.url());
      r.put("count", u.urc());
      r.put("href", "/page?url=" + enc(u.url()));
      rows.add(r);
    }
    return rows;
  }

  private static String pageQuery(int limit, String next) {
    return (limit == WebInput.DEFAULT_LIMIT ? "" : "limit=" + limit + "&") + "after=" + enc(next);
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String hostOf(String url) {
    try {
      return io.webindex.core.url.WebUrl.parse(url).host();
    } catch (io.webindex.core.url.InvalidUrlException e) {
      return null;
    }
  }

  static String readableDomain(String reversed) {
    return Domains.readable(reversed);
  }

  private static byte[] resource(String name) {
    try (InputStream in = WebApp.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
