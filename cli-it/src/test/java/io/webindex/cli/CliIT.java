package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.ops.Lease;
import io.webindex.core.frontier.ops.QueueState;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.core.schema.FrontierOpsSchema;
import io.webindex.core.schema.FrontierOpsSchema.QueueKey;
import io.webindex.store.Cells;
import io.webindex.store.FrontierTables;
import io.webindex.store.HistoryTables;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.FrontierFixture;
import io.webindex.testkit.HistoryFixture;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.WorkedExample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Main}'s dump and query commands in-process against the base's MiniAccumulo (configured
 * through a conf file with a password file, as an operator would). {@code dev} serving them through
 * its connection file is {@link DevSecurityIT}'s.
 */
@SharedCluster
class CliIT extends AccumuloITBase {
  private static Path home;
  private static Path conf;
  private static String table;

  /** {@code query top} of the worked example. */
  static final String TOP =
      "3\thttp://c.com/\n1\thttp://b.com/\n1\thttp://c.com/page1\n0\thttp://a.com/page1\n"
          + "0\thttp://d.com/\n";

  @BeforeAll
  static void writeConfAndWorkedExample() throws Exception {
    home = Files.createTempDirectory(clusterDir(), "home-");
    // a password file is private to its owner (group or others may not read it: refused)
    Path password =
        Files.createFile(
            home.resolve("accumulo.password"),
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    Files.writeString(password, ROOT_PASSWORD + "\n");
    conf = home.resolve("it.properties");
    Files.writeString(
        conf,
        String.join(
            "\n",
            WebindexConfig.INSTANCE + "=" + instanceName(),
            WebindexConfig.ZOOKEEPERS + "=" + zookeepers(),
            WebindexConfig.USER + "=" + ROOT_USER,
            WebindexConfig.PASSWORD_FILE + "=" + password,
            ""));
    table = createTable("worked");
    Cells.write(connector(), table, WorkedExample.index().cells());
    HistoryFixture.write(
        connector(),
        HistoryTables.createFresh(connector(), table, HistoryFixture.SETTINGS),
        HistoryFixture.cells());
    FrontierFixture.write(
        connector(), FrontierTables.createFresh(connector(), table), FrontierFixture.cells());
  }

  private Run cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--conf");
    all.add(conf.toString());
    return Run.of(home, all);
  }

  @Test
  void dumpToStdoutIsTheGoldenFile() {
    Run r = cli("dump", "--table", table);
    assertEquals(0, r.status(), r.toString());
    assertEquals(WorkedExample.dump(), r.out());
  }

  @Test
  void dumpToAFile() throws IOException {
    Path out = home.resolve("dump.tsv");
    Run r = cli("dump", "--table", table, "--out", out.toString());
    assertEquals(0, r.status(), r.toString());
    assertEquals("", r.out());
    assertTrue(r.err().contains("dumped 27 cells of table " + table + " to " + out), r.err());
    assertEquals(WorkedExample.dump(), Files.readString(out));
  }

  @Test
  void missingTable() {
    Run r = cli("dump", "--table", "no_such_table", "--out", home.resolve("x.tsv").toString());
    assertEquals(2, r.status(), r.toString());
    assertEquals("webindex: no table 'no_such_table' in Accumulo\n", r.err());
    assertFalse(Files.exists(home.resolve("x.tsv")), "no partial file");
    assertEquals(2, cli("query", "top", "--table", "no_such_table").status());
  }

  @Test
  void queryTop() {
    Run r = cli("query", "top", "--table", table);
    assertEquals(0, r.status(), r.toString());
    assertEquals(TOP, r.out());
    assertEquals("", r.err());
  }

  /** --json: the same answers as one JSON object each (hand-checked against the worked example). */
  @Test
  void queryAnswersAsJson() throws Exception {
    ObjectMapper json = new ObjectMapper();
    Run top = cli("query", "top", "--table", table, "--limit", "2", "--json");
    assertEquals(0, top.status(), top.toString());
    JsonNode t = json.readTree(top.out());
    assertEquals(table, t.path("table").asText());
    assertEquals(2, t.path("uris").size());
    assertEquals("http://c.com/", t.path("uris").get(0).path("url").asText());
    assertEquals("com.c", t.path("uris").get(0).path("uri").asText());
    assertEquals(3, t.path("uris").get(0).path("urc").asLong());
    assertEquals("http://b.com/", t.path("uris").get(1).path("url").asText());
    // the cursor is the one the text form prints
    Run text = cli("query", "top", "--table", table, "--limit", "2");
    assertEquals(
        "next: --after " + t.path("next").asText(), text.lines().get(text.lines().size() - 1));

    JsonNode d =
        json.readTree(cli("query", "domain", "www.c.com", "--table", table, "--json").out());
    assertEquals("com.c", d.path("domain").asText());
    assertEquals(2, d.path("pagecount").asLong());
    assertEquals(2, d.path("uris").size());
    assertTrue(d.path("next").isNull());

    JsonNode i =
        json.readTree(cli("query", "inlinks", "http://c.com/", "--table", table, "--json").out());
    assertEquals(3, i.path("incount").asLong());
    assertEquals("http://a.com/page1", i.path("inlinks").get(0).path("url").asText());
    assertEquals("C from A", i.path("inlinks").get(0).path("anchor").asText());
    assertEquals(3, i.path("inlinks").size());
  }

  @Test
  void queryTopPaged() {
    for (String limit : List.of("1", "2")) {
      StringBuilder all = new StringBuilder();
      String after = null;
      int pages = 0;
      do {
        Run r =
            after == null
                ? cli("query", "top", "--table", table, "--limit", limit)
                : cli("query", "top", "--table", table, "--limit", limit, "--after", after);
        assertEquals(0, r.status(), r.toString());
        after = null;
        for (String line : r.lines()) {
          if (line.startsWith("next: --after ")) {
            after = line.substring("next: --after ".length());
          } else {
            all.append(line).append('\n');
          }
        }
        pages++;
      } while (after != null);
      assertEquals(TOP, all.toString(), "limit " + limit);
      assertEquals(5 / Integer.parseInt(limit) + (5 % Integer.parseInt(limit) == 0 ? 0 : 1), pages);
    }
  }

  @Test
  void queryDomain() {
    Run r = cli("query", "domain", "www.c.com", "--table", table);
    assertEquals(0, r.status(), r.toString());
    assertEquals("domain com.c  pagecount 2\n3\thttp://c.com/\n1\thttp://c.com/page1\n", r.out());
    Run first = cli("query", "domain", "c.com", "--table", table, "--limit", "1");
    assertEquals(3, first.lines().size(), first.toString());
    String next = first.lines().get(2);
    assertTrue(next.startsWith("next: --after "), next);
    Run second =
        cli(
            "query",
            "domain",
            "c.com",
            "--table",
            table,
            "--limit",
            "1",
            "--after",
            next.substring("next: --after ".length()));
    assertEquals("domain com.c  pagecount 2\n1\thttp://c.com/page1\n", second.out());
    Run unknown = cli("query", "domain", "nowhere.org", "--table", table);
    assertEquals("domain org.nowhere  pagecount 0\n", unknown.out());
  }

  @Test
  void queryInlinks() {
    Run r = cli("query", "inlinks", "http://c.com/", "--table", table);
    assertEquals(0, r.status(), r.toString());
    assertEquals(
        "page http://c.com/  incount 3\n"
            + "http://a.com/page1\tC from A\n"
            + "http://b.com/\tC from B\n"
            + "http://d.com/\tC from D\n",
        r.out());
    Run page1 = cli("query", "inlinks", "c.com/page1", "--table", table, "--limit", "5");
    assertEquals("page http://c.com/page1  incount 1\nhttp://b.com/\tC page one\n", page1.out());
    Run bad = cli("query", "inlinks", "ftp://c.com/", "--table", table);
    assertEquals(2, bad.status());
    assertTrue(bad.err().startsWith("webindex: not a valid http(s) URL: ftp://c.com/"), bad.err());
    Run badCursor = cli("query", "inlinks", "c.com", "--table", table, "--after", "xyz");
    assertEquals(2, badCursor.status());
    assertTrue(badCursor.err().contains("not a cursor"), badCursor.err());
  }

  /**
   * The hand-checked history of {@link HistoryFixture}: the table keeps three versions, so d.com's
   * first crawl is gone and the oldest kept one has nothing to compare with.
   */
  private static final String D_HISTORY =
      """
      page http://d.com/  crawls 4  changes 2
      first 2026-10-01T10:02:00.000Z  last 2026-11-20T10:02:00.000Z  modified 2026-11-20T10:02:00.000Z
      interval 2322432 s (26 d 21 h)  next fetch 2026-12-17T07:09:12.000Z
      2026-11-20T10:02:00.000Z\tok\tchanged\tsha1:Q3OG3UBCBNXGFQRQD5ZKQNGYKTAWCIVP\t1
      2026-10-21T10:02:00.000Z\tgone\tchanged\t-\t0
      2026-10-11T10:02:00.000Z\tok\tunknown\tsha1:2WE5WN7RJ2XWNPMCZJBPQEPKWDYO7FKW\t1
      urc\t2026-10-15T00:00:00.000Z\t0
      urc\t2026-11-21T00:00:00.000Z\t0
      """;

  @Test
  void history() {
    Run d = cli("history", "D.com:80/#top", "--table", table);
    assertEquals(0, d.status(), d.toString());
    assertEquals(D_HISTORY, d.out());
    assertEquals("", d.err());
    Run b = cli("history", "http://b.com/", "--table", table);
    assertEquals(
        "page http://b.com/  crawls 1  changes 0\n"
            + "first 2026-11-20T10:01:00.000Z  last 2026-11-20T10:01:00.000Z"
            + "  modified 2026-11-20T10:01:00.000Z\n"
            + "interval 2592000 s (30 d 0 h)  next fetch 2026-12-20T10:01:00.000Z\n"
            + "2026-11-20T10:01:00.000Z\tok\tfirst\tidx:LJ4SLPPQKXHNUB6J6Z7RLYAZVJPZFAOM\t2\n"
            + "urc\t2026-11-21T00:00:00.000Z\t1\n",
        b.out());
    // a URI key works too; a page only linked to has its urc series and nothing else
    Run c = cli("history", "com.c", "--table", table);
    assertEquals(
        "page http://c.com/  never crawled\n"
            + "urc\t2026-10-15T00:00:00.000Z\t1\n"
            + "urc\t2026-11-01T00:00:00.000Z\t2\n"
            + "urc\t2026-11-21T00:00:00.000Z\t3\n",
        c.out());
  }

  /** Paging with the cursors prints every kept crawl once, in order, with the same header. */
  @Test
  void historyPaged() {
    List<String> all = D_HISTORY.lines().toList();
    List<String> header = all.subList(0, 3);
    List<String> crawls = all.subList(3, 6);
    List<String> urc = all.subList(6, 8);
    for (int limit = 1; limit <= 3; limit++) {
      List<String> seen = new ArrayList<>();
      String after = null;
      int pages = 0;
      do {
        List<String> args =
            new ArrayList<>(
                List.of("history", "http://d.com/", "--table", table, "--limit", "" + limit));
        if (after != null) {
          args.add("--after");
          args.add(after);
        }
        Run r = cli(args.toArray(new String[0]));
        assertEquals(0, r.status(), r.toString());
        List<String> lines = new ArrayList<>(r.lines());
        after = null;
        String last = lines.get(lines.size() - 1);
        if (last.startsWith("next: --after ")) {
          after = last.substring("next: --after ".length());
          lines.remove(lines.size() - 1);
        }
        assertEquals(header, lines.subList(0, 3), r.toString());
        assertEquals(urc, lines.subList(lines.size() - 2, lines.size()), r.toString());
        seen.addAll(lines.subList(3, lines.size() - 2));
        pages++;
      } while (after != null);
      assertEquals(crawls, seen, "limit " + limit);
      assertEquals((3 + limit - 1) / limit, pages, "limit " + limit);
    }
  }

  @Test
  void historyAsJson() throws Exception {
    ObjectMapper json = new ObjectMapper();
    Run r = cli("history", "d.com", "--table", table, "--limit", "2", "--json");
    assertEquals(0, r.status(), r.toString());
    JsonNode h = json.readTree(r.out());
    assertEquals(table, h.path("table").asText());
    assertEquals(table + "_history", h.path("history").asText());
    assertEquals("com.d", h.path("uri").asText());
    assertEquals("http://d.com/", h.path("url").asText());
    JsonNode s = h.path("schedule");
    assertEquals("2026-10-01T10:02:00.000Z", s.path("first").asText());
    assertEquals("2026-11-20T10:02:00.000Z", s.path("last").asText());
    assertEquals("2026-11-20T10:02:00.000Z", s.path("modified").asText());
    assertEquals(4, s.path("crawls").asInt());
    assertEquals(2, s.path("changes").asInt());
    assertEquals(2322432, s.path("intervalSeconds").asLong());
    assertEquals("2026-12-17T07:09:12.000Z", s.path("nextFetch").asText());
    JsonNode crawls = h.path("crawls");
    assertEquals(2, crawls.size());
    assertEquals("2026-11-20T10:02:00.000Z", crawls.get(0).path("crawled").asText());
    assertEquals("ok", crawls.get(0).path("status").asText());
    assertEquals("changed", crawls.get(0).path("change").asText());
    assertEquals(HistoryFixture.S2, crawls.get(0).path("signature").asText());
    assertEquals(1, crawls.get(0).path("outlinks").asInt());
    assertEquals("gone", crawls.get(1).path("status").asText());
    assertTrue(crawls.get(1).path("signature").isNull());
    assertEquals(0, crawls.get(1).path("outlinks").asInt());
    assertEquals(2, h.path("urc").size());
    assertEquals("2026-10-15T00:00:00.000Z", h.path("urc").get(0).path("run").asText());
    assertEquals(0, h.path("urc").get(0).path("urc").asLong());
    // the cursor is the one the text form prints
    Run text = cli("history", "d.com", "--table", table, "--limit", "2");
    assertEquals(
        "next: --after " + h.path("next").asText(), text.lines().get(text.lines().size() - 1));
    JsonNode last =
        json.readTree(
            cli("history", "d.com", "--table", table, "--json", "--after", h.path("next").asText())
                .out());
    assertEquals(1, last.path("crawls").size());
    assertEquals("unknown", last.path("crawls").get(0).path("change").asText());
    assertTrue(last.path("next").isNull());
  }

  @Test
  void historyRefusals() {
    Run unknown = cli("history", "http://nowhere.org/x", "--table", table);
    assertEquals(2, unknown.status(), unknown.toString());
    assertEquals(
        "webindex: no crawl history of http://nowhere.org/x in table '" + table + "_history'\n",
        unknown.err());
    assertEquals("", unknown.out());
    Run bad = cli("history", "ftp://c.com/", "--table", table);
    assertEquals(2, bad.status());
    assertTrue(bad.err().startsWith("webindex: not a valid http(s) URL: ftp://c.com/"), bad.err());
    String topCursor = cli("query", "top", "--table", table, "--limit", "1").lines().get(1);
    Run badCursor =
        cli(
            "history",
            "d.com",
            "--table",
            table,
            "--after",
            topCursor.substring("next: --after ".length()));
    assertEquals(2, badCursor.status());
    assertTrue(badCursor.err().contains("not a cursor of this query"), badCursor.err());
    Run missing = cli("history", "--table", table);
    assertEquals(2, missing.status());
    assertTrue(missing.err().startsWith("webindex: missing <url>"), missing.err());
    String plain = createTable("nohistory");
    Run noTable = cli("history", "d.com", "--table", plain);
    assertEquals(2, noTable.status());
    assertEquals(
        "webindex: no crawl history table '"
            + plain
            + "_history' in Accumulo (a recompute creates it with the query table '"
            + plain
            + "')\n",
        noTable.err());
  }

  /**
   * The worked example's frontier ({@link FrontierFixture}), by hand: on 2026-12-01 only c.com's
   * two never-crawled URLs are due (urc 3 first); one per queue by default, both with --per-host 2.
   * On 2026-12-31 everything is due: the queues in the order of their heads (c.com at once, then
   * a.com 10:00, b.com 10:01, d.com 10:02 on 2026-12-20), one URL of each per round, c.com/page1 in
   * the second round.
   */
  @Test
  void frontier() throws Exception {
    String dec1 =
        "queues 4  urls 5  due 2  due-queues 1  in-flight 0  blocked-queues 0  skipped 0  at 2026-12-01T00:00:00.000Z\n";
    Run one = cli("frontier", "--at", "2026-12-01T00:00:00Z", "--limit", "10", "--table", table);
    assertEquals(0, one.status(), one.toString());
    assertEquals("now\t3\tc.com\thttp://c.com/\n" + dec1, one.out());
    assertEquals("", one.err());
    Run two = cli("frontier", "--at", "2026-12-01T00:00:00Z", "--per-host", "2", "--table", table);
    assertEquals(0, two.status(), two.toString());
    assertEquals(
        "now\t3\tc.com\thttp://c.com/\nnow\t1\tc.com\thttp://c.com/page1\n" + dec1, two.out());
    String dec31 =
        "now\t3\tc.com\thttp://c.com/\n"
            + "2026-12-20T10:00:00.000Z\t0\ta.com\thttp://a.com/page1\n"
            + "2026-12-20T10:01:00.000Z\t1\tb.com\thttp://b.com/\n"
            + "2026-12-20T10:02:00.000Z\t0\td.com\thttp://d.com/\n";
    String sum31 =
        "queues 4  urls 5  due 5  due-queues 4  in-flight 0  blocked-queues 0  skipped 0  at 2026-12-31T00:00:00.000Z\n";
    Run all = cli("frontier", "--at", "2026-12-31T00:00:00Z", "--table", table);
    assertEquals(0, all.status(), all.toString());
    assertEquals(dec31 + sum31, all.out());
    Run allTwo =
        cli("frontier", "--at", "2026-12-31T00:00:00Z", "--per-host", "2", "--table", table);
    assertEquals(dec31 + "now\t1\tc.com\thttp://c.com/page1\n" + sum31, allTwo.out());
    Run limited = cli("frontier", "--at", "2026-12-31T00:00:00Z", "--limit", "2", "--table", table);
    assertEquals(
        "now\t3\tc.com\thttp://c.com/\n"
            + "2026-12-20T10:00:00.000Z\t0\ta.com\thttp://a.com/page1\n"
            + sum31,
        limited.out());
    // the frontier service's state (its operational table, written as AccumuloUrlFrontier
    // writes it): c.com/ in flight until 2027, a.com blocked until 2027: at the end of December
    // c.com's second URL heads its queue, a.com is left out
    String ops = FrontierOpsSchema.opsTable("cliops");
    connector().tableOperations().create(ops);
    long y2027 = Instant.parse("2027-01-01T00:00:00Z").toEpochMilli();
    List<io.webindex.core.schema.Cell> opsCells = new ArrayList<>();
    opsCells.addAll(
        FrontierOpsSchema.cells(
            new QueueKey(UrlFrontier.DEFAULT_CRAWL, "c.com"),
            QueueState.EMPTY.withLeases(Map.of("com.c", new Lease(y2027, "p1")))));
    opsCells.addAll(
        FrontierOpsSchema.cells(
            new QueueKey(UrlFrontier.DEFAULT_CRAWL, "a.com"),
            QueueState.EMPTY.withBlockedUntil(y2027 / 1000)));
    Cells.write(connector(), ops, opsCells);
    Path opsConf = home.resolve("ops.properties");
    Files.writeString(opsConf, Files.readString(conf) + WebindexConfig.TABLE_PREFIX + "=cliops\n");
    Run held =
        Run.of(
            home,
            List.of(
                "frontier",
                "--at",
                "2026-12-31T00:00:00Z",
                "--table",
                table,
                "--conf",
                opsConf.toString()));
    assertEquals(0, held.status(), held.toString());
    assertEquals(
        "now\t1\tc.com\thttp://c.com/page1\n"
            + "2026-12-20T10:01:00.000Z\t1\tb.com\thttp://b.com/\n"
            + "2026-12-20T10:02:00.000Z\t0\td.com\thttp://d.com/\n"
            + "queues 4  urls 5  due 5  due-queues 4  in-flight 1  blocked-queues 1  skipped 0"
            + "  at 2026-12-31T00:00:00.000Z\n",
        held.out());
    // by default the instant is now (after 2026-12-20: a test run before that date sees 2 due)
    Run now = cli("frontier", "--table", table);
    assertEquals(0, now.status(), now.toString());
    assertTrue(now.out().startsWith("now\t3\tc.com\thttp://c.com/\n"), now.out());
  }

  @Test
  void frontierAsJson() throws Exception {
    Run r =
        cli(
            "frontier",
            "--at",
            "2026-12-20T10:01:00Z",
            "--per-host",
            "2",
            "--json",
            "--table",
            table);
    assertEquals(0, r.status(), r.toString());
    JsonNode f = new ObjectMapper().readTree(r.out());
    assertEquals(table, f.path("table").asText());
    assertEquals(table + "_frontier", f.path("frontier").asText());
    assertEquals("2026-12-20T10:01:00.000Z", f.path("at").asText());
    assertEquals(10, f.path("limit").asInt());
    assertEquals(2, f.path("perHost").asInt());
    JsonNode urls = f.path("urls");
    // due at 10:01: c.com (at once), a.com (10:00), b.com (exactly 10:01); then c.com's second
    assertEquals(4, urls.size());
    assertTrue(urls.get(0).path("due").isNull());
    assertEquals(3, urls.get(0).path("urc").asLong());
    assertEquals("c.com", urls.get(0).path("queue").asText());
    assertEquals("com.c", urls.get(0).path("uri").asText());
    assertEquals("http://c.com/", urls.get(0).path("url").asText());
    assertEquals("2026-12-20T10:00:00.000Z", urls.get(1).path("due").asText());
    assertEquals("com.a/page1", urls.get(1).path("uri").asText());
    assertEquals("2026-12-20T10:01:00.000Z", urls.get(2).path("due").asText());
    assertEquals("http://b.com/", urls.get(2).path("url").asText());
    assertEquals("http://c.com/page1", urls.get(3).path("url").asText());
    assertEquals(1, urls.get(3).path("urc").asLong());
    JsonNode s = f.path("summary");
    assertEquals(4, s.path("queues").asLong());
    assertEquals(5, s.path("urls").asLong());
    assertEquals(4, s.path("due").asLong());
    assertEquals(3, s.path("dueQueues").asLong());
    assertEquals(0, s.path("skipped").asLong());
  }

  @Test
  void frontierRefusals() {
    Run badAt = cli("frontier", "--at", "tomorrow", "--table", table);
    assertEquals(2, badAt.status(), badAt.toString());
    assertEquals(
        "webindex: --at must be an ISO-8601 instant from 1970 on, such as 2026-12-01T00:00:00Z:"
            + " tomorrow (see bin/webindex help frontier)\n",
        badAt.err());
    assertEquals("", badAt.out());
    Run badPerHost = cli("frontier", "--per-host", "0", "--table", table);
    assertEquals(2, badPerHost.status());
    assertTrue(badPerHost.err().startsWith("webindex: --per-host must be between 1 and 10000"));
    Run extra = cli("frontier", "c.com", "--table", table);
    assertEquals(2, extra.status());
    assertTrue(extra.err().startsWith("webindex: unexpected argument 'c.com'"), extra.err());
    String plain = createTable("nofrontier");
    Run noTable = cli("frontier", "--table", plain);
    assertEquals(2, noTable.status());
    assertEquals(
        "webindex: no frontier table '"
            + plain
            + "_frontier' in Accumulo (a recompute creates it with the query table '"
            + plain
            + "')\n",
        noTable.err());
  }

  @Test
  void confFromHomeIsTheDefault() throws IOException {
    Path otherHome = Files.createTempDirectory(clusterDir(), "home-");
    Files.createDirectories(otherHome.resolve("conf"));
    Files.copy(conf, otherHome.resolve(Cli.CONF_FILE));
    Run r = Run.of(otherHome, "query", "top", "--table", table);
    assertEquals(0, r.status(), r.toString());
    assertEquals(TOP, r.out());
  }
}
