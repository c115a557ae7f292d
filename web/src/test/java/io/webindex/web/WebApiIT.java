package io.webindex.web;

import static io.webindex.testkit.HealthRows.expect;
import static io.webindex.testkit.HealthRows.q;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.synth.RandomWeb;
import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import io.webindex.store.Cells;
import io.webindex.store.FrontierTables;
import io.webindex.store.HistoryTables;
import io.webindex.store.QueryService;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.FrontierFixture;
import io.webindex.testkit.HealthRows;
import io.webindex.testkit.HistoryFixture;
import io.webindex.testkit.PrometheusText;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.WorkedExample;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.security.TablePermission;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web API over MiniAccumulo, run as a read-only user: the worked example of docs/tables.md
 * (hand-checked answers), a randomized web (fixed printed seed) against {@link ReferenceIndex} and
 * {@link QueryService}, paging without duplicates or gaps, hostile parameters, the served-pointer
 * switch, runs, checks, health and the pages' escaping.
 */
@Timeout(300)
@SharedCluster
class WebApiIT extends AccumuloITBase {
  private static final long SEED = 20261123L;
  private static final String READER = "webreader";
  private static final String READER_PASSWORD = "reader-secret-for-tests";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path dir;

  private static ReferenceIndex random;
  private static String workedTable;
  private static String randomTable;
  private static String hostileTable;
  private static RunRegistry registry;
  private static WebServer server;
  private static QueryService workedQuery;
  private static QueryService randomQuery;

  @BeforeAll
  static void start() throws Exception {
    System.out.println("WebApiIT: random web seed " + SEED);
    ReferenceIndex worked = WorkedExample.index();
    workedTable = createTable("worked");
    Cells.write(connector(), workedTable, worked.cells());
    random = new ReferenceIndex();
    random.applyAll(new RandomWeb(SEED, 300).batch(0, 600));
    randomTable = createTable("random");
    Cells.write(connector(), randomTable, random.cells());
    // the worked example's hand-checked crawl history (the random table has none)
    HistoryFixture.write(
        connector(),
        HistoryTables.createFresh(connector(), workedTable, HistoryFixture.SETTINGS),
        HistoryFixture.cells());
    // and its hand-checked frontier (the random table has none)
    FrontierFixture.write(
        connector(), FrontierTables.createFresh(connector(), workedTable), FrontierFixture.cells());
    workedQuery = new QueryService(connector(), workedTable);
    randomQuery = new QueryService(connector(), randomTable);
    // a page whose title and anchor text try to inject markup into the pages
    hostileTable = createTable("hostile");
    Cells.write(
        connector(),
        hostileTable,
        List.of(
            QuerySchema.incount("com.x", 1),
            QuerySchema.inlink("com.x", "com.y", "<script>alert(1)</script>"),
            QuerySchema.incount("com.y", 0),
            QuerySchema.pageCur(
                "com.y",
                "{\"url\":\"http://y.com/\",\"crawled\":\"2026-11-20T10:00:00Z\","
                    + "\"title\":\"<img src=x onerror=alert(2)>\",\"outlinkcount\":1,"
                    + "\"outlinks\":[{\"url\":\"http://x.com/\",\"anchor\":\"<b>x</b>\"}]}")));

    WebindexConfig cfg = WebindexConfig.load(writeWebindexConf(dir, "webit"), Map.of());
    registry = new RunRegistry(connector(), cfg.metaTable()).ensureTable();
    registry.put(run("worked", workedTable, 0));
    registry.put(run("random", randomTable, 1));
    registry.serve(registry.get("worked").orElseThrow());

    // the server runs as a user that may only read the query tables and the metadata table
    createUser(READER, READER_PASSWORD);
    for (String t :
        List.of(
            workedTable,
            workedTable + "_history",
            workedTable + "_frontier",
            randomTable,
            cfg.metaTable())) {
      connector().securityOperations().grantTablePermission(READER, t, TablePermission.READ);
    }
    Connector reader = connectorAs(READER, READER_PASSWORD);

    Path checks = Files.createDirectories(dir.resolve("checks"));
    Files.writeString(
        checks.resolve("check.json"),
        """
        {"consistent": true, "verdict": "CONSISTENT", "tables": {"expected": "webit_batch",
         "actual": "webit_base"}, "runId": "batch", "snapshot": 1, "fluoApplied": 1,
         "started": "2026-11-23T10:00:00Z", "finished": "2026-11-23T10:00:02Z",
         "totals": {"compared": 27, "differences": 0, "invariantViolations": 0}}
        """);
    Files.writeString(checks.resolve("check.html"), "<!DOCTYPE html><title>report</title>");
    // the tests below read the operational detail too (runs' messages, the health overview), as
    // an authenticated user does; withoutAuthenticationNoOperationalDetail the public view
    server =
        WebServer.start(
            WebOptions.local(0).withChecksDir(checks).withServedCacheMillis(0).withOpenDetail(true),
            reader,
            cfg);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static RunRecord run(String id, String table, long snapshot) {
    Instant t = Instant.parse("2026-11-23T09:00:00Z").plusSeconds(snapshot * 60);
    return new RunRecord(
        id,
        RunRecord.Status.SUCCEEDED,
        snapshot,
        table,
        t,
        t.plusSeconds(12),
        List.of(),
        Map.of("pages", 3L + snapshot),
        "",
        "",
        "",
        4,
        io.webindex.core.Version.current().webindex());
  }

  // ------------------------------------------------------------------ the worked example

  @Test
  void workedExampleAnswersAreTheHandCheckedOnes() throws Exception {
    JsonNode top = get("/api/v1/top", 200);
    assertEquals(workedTable, top.get("table").asText());
    assertEquals(
        List.of(
            "3 http://c.com/",
            "1 http://b.com/",
            "1 http://c.com/page1",
            "0 http://a.com/page1",
            "0 http://d.com/"),
        ranked(top.get("uris")));
    assertTrue(top.get("next").isNull());

    JsonNode c = get("/api/v1/domain/c.com", 200);
    assertEquals("com.c", c.get("domain").asText());
    assertEquals("c.com", c.get("name").asText());
    assertEquals(2, c.get("pagecount").asLong());
    assertEquals(List.of("3 http://c.com/", "1 http://c.com/page1"), ranked(c.get("uris")));
    assertEquals(ranked(c.get("uris")), ranked(get("/api/v1/domain/com.c", 200).get("uris")));

    JsonNode in = get("/api/v1/inlinks?url=" + enc("c.com"), 200);
    assertEquals("http://c.com/", in.get("url").asText());
    assertEquals(3, in.get("incount").asLong());
    List<String> inl = new ArrayList<>();
    in.get("inlinks").forEach(l -> inl.add(l.get("url").asText() + " " + l.get("anchor").asText()));
    assertEquals(
        List.of("http://a.com/page1 C from A", "http://b.com/ C from B", "http://d.com/ C from D"),
        inl);

    JsonNode b = get("/api/v1/page?url=" + enc("http://b.com/"), 200);
    assertEquals(1, b.get("incount").asLong());
    assertTrue(b.get("crawled").asBoolean());
    assertEquals("B", b.get("cur").get("title").asText());
    assertEquals("2026-11-20T10:01:00Z", b.get("cur").get("crawled").asText());
    List<String> out = new ArrayList<>();
    b.get("cur")
        .get("outlinks")
        .forEach(l -> out.add(l.get("url").asText() + " " + l.get("anchor").asText()));
    assertEquals(List.of("http://c.com/page1 C page one", "http://c.com/ C from B"), out);
    JsonNode p1 = get("/api/v1/page?url=" + enc("c.com/page1"), 200);
    assertEquals(1, p1.get("incount").asLong());
    assertFalse(p1.get("crawled").asBoolean());
    assertNull(p1.get("cur"));
    JsonNode a = get("/api/v1/page?url=" + enc("a.com/page1"), 200);
    assertEquals(0, a.get("incount").asLong());
  }

  @Test
  void unknownKeysAre404AndMalformedOnes400() throws Exception {
    assertEquals(404, status("/api/v1/domain/nowhere.org"));
    assertEquals(404, status("/api/v1/page?url=" + enc("http://nowhere.org/x")));
    assertEquals(404, status("/api/v1/inlinks?url=" + enc("http://nowhere.org/x")));
    assertEquals(404, status("/api/v1/nothing"));
    JsonNode e = get("/api/v1/page?url=" + enc("ftp://c.com/x"), 400);
    assertEquals(400, e.get("status").asInt());
    assertFalse(e.get("message").asText().isEmpty());
    assertFalse(e.toString().contains("Exception"), e.toString());
  }

  @Test
  void hostileParametersAre400WithAReason() throws Exception {
    List<String> hostile =
        List.of(
            "/api/v1/page?url=" + enc("http://c.com/" + "x".repeat(3000)),
            "/api/v1/page?url=" + enc("http://c.com/\u0001"),
            "/api/v1/page?url=" + enc("c.com/\n/page1"),
            "/api/v1/page?url=",
            "/api/v1/page",
            "/api/v1/page?url=..",
            "/api/v1/page?url=" + enc("http://../"),
            "/api/v1/inlinks?url=" + enc("http://c.com/\u007f"),
            "/api/v1/domain/..",
            "/api/v1/domain/a%2Fb",
            "/api/v1/domain/%2e%2e%2fetc",
            "/api/v1/domain/" + "a".repeat(3000),
            "/api/v1/domain/c.com%00",
            "/api/v1/domain/c%09com",
            "/api/v1/domain/c.com:80:90",
            "/api/v1/top?limit=0",
            "/api/v1/top?limit=-1",
            "/api/v1/top?limit=1001",
            "/api/v1/top?limit=99999999999",
            "/api/v1/top?limit=abc",
            "/api/v1/top?after=!!!",
            "/api/v1/top?after=" + "A".repeat(5000),
            "/api/v1/top?limit=1&limit=2",
            "/api/v1/top?after=" + workedQuery.domain("c.com", 1, null).next(),
            "/api/v1/domain/c.com?after=" + workedQuery.top(1, null).next());
    for (String path : hostile) {
      JsonNode e = get(path, 400);
      assertEquals(400, e.get("status").asInt(), path);
      assertFalse(e.get("message").asText().isBlank(), path);
      assertFalse(e.toString().contains("at io.") || e.toString().contains("Exception"), path);
    }
    HttpResponse<String> post =
        HTTP.send(
            HttpRequest.newBuilder(server.url().resolve("/api/v1/top"))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode(), post.body());
    assertEquals("GET", post.headers().firstValue("allow").orElse(""));
  }

  // ------------------------------------------------------------------ the random web

  @Test
  void randomWebEqualsReferenceAndQueryLayerAndPagesWithoutGaps() throws Exception {
    // the reference's answer to "top": every seen URI, most referenced first, ties by key
    Map<String, UriState> states = new TreeMap<>(random.uriStates());
    List<String> expectedTop =
        states.entrySet().stream()
            .filter(e -> e.getValue().seen())
            .sorted(
                Comparator.comparing((Map.Entry<String, UriState> e) -> -e.getValue().urc())
                    .thenComparing(Map.Entry::getKey))
            .map(e -> e.getValue().urc() + " " + urlOf(e.getKey()))
            .toList();
    switchServed("random");
    for (int limit : new int[] {1, 7, 25, 1000}) {
      List<String> walked = walk(after -> get("/api/v1/top?limit=" + limit + after, 200), "uris");
      assertEquals(expectedTop, walked, "top, limit " + limit);
      assertEquals(new HashSet<>(walked).size(), walked.size(), "no duplicates");
    }
    assertEquals(
        ranked(JSON.valueToTree(randomQuery.top(25, null).uris())),
        ranked(get("/api/v1/top?limit=25", 200).get("uris")));

    Map<String, List<String>> byDomain = new TreeMap<>();
    for (String line : expectedTop) {
      String key = WebUrl.parse(line.substring(line.indexOf(' ') + 1)).key();
      byDomain.computeIfAbsent(Domains.ofKey(key), d -> new ArrayList<>()).add(line);
    }
    Map<String, Long> counts = random.domainCounts();
    for (Map.Entry<String, List<String>> d : byDomain.entrySet()) {
      String path = "/api/v1/domain/" + enc(Links.readableDomain(d.getKey()));
      JsonNode first = get(path + "?limit=3", 200);
      assertEquals(d.getKey(), first.get("domain").asText(), path);
      assertEquals((long) counts.get(d.getKey()), first.get("pagecount").asLong(), path);
      assertEquals(d.getValue(), walk(after -> get(path + "?limit=3" + after, 200), "uris"), path);
      assertEquals(
          ranked(JSON.valueToTree(randomQuery.domain(d.getKey(), 3, null).uris())),
          ranked(first.get("uris")),
          path);
    }

    // inlinks and pages of every seen URI with inlinks: count, anchors, no gap
    Set<String> checked = new TreeSet<>();
    for (Map.Entry<String, UriState> e : states.entrySet()) {
      if (!e.getValue().seen()) {
        continue;
      }
      String url = WebUrl.fromKey(e.getKey()).toString();
      List<String> expected = new ArrayList<>();
      for (Cell c : random.cells()) {
        if (c.row().equals(QuerySchema.pageRow(e.getKey()))
            && c.family().equals(QuerySchema.FAM_INLINKS)) {
          expected.add(WebUrl.fromKey(c.qualifier()) + " " + c.value());
        }
      }
      String path = "/api/v1/inlinks?url=" + enc(url) + "&limit=2";
      List<String> walked = walk(after -> get(path + after, 200), "inlinks");
      assertEquals(expected, walked, url);
      assertEquals(e.getValue().urc(), walked.size(), url);
      JsonNode page = get("/api/v1/page?url=" + enc(url), 200);
      assertEquals(e.getValue().urc(), page.get("incount").asLong(), url);
      assertEquals(e.getValue().isCrawled(), page.get("crawled").asBoolean(), url);
      Page cur = random.currentVersions().get(e.getKey());
      if (e.getValue().isCrawled()) {
        assertEquals(cur.title(), page.get("cur").get("title").asText(), url);
        assertEquals(cur.links().size(), page.get("cur").get("outlinks").size(), url);
      }
      checked.add(url);
    }
    assertEquals(expectedTop.size(), checked.size());
    switchServed("worked");
  }

  @Test
  void servedPointerSwitchIsPickedUpWithoutARestart() throws Exception {
    assertEquals(workedTable, get("/api/v1/top?limit=1", 200).get("table").asText());
    switchServed("random");
    assertEquals(randomTable, get("/api/v1/top?limit=1", 200).get("table").asText());
    JsonNode h = get("/api/v1/health", 200);
    assertEquals(randomTable, h.get("served").get("table").asText());
    switchServed("worked");
    assertEquals(workedTable, get("/api/v1/top?limit=1", 200).get("table").asText());
  }

  // ------------------------------------------------------------------ runs, checks, health

  @Test
  void runsChecksAndHealth() throws Exception {
    JsonNode runs = get("/api/v1/runs", 200);
    assertEquals(workedTable, runs.get("served").get("table").asText());
    List<String> rows = new ArrayList<>();
    runs.get("runs")
        .forEach(
            r ->
                rows.add(
                    r.get("id").asText()
                        + " "
                        + r.get("status").asText()
                        + " "
                        + r.get("snapshot").asLong()
                        + " "
                        + r.get("served").asBoolean()
                        + " "
                        + r.get("seconds").asDouble()
                        + " "
                        + r.get("counters").get("pages")
                        + " "
                        + r.get("version").asText()));
    String v = io.webindex.core.Version.current().webindex(); // what run() recorded
    assertEquals(
        List.of("random SUCCEEDED 1 false 12.0 4 " + v, "worked SUCCEEDED 0 true 12.0 3 " + v),
        rows);
    assertTrue(fetch("/runs").body().contains("<td>" + v + "</td>"), "the runs page shows it");

    JsonNode checks = get("/api/v1/checks", 200).get("checks");
    assertEquals(1, checks.size());
    JsonNode c = checks.get(0);
    assertEquals("CONSISTENT", c.get("verdict").asText());
    assertEquals(27, c.get("compared").asLong());
    assertEquals("/checks/report/check.html", c.get("html").asText());
    HttpResponse<String> html = fetch(c.get("html").asText());
    assertEquals(200, html.statusCode());
    assertEquals("<!DOCTYPE html><title>report</title>", html.body());
    assertEquals(404, fetch("/checks/report/..%2f..%2fetc%2fpasswd").statusCode());
    assertEquals(404, fetch("/checks/../check.json").statusCode());

    JsonNode h = get("/api/v1/health", 200);
    assertEquals("ok", h.get("status").asText());
    assertTrue(h.get("accumulo").get("reachable").asBoolean());
    assertEquals("webit", h.get("fluoApp").asText());
  }

  /**
   * Health at a glance without a Fluo probe: {@code /api/v1/health}'s overview and the home page's
   * panel show the served pointer, the table served before, the cut-over target and the last check
   * exactly as this test wrote them ("no check recorded" before one is), the Fluo parts as not
   * probed; a hostile report path is escaped; the panel is on the first page only.
   */
  @Test
  void healthOverviewAndHomePanel() throws Exception {
    switchServed("random");
    RunRegistry.Served served = registry.serve(registry.get("worked").orElseThrow());
    JsonNode before = get("/api/v1/health", 200).get("overview");
    assertTrue(before.get("lastCheck").isNull(), before.toString());
    HealthRows.assertRows(
        List.of(
            expect("", "served table", servedText(served)),
            expect("", "previous table", q(randomTable)),
            expect("", "Fluo lag", q("not probed")),
            expect("", "served app", q("webit: processes not probed")),
            expect("", "cut-over target", q("none")),
            expect("", "last check", q("no check recorded"))),
        HealthRows.panel(fetch("/").body()));

    Instant targetSince = Instant.now().minusSeconds(90).truncatedTo(ChronoUnit.SECONDS);
    registry.setCutoverTarget(
        new RunRegistry.CutoverTarget("webit_next", "random", randomTable, targetSince));
    Instant finished = Instant.now().minusSeconds(7200).truncatedTo(ChronoUnit.SECONDS);
    String report = "/checks/<script>alert(3)</script>/check.html";
    registry.recordCheck(
        new RunRegistry.LastCheck("CONSISTENT", "worked", workedTable, 1, 0, 0, finished, report));
    try {
      JsonNode h = get("/api/v1/health", 200);
      JsonNode o = h.get("overview");
      assertEquals(
          JSON.readTree(
              "{\"served\":{\"table\":\""
                  + workedTable
                  + "\",\"run\":\"worked\",\"previousTable\":\""
                  + randomTable
                  + "\",\"since\":\""
                  + served.since()
                  + "\",\"fluoApp\":null},\"fluo\":null,\"applications\":["
                  + "{\"role\":\"served\",\"app\":\"webit\",\"run\":\"worked\",\"table\":\""
                  + workedTable
                  + "\",\"since\":\""
                  + served.since()
                  + "\",\"oracle\":null,\"workers\":null,\"error\":null},"
                  + "{\"role\":\"cutover\",\"app\":\"webit_next\",\"run\":\"random\",\"table\":\""
                  + randomTable
                  + "\",\"since\":\""
                  + targetSince
                  + "\",\"oracle\":null,\"workers\":null,\"error\":null}],"
                  + "\"lastCheck\":{\"verdict\":\"CONSISTENT\",\"finished\":\""
                  + finished
                  + "\",\"run\":\"worked\",\"table\":\""
                  + workedTable
                  + "\",\"applied\":1,\"differences\":0,\"invariantViolations\":0,"
                  + "\"report\":\"/checks/<script>alert(3)</script>/check.html\"}}"),
          o);
      // the fields health had before the overview are all still there
      assertEquals(List.of("accumulo", "fluoApp", "served", "status", "overview"), fieldNames(h));
      assertEquals(workedTable, h.get("served").get("pointer").get("table").asText());

      String home = fetch("/").body();
      HealthRows.assertRows(
          List.of(
              expect("", "served table", servedText(served)),
              expect("", "previous table", q(randomTable)),
              expect("", "Fluo lag", q("not probed")),
              expect("", "served app", q("webit: processes not probed")),
              expect(
                  "",
                  "cut-over target",
                  q("webit_next (run random, table " + randomTable + ") since ")
                      + q(HealthRows.UTC.format(targetSince))
                      + " \\((1|2) min \\d+ s ago\\)"
                      + q(": processes not probed")),
              expect(
                  "ok",
                  "last check",
                  q("CONSISTENT at " + HealthRows.UTC.format(finished))
                      + " \\(2 h 0 min ago\\)"
                      + q(
                          ": run worked, table "
                              + workedTable
                              + ", applied batch 1, 0 differences, 0 invariant violations; report "
                              + report))),
          HealthRows.panel(home));
      assertTrue(
          home.contains("report /checks/&lt;script&gt;alert(3)&lt;/script&gt;/check.html"), home);
      assertFalse(home.contains("<script>"), home);

      String next = get("/api/v1/top?limit=1", 200).get("next").asText();
      String second = fetch("/?limit=1&after=" + enc(next)).body();
      assertFalse(second.contains("class=\"health\""), second);
    } finally {
      registry.clearCutoverTarget("webit_next");
    }
  }

  private static String servedText(RunRegistry.Served s) {
    return q(s.table() + " (run " + s.runId() + ") since " + HealthRows.UTC.format(s.since()))
        + HealthRows.AGO;
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void basicAuthenticationWhenConfigured() throws Exception {
    WebindexConfig cfg = WebindexConfig.load(dir.resolve("webindex.properties"), Map.of());
    try (WebServer guarded =
        WebServer.start(
            WebOptions.local(0).withAuth(new WebOptions.BasicAuth("web", "pw-for-tests")),
            connector(),
            cfg)) {
      HttpResponse<String> none = fetch(guarded, "/api/v1/top");
      assertEquals(401, none.statusCode());
      assertTrue(none.headers().firstValue("www-authenticate").orElse("").startsWith("Basic"));
      String good =
          java.util.Base64.getEncoder()
              .encodeToString("web:pw-for-tests".getBytes(StandardCharsets.UTF_8));
      String bad =
          java.util.Base64.getEncoder()
              .encodeToString("web:wrong".getBytes(StandardCharsets.UTF_8));
      assertEquals(200, fetchAuth(guarded, "/api/v1/top", "Basic " + good).statusCode());
      assertEquals(401, fetchAuth(guarded, "/api/v1/top", "Basic " + bad).statusCode());
      // the figures are operational detail: behind the same authentication
      assertEquals(401, fetch(guarded, "/metrics").statusCode());
      HttpResponse<String> metrics = fetchAuth(guarded, "/metrics", "Basic " + good);
      assertEquals(200, metrics.statusCode());
      assertTrue(PrometheusText.has(metrics.body(), "webindex_web_responses"), metrics.body());
    }
  }

  /**
   * {@code /metrics} answers the Prometheus text format, and its per-route figures move by exactly
   * the requests the test makes; JMX shows the same counts.
   */
  @Test
  void metricsCountTheRequestsByRouteAndStatus() throws Exception {
    String before = fetch("/metrics").body();
    for (int i = 0; i < 3; i++) {
      assertEquals(200, status("/api/v1/top"));
    }
    assertEquals(404, status("/no/such/address"));
    assertEquals(404, status("/no/such/address/either"));
    assertEquals(400, status("/page?url=" + enc("<not a url>")));
    HttpResponse<String> after = fetch("/metrics");
    assertEquals(200, after.statusCode());
    assertTrue(
        after
            .headers()
            .firstValue("content-type")
            .orElse("")
            .startsWith("text/plain; version=0.0.4"),
        after.headers().toString());
    String text = after.body();
    Map<String, String> top200 = Map.of("route", "api_top", "status", "200");
    assertEquals(3, delta(before, text, "webindex_web_responses", top200), text);
    assertEquals(
        3, delta(before, text, "webindex_web_latency_count", Map.of("route", "api_top")), text);
    assertEquals(
        2,
        delta(
            before, text, "webindex_web_responses", Map.of("route", "not_found", "status", "404")),
        text);
    assertEquals(
        1,
        delta(before, text, "webindex_web_responses", Map.of("route", "page", "status", "400")),
        text);
    assertTrue(
        PrometheusText.value(
                text, "webindex_web_latency", Map.of("route", "api_top", "quantile", "0.99"))
            > 0,
        "latency quantiles in seconds");
    assertTrue(PrometheusText.has(text, "jvm_threads_current"), "the JVM's figures");
    Object jmx =
        java.lang.management.ManagementFactory.getPlatformMBeanServer()
            .getAttribute(
                new javax.management.ObjectName("webindex:name=webindex.web.responses.api_top.200"),
                "Count");
    assertEquals((long) PrometheusText.value(text, "webindex_web_responses", top200), jmx);
  }

  private static double delta(String before, String after, String name, Map<String, String> l) {
    return PrometheusText.value(after, name, l) - PrometheusText.value(before, name, l);
  }

  /** Runs the JDK's keytool; fails the test with its output when it fails. */
  private static void keytool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), "keytool " + String.join(" ", args) + ": " + out);
  }

  @Test
  void tlsWithAThrowAwayCertificate() throws Exception {
    // a certificate made for this test only, for 127.0.0.1, in a PKCS12 key store
    Path tls = Files.createDirectories(dir.resolve("tls"));
    String storePassword = "store-pw-" + System.nanoTime();
    Path keystore = tls.resolve("web.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "web",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1",
        "-storetype",
        "PKCS12",
        "-keystore",
        keystore.toString(),
        "-storepass",
        storePassword);
    Path cert = tls.resolve("web.crt");
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "web",
        "-keystore",
        keystore.toString(),
        "-storepass",
        storePassword,
        "-file",
        cert.toString());
    Path pwFile = tls.resolve("keystore.password");
    Files.writeString(pwFile, storePassword + "\n");
    Files.setPosixFilePermissions(pwFile, PosixFilePermissions.fromString("rw-------"));
    int redirectPort;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      redirectPort = free.getLocalPort();
    }
    WebindexConfig cfg =
        WebindexConfig.load(
            writeWebindexConf(
                tls,
                "webit",
                "webindex.web.tls.keystore=web.p12",
                "webindex.web.tls.keystore.password.file=keystore.password",
                "webindex.web.tls.redirect.port=" + redirectPort),
            Map.of());
    assertFalse(cfg.toString().contains(storePassword), "the store password is never shown");

    // a client that trusts only this certificate
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(cert)) {
      trust.setCertificateEntry(
          "web", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    HttpClient trusting = HttpClient.newBuilder().sslContext(ctx).build();

    try (WebServer https =
        WebServer.start(WebOptions.local(0).withServedCacheMillis(0), connector(), cfg)) {
      assertEquals("https", https.url().getScheme());
      URI top = https.url().resolve("/api/v1/top");
      HttpResponse<String> ok =
          trusting.send(HttpRequest.newBuilder(top).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ok.statusCode(), ok.body());
      assertTrue(ok.body().contains("http://c.com/"), ok.body());
      assertEquals(
          200,
          trusting
              .send(
                  HttpRequest.newBuilder(https.url()).build(), HttpResponse.BodyHandlers.ofString())
              .statusCode());
      // the JDK's default trust does not know the throw-away certificate
      assertThrows(
          SSLHandshakeException.class,
          () ->
              HTTP.send(HttpRequest.newBuilder(top).build(), HttpResponse.BodyHandlers.ofString()));
      // plain HTTP on the HTTPS port gets no page
      assertThrows(
          IOException.class,
          () ->
              HTTP.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + https.port() + "/api/v1/top"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString()));
      // the plain HTTP port only redirects, keeping path and query
      HttpResponse<String> moved =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + redirectPort + "/domain/c.com?n=2"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(308, moved.statusCode());
      assertEquals(
          "https://127.0.0.1:" + https.port() + "/domain/c.com?n=2",
          moved.headers().firstValue("location").orElse(""));
      assertEquals("", moved.body());
    }

    // without a redirect port there is no plain HTTP listener at all
    WebindexConfig noRedirect =
        WebindexConfig.load(
            writeWebindexConf(
                tls,
                "webit",
                "webindex.web.tls.keystore=web.p12",
                "webindex.web.tls.keystore.password.file=keystore.password"),
            Map.of());
    try (WebServer https = WebServer.start(WebOptions.local(0), connector(), noRedirect)) {
      assertThrows(
          IOException.class,
          () ->
              HTTP.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + redirectPort + "/"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString()));
      assertEquals(
          200,
          trusting
              .send(
                  HttpRequest.newBuilder(https.url().resolve("/api/v1/top")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .statusCode());
    }

    // a wrong store password is a configuration error, not a stack trace
    Files.writeString(pwFile, "wrong");
    WebindexConfig wrong =
        WebindexConfig.load(
            writeWebindexConf(
                tls,
                "webit",
                "webindex.web.tls.keystore=web.p12",
                "webindex.web.tls.keystore.password.file=keystore.password"),
            Map.of());
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class,
            () -> WebServer.start(WebOptions.local(0), connector(), wrong));
    assertTrue(
        bad.getMessage().startsWith("cannot read webindex.web.tls.keystore " + keystore),
        bad.getMessage());
    assertFalse(bad.getMessage().contains("wrong"), bad.getMessage());
  }

  // ------------------------------------------------------------------ pages

  @Test
  void pagesShowTheAnswersEscaped() throws Exception {
    HttpResponse<String> top = fetch("/");
    assertEquals(200, top.statusCode());
    assertTrue(top.headers().firstValue("content-type").orElse("").startsWith("text/html"));
    assertTrue(
        top.body().contains("<a href=\"/page?url=http%3A%2F%2Fc.com%2F\">http://c.com/</a>"),
        top.body());
    HttpResponse<String> domain = fetch("/domain/c.com");
    assertTrue(domain.body().contains("<span id=\"pagecount\">2</span>"), domain.body());
    HttpResponse<String> page = fetch("/page?url=" + enc("http://c.com/"));
    assertTrue(page.body().contains("<span id=\"incount\">3</span>"), page.body());
    assertTrue(page.body().contains("C from D"), page.body());
    HttpResponse<String> search = fetch("/search?q=" + enc("www.c.com"));
    assertEquals(303, search.statusCode());
    assertEquals("/domain/c.com", search.headers().firstValue("location").orElse(""));
    HttpResponse<String> searchUrl = fetch("/search?q=" + enc("c.com/page1"));
    assertEquals(
        "/page?url=http%3A%2F%2Fc.com%2Fpage1",
        searchUrl.headers().firstValue("location").orElse(""));
    HttpResponse<String> bad = fetch("/page?url=" + enc("<script>alert(1)</script>"));
    assertEquals(400, bad.statusCode());
    assertFalse(bad.body().contains("<script>alert"), bad.body());
    assertTrue(bad.body().contains("&lt;script&gt;"), bad.body());
    assertEquals(200, fetch("/runs").statusCode());
    try (WebServer fixed =
        WebServer.start(
            WebOptions.local(0).withTable(hostileTable),
            connector(),
            WebindexConfig.load(dir.resolve("webindex.properties"), Map.of()))) {
      String x = fetch(fixed, "/page?url=" + enc("x.com")).body();
      assertTrue(x.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"), x);
      String y = fetch(fixed, "/page?url=" + enc("y.com")).body();
      assertTrue(y.contains("&lt;img src=x onerror=alert(2)&gt;"), y);
      assertTrue(y.contains("<td>&lt;b&gt;x&lt;/b&gt;</td>"), y);
      assertFalse(x.contains("<script>") || y.contains("<img src=x") || y.contains("<b>x"), y);
      // a table without a history table: the page has no history section
      assertFalse(y.contains("id=\"history\""), y);
    }
    assertTrue(fetch("/checks").body().contains("CONSISTENT"));
  }

  // ------------------------------------------------------------------ crawl history

  /** The API's history of {@link HistoryFixture}, hand-checked, and its paging. */
  @Test
  void historyApi() throws Exception {
    JsonNode d = get("/api/v1/history?url=" + enc("D.com:80/#top"), 200);
    assertEquals(workedTable, d.get("table").asText());
    assertEquals(workedTable + "_history", d.get("history").asText());
    assertEquals("com.d", d.get("uri").asText());
    assertEquals("http://d.com/", d.get("url").asText());
    JsonNode s = d.get("schedule");
    assertEquals(4, s.get("crawls").asInt());
    assertEquals(2, s.get("changes").asInt());
    assertEquals(2322432, s.get("intervalSeconds").asLong());
    assertEquals("2026-12-17T07:09:12.000Z", s.get("nextFetch").asText());
    assertEquals("2026-10-01T10:02:00.000Z", s.get("first").asText());
    // three versions kept: the first crawl is gone, so the oldest kept one compares with nothing
    assertEquals(
        List.of(
            "2026-11-20T10:02:00.000Z ok changed " + HistoryFixture.S2 + " 1",
            "2026-10-21T10:02:00.000Z gone changed null 0",
            "2026-10-11T10:02:00.000Z ok unknown " + HistoryFixture.S1 + " 1"),
        crawls(d.get("crawls")));
    assertTrue(d.get("next").isNull());
    assertEquals(
        List.of("2026-10-15T00:00:00.000Z 0", "2026-11-21T00:00:00.000Z 0"), series(d.get("urc")));
    // paging: every crawl once, in order, whatever the page size
    for (int limit = 1; limit <= 2; limit++) {
      List<String> all = new ArrayList<>();
      String after = "";
      int pages = 0;
      while (true) {
        JsonNode p = get("/api/v1/history?url=d.com&limit=" + limit + after, 200);
        assertEquals(d.get("schedule"), p.get("schedule"));
        assertEquals(d.get("urc"), p.get("urc"));
        all.addAll(crawls(p.get("crawls")));
        pages++;
        if (p.get("next").isNull()) {
          break;
        }
        after = "&after=" + p.get("next").asText();
      }
      assertEquals(crawls(d.get("crawls")), all, "limit " + limit);
      assertEquals(limit == 1 ? 3 : 2, pages);
    }
    JsonNode c = get("/api/v1/history?url=" + enc("http://c.com/"), 200);
    assertTrue(c.get("schedule").isNull());
    assertEquals(0, c.get("crawls").size());
    assertEquals(
        List.of(
            "2026-10-15T00:00:00.000Z 1",
            "2026-11-01T00:00:00.000Z 2",
            "2026-11-21T00:00:00.000Z 3"),
        series(c.get("urc")));
    JsonNode b = get("/api/v1/history?url=b.com", 200);
    assertEquals(
        List.of("2026-11-20T10:01:00.000Z ok first " + HistoryFixture.S3 + " 2"),
        crawls(b.get("crawls")));
    // refusals
    assertEquals(404, status("/api/v1/history?url=" + enc("http://nowhere.org/x")));
    assertEquals(400, status("/api/v1/history"));
    assertEquals(400, status("/api/v1/history?url=" + enc("ftp://c.com/")));
    assertEquals(400, status("/api/v1/history?url=d.com&limit=0"));
    JsonNode wrongCursor =
        get("/api/v1/history?url=d.com&after=" + workedQuery.top(1, null).next(), 400);
    assertTrue(
        wrongCursor.get("message").asText().contains("not a cursor"), wrongCursor.toString());
    // a served table without a history table
    switchServed("random");
    try {
      assertEquals(404, status("/api/v1/history?url=d.com"));
    } finally {
      switchServed("worked");
    }
  }

  /** The page view's timeline, schedule and urc sparkline (coordinates computed by hand). */
  @Test
  void pageViewShowsTheCrawlTimelineAndTheUrcSparkline() throws Exception {
    String d = fetch("/page?url=" + enc("http://d.com/")).body();
    assertTrue(d.contains("<section id=\"history\""), d);
    assertTrue(d.contains("crawled <span id=\"crawls\">4</span> times"), d);
    assertTrue(d.contains("<span id=\"interval\" title=\"2322432 s\">26 d 21 h</span>"), d);
    assertTrue(
        d.contains(
            "next fetch <time id=\"next-fetch\" datetime=\"2026-12-17T07:09:12.000Z\">"
                + "2026-12-17 07:09:12 UTC</time>"),
        d);
    java.util.regex.Matcher items =
        java.util.regex.Pattern.compile("<li class=\"crawl (\\w+)\"><time datetime=\"([^\"]+)\">")
            .matcher(d);
    List<String> timeline = new ArrayList<>();
    while (items.find()) {
      timeline.add(items.group(1) + " " + items.group(2));
    }
    assertEquals(
        List.of(
            "changed 2026-11-20T10:02:00.000Z",
            "gone 2026-10-21T10:02:00.000Z",
            "unknown 2026-10-11T10:02:00.000Z"),
        timeline,
        d);
    // d.com has urc 0 at both runs it was seen at: a flat line across the middle
    assertTrue(d.contains("<polyline class=\"spark-line\" points=\"4.0,20.0 236.0,20.0\"/>"), d);
    // c.com: only linked to; urc 1, 2, 3 at Oct 15, Nov 1 (17 of 37 days on), Nov 21:
    // x = 4, 4 + 232 * 17 / 37 = 110.6, 236; y = 36, 20, 4
    String c = fetch("/page?url=" + enc("http://c.com/")).body();
    assertTrue(c.contains("never crawled (only linked to)"), c);
    assertFalse(c.contains("id=\"timeline\""), c);
    assertTrue(
        c.contains("<polyline class=\"spark-line\" points=\"4.0,36.0 110.6,20.0 236.0,4.0\"/>"), c);
    assertTrue(c.contains("role=\"img\" aria-labelledby=\"urc-caption\""), c);
    assertTrue(
        c.contains("referenced by 3 pages at the latest of 3 runs (lowest 1, highest 3)"), c);
    assertTrue(c.contains("<td class=\"n\">2</td>"), c);
    String b = fetch("/page?url=" + enc("http://b.com/")).body();
    assertTrue(b.contains("<li class=\"crawl first\">"), b);
    assertTrue(b.contains("crawled <span id=\"crawls\">1</span> time since"), b);
  }

  /**
   * A user who may read the query table but not its history table (a grant forgotten): the page
   * view answers without its history, the history API says the index cannot be read (503).
   */
  @Test
  void historyNotReadableLeavesThePageViewWorking() throws Exception {
    createUser("nohistory", READER_PASSWORD);
    connector()
        .securityOperations()
        .grantTablePermission("nohistory", workedTable, TablePermission.READ);
    try (WebServer fixed =
        WebServer.start(
            WebOptions.local(0).withTable(workedTable),
            connectorAs("nohistory", READER_PASSWORD),
            WebindexConfig.load(dir.resolve("webindex.properties"), Map.of()))) {
      HttpResponse<String> page = fetch(fixed, "/page?url=" + enc("http://d.com/"));
      assertEquals(200, page.statusCode(), page.body());
      assertTrue(page.body().contains("the crawl history cannot be read now"), page.body());
      assertTrue(page.body().contains("C from D"), page.body());
      HttpResponse<String> api = fetch(fixed, "/api/v1/history?url=d.com");
      assertEquals(503, api.statusCode(), api.body());
      // a server without authentication says no more (the log has the table and the cause)
      assertTrue(api.body().contains("the index cannot be answered from now"), api.body());
    }
  }

  // ------------------------------------------------------------------ crawl frontier

  /**
   * The API's frontier of {@link FrontierFixture}, by hand: on 2026-12-01 only c.com's two URLs
   * (never crawled) are due, urc 3 first; on 2026-12-31 all five, the queues in the order of their
   * heads (c.com at once, a.com 10:00, b.com 10:01, d.com 10:02 on 2026-12-20), one URL of each a
   * round, c.com/page1 in the second.
   */
  @Test
  void frontierApi() throws Exception {
    JsonNode f = get("/api/v1/frontier?at=2026-12-01T00:00:00Z", 200);
    assertEquals(workedTable, f.get("table").asText());
    assertEquals(workedTable + "_frontier", f.get("frontier").asText());
    assertEquals("2026-12-01T00:00:00.000Z", f.get("at").asText());
    assertEquals(25, f.get("limit").asInt());
    assertEquals(1, f.get("perHost").asInt());
    assertEquals(List.of("null 3 c.com com.c http://c.com/"), dueUrls(f.get("urls")));
    assertEquals(
        "{\"queues\":4,\"urls\":5,\"due\":2,\"dueQueues\":1,\"inFlight\":0,"
            + "\"blockedQueues\":0,\"active\":true,\"skipped\":0}",
        f.get("summary").toString());
    JsonNode two = get("/api/v1/frontier?at=2026-12-01T00:00:00Z&perHost=2", 200);
    assertEquals(
        List.of("null 3 c.com com.c http://c.com/", "null 1 c.com com.c/page1 http://c.com/page1"),
        dueUrls(two.get("urls")));
    JsonNode all = get("/api/v1/frontier?at=2026-12-31T00:00:00Z&perHost=2&limit=10", 200);
    assertEquals(
        List.of(
            "null 3 c.com com.c http://c.com/",
            "2026-12-20T10:00:00.000Z 0 a.com com.a/page1 http://a.com/page1",
            "2026-12-20T10:01:00.000Z 1 b.com com.b http://b.com/",
            "2026-12-20T10:02:00.000Z 0 d.com com.d http://d.com/",
            "null 1 c.com com.c/page1 http://c.com/page1"),
        dueUrls(all.get("urls")));
    assertEquals(5, all.get("summary").get("due").asInt());
    assertEquals(4, all.get("summary").get("dueQueues").asInt());
    JsonNode cut = get("/api/v1/frontier?at=2026-12-31T00:00:00Z&perHost=2&limit=2", 200);
    assertEquals(
        List.of(
            "null 3 c.com com.c http://c.com/",
            "2026-12-20T10:00:00.000Z 0 a.com com.a/page1 http://a.com/page1"),
        dueUrls(cut.get("urls")));
    // without an instant: as of the start of the current 10-second window (one scan per window
    // and question), so two requests within one window get one answer
    long before = System.currentTimeMillis() / 10_000 * 10_000;
    JsonNode now1 = get("/api/v1/frontier?limit=3", 200);
    JsonNode now2 = get("/api/v1/frontier?limit=3", 200);
    long after = System.currentTimeMillis() / 10_000 * 10_000;
    long at1 = java.time.Instant.parse(now1.get("at").asText()).toEpochMilli();
    assertTrue(at1 == before || at1 == after, now1.toString());
    assertEquals(0, at1 % 10_000, now1.toString());
    if (before == after) {
      assertEquals(now1, now2);
    }
    // refusals: 400 with the reason
    JsonNode badAt = get("/api/v1/frontier?at=tomorrow", 400);
    assertTrue(
        badAt.get("message").asText().startsWith("at must be an ISO-8601 instant"),
        badAt.toString());
    assertEquals(400, status("/api/v1/frontier?at=1969-12-31T23:59:59Z"));
    assertEquals(400, status("/api/v1/frontier?perHost=0"));
    assertEquals(400, status("/api/v1/frontier?perHost=1001"));
    assertEquals(400, status("/api/v1/frontier?perHost=x"));
    assertEquals(400, status("/api/v1/frontier?limit=1001"));
    // a served table without a frontier table
    switchServed("random");
    try {
      assertEquals(404, status("/api/v1/frontier"));
      String page = fetch("/frontier").body();
      assertTrue(page.contains("no crawl frontier is kept for table"), page);
    } finally {
      switchServed("worked");
    }
  }

  /** The frontier page: the totals, the next URLs due each linking to its page view, the nav. */
  @Test
  void frontierPage() throws Exception {
    HttpResponse<String> r = fetch("/frontier?at=2026-12-31T00:00:00Z&perHost=2");
    assertEquals(200, r.statusCode(), r.body());
    String p = r.body();
    assertTrue(p.contains("<a href=\"/frontier\">Frontier</a>"), p);
    assertTrue(
        p.contains(
            "4 queues · 5 URLs in the frontier · 5 due at 2026-12-31T00:00:00.000Z · 4 queues"
                + " with a URL due"),
        p);
    java.util.regex.Matcher rows =
        java.util.regex.Pattern.compile(
                "<tr><td>([^<]+)</td><td class=\"n\">(\\d+)</td><td>([^<]+)</td>"
                    + "<td><a href=\"([^\"]+)\">([^<]+)</a></td></tr>")
            .matcher(p);
    List<String> table = new ArrayList<>();
    while (rows.find()) {
      table.add(
          rows.group(1)
              + " "
              + rows.group(2)
              + " "
              + rows.group(3)
              + " "
              + rows.group(4)
              + " "
              + rows.group(5));
    }
    assertEquals(
        List.of(
            "now 3 c.com /page?url=http%3A%2F%2Fc.com%2F http://c.com/",
            "2026-12-20T10:00:00.000Z 0 a.com /page?url=http%3A%2F%2Fa.com%2Fpage1"
                + " http://a.com/page1",
            "2026-12-20T10:01:00.000Z 1 b.com /page?url=http%3A%2F%2Fb.com%2F http://b.com/",
            "2026-12-20T10:02:00.000Z 0 d.com /page?url=http%3A%2F%2Fd.com%2F http://d.com/",
            "now 1 c.com /page?url=http%3A%2F%2Fc.com%2Fpage1 http://c.com/page1"),
        table,
        p);
    String dec1 = fetch("/frontier?at=2026-12-01T00:00:00Z").body();
    assertTrue(
        dec1.contains(
            "2 due at 2026-12-01T00:00:00.000Z · 1 queues with a URL due · 0 in flight · 0 queues"
                + " blocked"),
        dec1);
    assertEquals(400, status("/frontier?at=tomorrow"));
  }

  private static List<String> dueUrls(JsonNode urls) {
    List<String> out = new ArrayList<>();
    urls.forEach(
        u ->
            out.add(
                (u.get("due").isNull() ? "null" : u.get("due").asText())
                    + " "
                    + u.get("urc").asLong()
                    + " "
                    + u.get("queue").asText()
                    + " "
                    + u.get("uri").asText()
                    + " "
                    + u.get("url").asText()));
    return out;
  }

  private static List<String> crawls(JsonNode crawls) {
    List<String> out = new ArrayList<>();
    crawls.forEach(
        c ->
            out.add(
                c.get("crawled").asText()
                    + " "
                    + c.get("status").asText()
                    + " "
                    + c.get("change").asText()
                    + " "
                    + (c.get("signature").isNull() ? "null" : c.get("signature").asText())
                    + " "
                    + c.get("outlinks").asInt()));
    return out;
  }

  private static List<String> series(JsonNode urc) {
    List<String> out = new ArrayList<>();
    urc.forEach(u -> out.add(u.get("run").asText() + " " + u.get("urc").asLong()));
    return out;
  }

  /**
   * Without authentication the questions are answered, the health is minimal (up or down, the
   * served run, the lag) and nothing operational shows: no run message (process id, host,
   * exception), no report directory, no Accumulo instance, no table name in a 503, no health panel.
   * With authentication the same server shows it all.
   */
  @Test
  void withoutAuthenticationNoOperationalDetail() throws Exception {
    String prefix = newTableName("webpub");
    WebindexConfig cfg =
        WebindexConfig.load(
            dir.resolve("webindex.properties"), Map.of("webindex.table.prefix", prefix));
    RunRegistry runs = new RunRegistry(connector(), cfg.metaTable()).ensureTable();
    String leak = "running: pid 4242 on secret-host.example; java.io.IOException: disk full";
    Instant t = Instant.parse("2026-11-23T09:00:00Z");
    runs.put(
        new RunRecord(
            "leaky",
            RunRecord.Status.FAILED,
            0,
            "gone_table",
            t,
            t,
            List.of(),
            Map.of(),
            "",
            "",
            leak,
            4,
            io.webindex.core.Version.current().webindex()));
    runs.put(run("pub", workedTable, 0));
    runs.serve(runs.get("pub").orElseThrow());
    Path checks = dir.resolve("checks");
    WebOptions open = WebOptions.local(0).withChecksDir(checks).withServedCacheMillis(0);
    try (WebServer pub = WebServer.start(open, connector(), cfg)) {
      assertEquals(200, fetch(pub, "/api/v1/top").statusCode());
      String runsJson = fetch(pub, "/api/v1/runs").body();
      JsonNode leaky = null;
      for (JsonNode r : JSON.readTree(runsJson).get("runs")) {
        if (r.get("id").asText().equals("leaky")) {
          leaky = r;
        }
      }
      assertNotNull(leaky, runsJson);
      assertEquals("FAILED", leaky.get("status").asText());
      assertTrue(leaky.get("message").isNull(), runsJson);
      for (String body : List.of(runsJson, fetch(pub, "/runs").body())) {
        assertFalse(body.contains("secret-host") || body.contains("4242"), body);
      }
      JsonNode checksJson = JSON.readTree(fetch(pub, "/api/v1/checks").body());
      assertEquals(List.of("checks"), fieldNames(checksJson));
      assertEquals("CONSISTENT", checksJson.get("checks").get(0).get("verdict").asText());
      String checksPage = fetch(pub, "/checks").body();
      assertTrue(checksPage.contains("CONSISTENT"), checksPage);
      for (String body : List.of(checksJson.toString(), checksPage)) {
        assertFalse(body.contains(checks.toString()), body);
      }
      HttpResponse<String> h = fetch(pub, "/api/v1/health");
      assertEquals(200, h.statusCode(), h.body());
      JsonNode health = JSON.readTree(h.body());
      assertEquals(List.of("status", "run", "lag"), fieldNames(health));
      assertEquals("ok", health.get("status").asText());
      assertEquals("pub", health.get("run").asText());
      assertTrue(health.get("lag").isNull(), "no Fluo probe: no lag");
      assertFalse(h.body().contains(cfg.accumuloInstance()), h.body());
      assertFalse(fetch(pub, "/").body().contains("class=\"health\""));
    }
    // a missing table: the 503 says the index cannot be answered from, not which table
    try (WebServer pub = WebServer.start(open.withTable("no_such_pub_table"), connector(), cfg)) {
      HttpResponse<String> r = fetch(pub, "/api/v1/top");
      assertEquals(503, r.statusCode(), r.body());
      assertEquals(Failures.UNAVAILABLE, JSON.readTree(r.body()).get("message").asText());
      HttpResponse<String> page = fetch(pub, "/");
      assertEquals(503, page.statusCode());
      assertFalse(page.body().contains("no_such_pub_table"), page.body());
    }
    // authenticated, the same server shows the detail
    String basic =
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString("ops:pw-for-tests".getBytes(StandardCharsets.UTF_8));
    try (WebServer guarded =
        WebServer.start(
            open.withAuth(new WebOptions.BasicAuth("ops", "pw-for-tests")), connector(), cfg)) {
      assertTrue(fetchAuth(guarded, "/api/v1/runs", basic).body().contains("secret-host"));
      assertTrue(fetchAuth(guarded, "/api/v1/checks", basic).body().contains("\"directory\""));
      JsonNode health = JSON.readTree(fetchAuth(guarded, "/api/v1/health", basic).body());
      assertEquals(cfg.accumuloInstance(), health.get("accumulo").get("instance").asText());
    }
  }

  // ------------------------------------------------------------------ helpers

  private static String urlOf(String key) {
    try {
      return WebUrl.fromKey(key).toString();
    } catch (InvalidUrlException e) {
      throw new AssertionError("the reference holds a key that is not one: " + key, e);
    }
  }

  private static void switchServed(String run) {
    registry.serve(registry.get(run).orElseThrow());
  }

  private interface PageFetch {
    JsonNode get(String afterParam) throws Exception;
  }

  /**
   * Follows the cursors from the first page to the last; the items as "count url" / "url anchor".
   */
  private static List<String> walk(PageFetch page, String field) throws Exception {
    List<String> all = new ArrayList<>();
    String after = "";
    for (int i = 0; i < 100_000; i++) {
      JsonNode p = page.get(after);
      all.addAll(field.equals("inlinks") ? anchored(p.get(field)) : ranked(p.get(field)));
      if (p.get("next").isNull()) {
        return all;
      }
      after = "&after=" + p.get("next").asText();
    }
    throw new AssertionError("paging does not end");
  }

  private static List<String> ranked(JsonNode uris) {
    List<String> out = new ArrayList<>();
    uris.forEach(u -> out.add(u.get("urc").asLong() + " " + u.get("url").asText()));
    return out;
  }

  private static List<String> anchored(JsonNode links) {
    List<String> out = new ArrayList<>();
    links.forEach(u -> out.add(u.get("url").asText() + " " + u.get("anchor").asText()));
    return out;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> fetch(String path) throws Exception {
    return fetch(server, path);
  }

  private static HttpResponse<String> fetch(WebServer s, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> fetchAuth(WebServer s, String path, String authorization)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
            .header("Authorization", authorization)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int status(String path) throws Exception {
    return fetch(path).statusCode();
  }

  private static JsonNode get(String path, int expectedStatus) throws Exception {
    HttpResponse<String> r = fetch(path);
    assertEquals(expectedStatus, r.statusCode(), path + ": " + r.body());
    assertTrue(
        r.headers().firstValue("content-type").orElse("").startsWith("application/json"), path);
    return JSON.readTree(r.body());
  }
}
