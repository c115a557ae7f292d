package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import io.webindex.embedded.MiniAccumulo;
import io.webindex.store.QueryService.DomainAnswer;
import io.webindex.store.QueryService.Inlink;
import io.webindex.store.QueryService.InlinksAnswer;
import io.webindex.store.QueryService.RankedUri;
import io.webindex.store.QueryService.TopAnswer;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.WorkedExample;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query table of the worked example of docs/tables.md and of a randomized web, written through
 * {@link Cells}, dumped by {@link TableDump} and queried by {@link QueryService}, against the
 * in-memory {@link ReferenceIndex}.
 */
@SharedCluster
class QueryServiceIT extends AccumuloITBase {
  private static ReferenceIndex worked;
  private static String workedTable;
  private static QueryService q;

  @BeforeAll
  static void loadWorkedExample() {
    worked = WorkedExample.index();
    workedTable = createTable("worked");
    assertEquals(worked.cells().size(), Cells.write(connector(), workedTable, worked.cells()));
    q = new QueryService(connector(), workedTable);
  }

  // ------------------------------------------------------------------ in-memory map

  /**
   * The tablet server keeps its in-memory map (which the tests of this class write into) in
   * Accumulo's native map whenever the build made the library for this platform and {@code
   * webindex.embedded.native-map} does not switch it off: the server's own log says it loaded the
   * library and never that it failed to, its process has the library mapped, and {@link
   * MiniAccumulo#memoryMap()} reports what the log says.
   */
  @Test
  void tabletServerUsesTheNativeMapWhenBuilt() throws IOException {
    boolean built =
        QueryServiceIT.class
                .getClassLoader()
                .getResource(
                    "io/webindex/embedded/native/"
                        + System.getProperty("os.name")
                        + "-"
                        + System.getProperty("os.arch")
                        + "/"
                        + System.mapLibraryName("accumulo"))
            != null;
    boolean wanted = !"false".equals(System.getProperty("webindex.embedded.native-map"));
    String tserverLog;
    try (Stream<Path> files = Files.list(clusterDir().resolve("logs"))) {
      tserverLog =
          files
              .filter(f -> f.getFileName().toString().startsWith("TabletServer_"))
              .map(QueryServiceIT::readLog)
              .collect(Collectors.joining("\n"));
    }
    boolean loaded = tserverLog.contains("Loaded native map shared library");
    assertTrue(!tserverLog.contains("Tried and failed to load native map library"), tserverLog);
    assertEquals(built && wanted, loaded, tserverLog);
    Path proc = Path.of("/proc");
    if (Files.isDirectory(proc)) {
      // Linux: the tablet server process has the library mapped, or not. The cluster may be one
      // of the build's pool, started by another test JVM (not a descendant of this one): its
      // tablet server is the one whose command line names this cluster's directory.
      String dir = clusterDir().toString();
      List<Long> tservers =
          ProcessHandle.allProcesses()
              .map(ProcessHandle::pid)
              .filter(
                  pid -> {
                    String cmdline = readCmdline(proc.resolve(pid + "/cmdline"));
                    return cmdline.contains("TabletServer") && cmdline.contains(dir);
                  })
              .toList();
      assertEquals(1, tservers.size(), "one tablet server");
      assertEquals(
          loaded,
          readLog(proc.resolve(tservers.get(0) + "/maps"))
              .contains("/" + System.mapLibraryName("accumulo")));
    }
    assertEquals(
        loaded ? MiniAccumulo.MemoryMap.NATIVE : MiniAccumulo.MemoryMap.JAVA,
        MiniAccumulo.memoryMapIn(clusterDir()));
  }

  /** A process's command line, or empty when the process ended (or is not ours to read). */
  private static String readCmdline(Path file) {
    try {
      return Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }

  private static String readLog(Path file) {
    try {
      return Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------ dump

  @Test
  void dumpEqualsReferenceAndGoldenFile() throws IOException {
    StringWriter out = new StringWriter();
    long n = TableDump.dump(connector(), workedTable, out);
    List<String> expected = DumpFormat.lines(worked.cells());
    assertEquals(expected.size(), n);
    assertEquals(String.join("\n", expected) + "\n", out.toString());
    assertEquals(WorkedExample.dump(), out.toString());
  }

  @Test
  void missingTableIsAClearStoreException() {
    StoreException e =
        assertThrows(
            StoreException.class,
            () -> TableDump.dump(connector(), "no_such_table", new StringWriter()));
    assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
    assertThrows(StoreException.class, () -> new QueryService(connector(), "no_such_table"));
  }

  // ------------------------------------------------------------------ the three answers

  @Test
  void topOfWorkedExample() {
    TopAnswer all = q.top(10, null);
    assertNull(all.next());
    assertEquals(
        List.of(
            new RankedUri("com.c", "http://c.com/", 3),
            new RankedUri("com.b", "http://b.com/", 1),
            new RankedUri("com.c/page1", "http://c.com/page1", 1),
            new RankedUri("com.a/page1", "http://a.com/page1", 0),
            new RankedUri("com.d", "http://d.com/", 0)),
        all.uris());
    for (int limit : new int[] {1, 2, 4, 5}) {
      assertEquals(all.uris(), walk(after -> top(q.top(limit, after))), "limit " + limit);
    }
    TopAnswer first = q.top(2, null);
    assertEquals(2, first.uris().size());
    TopAnswer second = q.top(2, first.next());
    assertEquals(all.uris().subList(2, 4), second.uris());
    assertNull(q.top(5, null).next(), "no cursor when the page ends exactly at the last item");
  }

  @Test
  void domainOfWorkedExample() {
    List<RankedUri> c =
        List.of(
            new RankedUri("com.c", "http://c.com/", 3),
            new RankedUri("com.c/page1", "http://c.com/page1", 1));
    for (String input : List.of("c.com", "www.c.com", "http://c.com/page1", "com.c", "C.COM")) {
      DomainAnswer a = q.domain(input, 10, null);
      assertEquals("com.c", a.domain(), input);
      assertEquals(2, a.pageCount(), input);
      assertEquals(c, a.uris(), input);
      assertNull(a.next());
    }
    for (int limit : new int[] {1, 2}) {
      assertEquals(c, walk(after -> domain(q.domain("c.com", limit, after))), "limit " + limit);
    }
    DomainAnswer a = q.domain("a.com", 1, null);
    assertEquals(1, a.pageCount());
    assertEquals(List.of(new RankedUri("com.a/page1", "http://a.com/page1", 0)), a.uris());
    DomainAnswer none = q.domain("nowhere.org", 10, null);
    assertEquals("org.nowhere", none.domain());
    assertEquals(0, none.pageCount());
    assertTrue(none.uris().isEmpty());
  }

  @Test
  void inlinksOfWorkedExample() {
    List<Inlink> toC =
        List.of(
            new Inlink("com.a/page1", "http://a.com/page1", "C from A"),
            new Inlink("com.b", "http://b.com/", "C from B"),
            new Inlink("com.d", "http://d.com/", "C from D"));
    for (String input : List.of("c.com", "http://c.com/", "http://C.com:80/#top", "com.c")) {
      InlinksAnswer a = q.inlinks(input, 10, null);
      assertEquals("com.c", a.uri(), input);
      assertEquals("http://c.com/", a.url());
      assertEquals(3, a.incount());
      assertEquals(toC, a.inlinks());
      assertNull(a.next());
    }
    for (int limit : new int[] {1, 2}) {
      assertEquals(toC, walk(after -> inlinks(q.inlinks("c.com", limit, after))), "limit " + limit);
    }
    InlinksAnswer page1 = q.inlinks("http://c.com/page1", 10, null);
    assertEquals(1, page1.incount());
    assertEquals(List.of(new Inlink("com.b", "http://b.com/", "C page one")), page1.inlinks());
    InlinksAnswer d = q.inlinks("d.com", 10, null);
    assertEquals(0, d.incount());
    assertTrue(d.inlinks().isEmpty());
    InlinksAnswer unknown = q.inlinks("http://unknown.example/x", 10, null);
    assertEquals(0, unknown.incount());
    assertEquals("example.unknown/x", unknown.uri());
  }

  @Test
  void domainHeaderAndPageAreOneScan() {
    for (String cursor : new String[] {null, q.domain("c.com", 1, null).next()}) {
      long before = q.scans();
      DomainAnswer a = q.domain("c.com", 1, cursor);
      assertEquals(1, q.scans() - before, "scans for cursor " + cursor);
      assertEquals(2, a.pageCount(), "the page count on every page");
      assertEquals(1, a.uris().size());
    }
    // the second page starts after the cursor, also when the cursor comes after the page count
    assertEquals(
        List.of(new RankedUri("com.c/page1", "http://c.com/page1", 1)),
        q.domain("c.com", 1, q.domain("c.com", 1, null).next()).uris());
  }

  @Test
  void inlinksCountAndListAreOneStateWhileTheRowChanges() {
    String table = createTable("inlinks_race");
    Cells.write(connector(), table, worked.cells());
    QueryService service = new QueryService(connector(), table);
    // between the first read of com.c's incount (3) and the list scan, a fourth referrer and the
    // new count arrive, as the exporter writes them
    int[] calls = {0};
    service.beforeInlinksScan =
        () -> {
          if (calls[0]++ == 0) {
            Cells.write(
                connector(),
                table,
                List.of(
                    QuerySchema.inlink("com.c", "com.e", "C from E"),
                    QuerySchema.incount("com.c", 4)));
          }
        };
    long before = service.scans();
    InlinksAnswer a = service.inlinks("c.com", 10, null);
    assertEquals(4, a.incount());
    assertEquals(
        List.of("com.a/page1", "com.b", "com.d", "com.e"),
        a.inlinks().stream().map(Inlink::uri).toList());
    assertEquals(2, calls[0], "the list is read again after the count changed");
    assertEquals(5, service.scans() - before, "count, list, count, list, count");
  }

  @Test
  void badArgumentsAreIllegalArguments() {
    String topCursor = q.top(1, null).next();
    assertThrows(IllegalArgumentException.class, () -> q.domain("c.com", 1, topCursor));
    assertThrows(IllegalArgumentException.class, () -> q.inlinks("c.com", 1, topCursor));
    assertThrows(IllegalArgumentException.class, () -> q.top(1, "garbage!"));
    assertThrows(IllegalArgumentException.class, () -> q.top(0, null));
    assertThrows(IllegalArgumentException.class, () -> q.top(QueryService.MAX_LIMIT + 1, null));
    assertThrows(IllegalArgumentException.class, () -> q.inlinks("ftp://x.org/", 1, null));
    assertThrows(IllegalArgumentException.class, () -> q.domain("", 1, null));
  }

  // ------------------------------------------------------------------ a randomized web

  /** The system property that overrides the random web's fixed seed. */
  static final String SEED_PROPERTY = "webindex.test.seed";

  @Test
  void randomWebPagesLikeTheReference() throws IOException {
    long seed = Long.getLong(SEED_PROPERTY, 20261123L);
    System.out.println(
        "QueryServiceIT random web: seed " + seed + " (repeat with -D" + SEED_PROPERTY + "=)");
    ReferenceIndex ref = new ReferenceIndex();
    ref.applyAll(randomWeb(seed, 400, 150));
    List<Cell> cells = ref.cells();
    String table = createTable("random");
    Cells.write(connector(), table, cells);
    QueryService service = new QueryService(connector(), table);
    String msg = "seed " + seed;

    StringWriter out = new StringWriter();
    TableDump.dump(connector(), table, out);
    assertEquals(String.join("\n", DumpFormat.lines(cells)) + "\n", out.toString(), msg);

    List<RankedUri> expectedTop = new ArrayList<>();
    Map<String, List<RankedUri>> expectedRanks = new TreeMap<>();
    Map<String, List<Inlink>> expectedInlinks = new TreeMap<>();
    for (Cell c : cells) {
      QuerySchema.Row row = QuerySchema.parseRow(c.row());
      if (row instanceof QuerySchema.Row.Total t) {
        expectedTop.add(new RankedUri(t.uri(), url(t.uri()), t.urc()));
      } else if (row instanceof QuerySchema.Row.Domain d
          && c.family().equals(QuerySchema.FAM_RANK)) {
        QuerySchema.RankedUri r = QuerySchema.parseRankedUri(c.qualifier());
        expectedRanks
            .computeIfAbsent(d.domain(), k -> new ArrayList<>())
            .add(new RankedUri(r.uri(), url(r.uri()), r.urc()));
      } else if (row instanceof QuerySchema.Row.Page p
          && c.family().equals(QuerySchema.FAM_INLINKS)) {
        expectedInlinks
            .computeIfAbsent(p.uri(), k -> new ArrayList<>())
            .add(new Inlink(c.qualifier(), url(c.qualifier()), c.value()));
      }
    }
    assertTrue(expectedTop.size() > 100, msg);

    for (int limit : new int[] {1, 7, 50, 1000}) {
      assertEquals(
          expectedTop, walk(after -> top(service.top(limit, after))), msg + " limit " + limit);
    }
    Map<String, Long> domainCounts = ref.domainCounts();
    for (Map.Entry<String, List<RankedUri>> e : expectedRanks.entrySet()) {
      DomainAnswer first = service.domain(e.getKey(), 3, null);
      assertEquals(e.getKey(), first.domain(), msg);
      assertEquals((long) domainCounts.get(e.getKey()), first.pageCount(), msg);
      assertEquals(
          e.getValue(),
          walk(after -> domain(service.domain(e.getKey(), 3, after))),
          msg + " domain " + e.getKey());
    }
    Map<String, UriState> states = ref.uriStates();
    for (Map.Entry<String, List<Inlink>> e : expectedInlinks.entrySet()) {
      String uri = e.getKey();
      InlinksAnswer first = service.inlinks(url(uri), 4, null);
      assertEquals(uri, first.uri(), msg);
      assertEquals(states.get(uri).urc(), first.incount(), msg + " " + uri);
      assertEquals(
          e.getValue(),
          walk(after -> inlinks(service.inlinks(url(uri), 4, after))),
          msg + " inlinks " + uri);
    }
  }

  // ------------------------------------------------------------------ helpers

  /** One page of any answer: its items and its cursor. */
  private record Chunk<T>(List<T> items, String next) {}

  private static Chunk<RankedUri> top(TopAnswer a) {
    return new Chunk<>(a.uris(), a.next());
  }

  private static Chunk<RankedUri> domain(DomainAnswer a) {
    return new Chunk<>(a.uris(), a.next());
  }

  private static Chunk<Inlink> inlinks(InlinksAnswer a) {
    return new Chunk<>(a.inlinks(), a.next());
  }

  /** Follows the cursors from the first page to the last; fails on a duplicate or a loop. */
  private static <T> List<T> walk(Function<String, Chunk<T>> query) {
    List<T> all = new ArrayList<>();
    Set<String> cursors = new HashSet<>();
    String after = null;
    do {
      Chunk<T> chunk = query.apply(after);
      assertTrue(after == null || !chunk.items().isEmpty(), "a cursor led to an empty page");
      all.addAll(chunk.items());
      after = chunk.next();
      assertTrue(after == null || cursors.add(after), "cursor repeated: " + after);
    } while (after != null);
    assertEquals(all.size(), new HashSet<>(all).size(), "duplicates: " + all);
    return all;
  }

  private static String url(String uriKey) {
    try {
      return WebUrl.fromKey(uriKey).toString();
    } catch (InvalidUrlException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Page versions over {@code urls} URLs on a few hosts (http, https, a port, an IP, multi-label
   * public suffixes), links drawn from a power law so a few URIs are hot, some re-crawls and
   * deletions.
   */
  private static List<Page> randomWeb(long seed, int pages, int urls) {
    Random rnd = new Random(seed);
    String[] hosts = {
      "http://a.com",
      "http://www.a.com",
      "http://b.co.uk",
      "http://news.b.co.uk",
      "https://c.org",
      "http://10.0.0.7",
      "http://d.net:8080",
      "https://e.io:8443"
    };
    List<WebUrl> space = new ArrayList<>();
    for (int i = 0; i < urls; i++) {
      String host = hosts[rnd.nextInt(hosts.length)];
      space.add(WebUrl.of(host + (i % 7 == 0 ? "/" : "/p" + i + (i % 11 == 0 ? "?q=" + i : ""))));
    }
    List<Page> out = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      WebUrl u = space.get(rnd.nextInt(space.size()));
      PageVersion v = new PageVersion(Instant.ofEpochSecond(1_700_000_000L + i), 0, "part-0", i);
      if (rnd.nextInt(12) == 0) {
        out.add(Page.deletion(u.toString(), u.key(), v));
        continue;
      }
      List<Link> links = new ArrayList<>();
      int n = rnd.nextInt(8);
      for (int k = 0; k < n; k++) {
        int t = (int) Math.floor(Math.pow(rnd.nextDouble(), 3) * space.size());
        WebUrl target = space.get(Math.min(t, space.size() - 1));
        links.add(new Link(target.toString(), target.key(), "anchor " + rnd.nextInt(4)));
      }
      out.add(Page.of(u.toString(), u.key(), v, "title " + i, links));
    }
    return out;
  }
}
