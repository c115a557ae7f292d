package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.Cells;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.JsonLinesFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.Connector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Main}'s dump and query commands in-process against the base's MiniAccumulo (configured
 * through a conf file with a password file, as an operator would), and {@code dev} end to end: an
 * {@link EmbeddedAccumulo} found by the other commands through its connection file.
 */
class CliIT extends AccumuloITBase {
  private static Path home;
  private static Path conf;
  private static String table;
  private static final String TOP =
      "3\thttp://c.com/\n1\thttp://b.com/\n1\thttp://c.com/page1\n0\thttp://a.com/page1\n"
          + "0\thttp://d.com/\n";

  @BeforeAll
  static void writeConfAndWorkedExample() throws IOException {
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
    Cells.write(connector(), table, workedExample().cells());
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
    assertEquals(resource("worked-example.tsv"), r.out());
  }

  @Test
  void dumpToAFile() throws IOException {
    Path out = home.resolve("dump.tsv");
    Run r = cli("dump", "--table", table, "--out", out.toString());
    assertEquals(0, r.status(), r.toString());
    assertEquals("", r.out());
    assertTrue(r.err().contains("dumped 27 cells of table " + table + " to " + out), r.err());
    assertEquals(resource("worked-example.tsv"), Files.readString(out));
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

  @Test
  void confFromHomeIsTheDefault() throws IOException {
    Path otherHome = Files.createTempDirectory(clusterDir(), "home-");
    Files.createDirectories(otherHome.resolve("conf"));
    Files.copy(conf, otherHome.resolve(Cli.CONF_FILE));
    Run r = Run.of(otherHome, "query", "top", "--table", table);
    assertEquals(0, r.status(), r.toString());
    assertEquals(TOP, r.out());
  }

  /**
   * {@code dev} in a fresh home: connection files appear (password file owner-only), the other
   * commands find the instance with no --conf, a second {@code dev} is refused, and stopping it
   * removes the connection files.
   */
  @Test
  void devServesTheOtherCommands() throws Exception {
    Path devHome = Files.createTempDirectory(clusterDir(), "devhome-");
    Path devDir = devHome.resolve(Cli.DEV_DIR);
    Path connFile = devDir.resolve(EmbeddedAccumulo.CONNECTION_FILE);
    Path pwFile = devDir.resolve(EmbeddedAccumulo.PASSWORD_FILE);
    ByteArrayOutputStream devOut = new ByteArrayOutputStream();
    ByteArrayOutputStream devErr = new ByteArrayOutputStream();
    Cli devCtx = new Cli(devHome, devOut, devErr);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> dev = pool.submit(() -> Main.run(List.of("dev"), devCtx));
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!devOut.toString(StandardCharsets.UTF_8).contains("press Ctrl-C")) {
        assertFalse(dev.isDone(), () -> "dev ended: " + devErr.toString(StandardCharsets.UTF_8));
        assertTrue(System.nanoTime() < deadline, "dev did not start in 3 minutes");
        Thread.sleep(200);
      }
      String shown = devOut.toString(StandardCharsets.UTF_8);
      assertTrue(shown.contains("connection file: " + connFile), shown);
      assertEquals(
          "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(pwFile)));
      String password = Files.readString(pwFile).strip();
      assertTrue(password.length() >= 20);
      assertFalse(shown.contains(password), "the password is never printed");
      assertFalse(devErr.toString(StandardCharsets.UTF_8).contains(password));
      assertFalse(Files.readString(connFile).contains(password));

      WebindexConfig cfg = WebindexConfig.load(connFile, Map.of());
      assertEquals(EmbeddedAccumulo.USER, cfg.accumuloUser());
      assertEquals(password, cfg.accumuloPassword().value());
      assertEquals(EmbeddedAccumulo.fileUri(devDir.resolve("store")), cfg.storeRoot());
      assertEquals(EmbeddedAccumulo.fileUri(devDir.resolve("work")), cfg.workDir());
      assertTrue(Files.isDirectory(devDir.resolve("store")));
      Connector devConnector = AccumuloConnections.connect(cfg);
      devConnector.tableOperations().create("worked");
      Cells.write(devConnector, "worked", workedExample().cells());

      Run top = Run.of(devHome, "query", "top", "--table", "worked");
      assertEquals(0, top.status(), top.toString());
      assertEquals(TOP, top.out());
      Run second = Run.of(devHome, "dev");
      assertEquals(2, second.status(), second.toString());
      assertTrue(second.err().contains("already running in " + devDir), second.err());

      devCtx.requestStop();
      assertEquals(0, (int) dev.get(2, TimeUnit.MINUTES), devErr.toString(StandardCharsets.UTF_8));
      assertFalse(Files.exists(connFile), "connection file removed on stop");
      assertFalse(Files.exists(pwFile), "password file removed on stop");
      Run after = Run.of(devHome, "query", "top", "--table", "worked");
      assertEquals(2, after.status());
      assertTrue(after.err().contains("no configuration"), after.err());
    } finally {
      devCtx.requestStop();
      pool.shutdown();
      pool.awaitTermination(2, TimeUnit.MINUTES);
    }
  }

  private static ReferenceIndex workedExample() {
    List<Page> pages = JsonLinesFixtures.read(CliIT.class, "worked-example.jsonl");
    ReferenceIndex index = new ReferenceIndex();
    index.applyAll(pages);
    return index;
  }

  private static String resource(String name) {
    try (InputStream in = CliIT.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
