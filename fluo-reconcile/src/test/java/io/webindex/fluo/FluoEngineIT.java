package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.schema.TimedCell;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.oracle.DumpDiff;
import io.webindex.testkit.oracle.HistoryOracle;
import io.webindex.testkit.oracle.Oracle;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.fluo.api.client.FluoAdmin;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Fluo engine's main classes on MiniAccumulo with embedded (MiniFluo) applications: {@link
 * BatchApplier} and {@link WebindexObservers} against the independent oracle, {@link Cutover}'s
 * switch of the served pointer and its repeat, and which applications {@link FluoServices} wants to
 * serve. The tests share one configuration, raw page store and two applications (the base one,
 * exporting to {@link #baseTable}, and one a cut-over resumes), and run in order: each builds on
 * the store and registry the earlier ones left.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SharedCluster
class FluoEngineIT extends AccumuloITBase {
  @TempDir static Path tmp;
  static WebindexConfig cfg;
  static Path store;
  static String baseTable;
  static String runTable;
  static String cutApp;
  static long cutEpoch;

  static final String RUN_ID = "r1";

  @BeforeAll
  static void setUp() throws Exception {
    String prefix = newTableName("fe");
    // few history versions and short intervals, so the history table's versioning iterator drops
    // crawls and the schedule's clamps act on the random web of the last test
    cfg =
        WebindexConfig.load(
            writeWebindexConf(tmp, prefix),
            Map.of(
                WebindexConfig.HISTORY_VERSIONS, "3",
                WebindexConfig.SCHEDULE_INTERVAL_DEFAULT, "2d",
                WebindexConfig.SCHEDULE_INTERVAL_MAX, "5d"));
    store = tmp.resolve("store");
    Files.createDirectories(store.resolve("batches"));
    baseTable = createTable(prefix + "_q");
    initialize(cfg.fluoApp(), baseTable, 1);

    // the application a cut-over resumes: as fluo-init / reconcile of run r1 leave it once it is
    // initialised (READY, exporting into the run's table); the run's batches are none (snapshot
    // -1), so the cut-over's catch-up applies every batch of the store
    runTable = createTable(prefix + "_run");
    cutApp = Cutover.reconcileApp(cfg, RUN_ID);
    RunRegistry runs = registry();
    cutEpoch = runs.nextExportEpoch(runTable);
    initialize(cutApp, runTable, cutEpoch);
    runs.markExported(runTable);
    runs.putApp(
        new RunRegistry.FluoApp(
            cutApp, RUN_ID, runTable, cutEpoch, RunRegistry.AppState.READY, Instant.now()));
    runs.put(
        new RunRecord(
            RUN_ID,
            RunRecord.Status.SUCCEEDED,
            -1,
            runTable,
            Instant.now(),
            Instant.now(),
            List.of(),
            Map.of(),
            "",
            "",
            "",
            cfg.fluoBuckets(),
            io.webindex.core.Version.current().webindex()));
  }

  static void initialize(String app, String table, long epoch) throws Exception {
    FluoConfiguration fc = WebindexApp.connection(cfg, app);
    WebindexApp.configure(fc, cfg, table, epoch);
    // a bucket's backlog takes several observer transactions, each leaving the rest to the next
    fc.getAppConfiguration().setProperty(UriQueue.MAX_URIS_PROPERTY, "2");
    try (FluoAdmin admin = WebindexApp.admin(fc)) {
      admin.initialize(
          new FluoAdmin.InitializationOptions().setClearTable(true).setClearZookeeper(true));
    }
  }

  static RunRegistry registry() {
    return new RunRegistry(AccumuloConnections.connect(cfg), cfg.metaTable()).ensureTable();
  }

  static String page(String url, String crawled, String... links) {
    StringBuilder sb =
        new StringBuilder("{\"url\":\"" + url + "\",\"crawled\":\"" + crawled + "\",\"links\":[");
    for (int i = 0; i < links.length; i++) {
      sb.append(i == 0 ? "" : ",").append('"').append(links[i]).append('"');
    }
    return sb.append("]}\n").toString();
  }

  static String deleted(String url, String crawled) {
    return "{\"url\":\"" + url + "\",\"crawled\":\"" + crawled + "\",\"deleted\":true}\n";
  }

  static void batch(long seq, String... lines) throws IOException {
    LocalBatches.write(
        store.resolve("batches"),
        seq,
        Map.of("part-0.jsonl", String.join("", lines).getBytes(StandardCharsets.UTF_8)));
  }

  static List<String> oracle(long snapshot) throws IOException {
    return Oracle.ofStore(store, snapshot).dump();
  }

  /**
   * The oracle's history table of the batches up to {@code snapshot}: no urc points, which only
   * batch runs write.
   */
  static List<String> historyOracle(long snapshot) throws IOException {
    return HistoryOracle.dump(store, snapshot, List.of(), cfg.historyVersions(), rule());
  }

  /** The schedule rule of the configuration, in the oracle's terms. */
  static HistoryOracle.Rule rule() {
    ScheduleConfig s = cfg.schedule();
    return new HistoryOracle.Rule(
        s.defaultIntervalSeconds(),
        s.minIntervalSeconds(),
        s.maxIntervalSeconds(),
        s.incRate(),
        s.decRate(),
        s.syncDelta(),
        s.syncDeltaRate());
  }

  /** The oracle's frontier table of the batches up to {@code snapshot}. */
  static List<String> frontierOracle(long snapshot) throws IOException {
    return HistoryOracle.frontier(store, snapshot, rule());
  }

  /** The frontier table of {@code queryTable} as dump lines, in table order. */
  static List<String> dumpFrontier(String queryTable) {
    return dumpTable(FrontierSchema.frontierTable(queryTable));
  }

  /**
   * The history table of {@code queryTable} as dump lines, every version its scan returns; the one
   * {@code sched:} version (asserted) at the batch recompute's timestamp 0, as the oracle writes
   * it: an exporter writes it at its export timestamp.
   */
  static List<String> dumpHistory(String queryTable) throws Exception {
    List<String> lines = new ArrayList<>();
    Set<String> schedRows = new java.util.HashSet<>();
    try (Scanner sc =
        connector().createScanner(HistorySchema.historyTable(queryTable), Authorizations.EMPTY)) {
      for (Map.Entry<Key, Value> e : sc) {
        Key k = e.getKey();
        String family = k.getColumnFamily().toString();
        boolean sched = family.equals(HistorySchema.FAM_SCHED);
        if (sched) {
          assertTrue(schedRows.add(k.getRow().toString()), "one sched: version: " + k);
          assertTrue(k.getTimestamp() > 1, "an exported sched: cell: " + k);
        }
        lines.add(
            DumpFormat.line(
                new TimedCell(
                    k.getRow().toString(),
                    family,
                    k.getColumnQualifier().toString(),
                    sched ? HistorySchema.SCHED_BATCH_TIMESTAMP : k.getTimestamp(),
                    e.getValue().toString())));
      }
    }
    return lines;
  }

  static BatchApplier applier(FluoSession fluo) {
    return new BatchApplier(
        fluo.client(), cfg, new Configuration(), new PrintWriter(new StringWriter(), true));
  }

  /**
   * New pages (batch 0), then changed, new and deleted pages (batch 1): after each batch the
   * exported query table is the oracle's for the batches so far; a second run with nothing new
   * applies nothing and leaves the resume point and the table as they were.
   */
  @Test
  @Order(1)
  void batchApplierAppliesNewChangedAndDeletedPagesAsTheOracleSays() throws Exception {
    batch(
        0,
        page("http://a.example.com/1", "2026-01-01T00:00:00Z", "http://b.example.com/"),
        page(
            "http://b.example.com/",
            "2026-01-01T00:00:00Z",
            "http://a.example.com/1",
            "http://c.example.org/x"),
        page(
            "http://c.example.org/x",
            "2026-01-01T00:00:00Z",
            "http://a.example.com/1",
            "http://b.example.com/"));
    batch(
        1,
        // changed: other links
        page("http://a.example.com/1", "2026-01-02T00:00:00Z", "http://c.example.org/x"),
        // new
        page("http://d.example.net/", "2026-01-02T00:00:00Z", "http://b.example.com/"),
        // deleted
        deleted("http://c.example.org/x", "2026-01-02T00:00:00Z"));
    assertNotEquals(oracle(0), oracle(1), "the fixture: batch 1 changes the table");

    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      for (long b = 0; b <= 1; b++) {
        BatchApplier.Result r = applier(fluo).applyPending(b);
        fluo.awaitIdle();
        assertEquals(b - 1, r.appliedBefore());
        assertEquals(b, r.appliedAfter());
        assertEquals(1, r.batches());
        assertEquals(3, r.pages());
        assertEquals(b, WebindexApp.applied(fluo.client()));
        DumpDiff.assertSameLines(oracle(b), dumpTable(baseTable), "query table after batch " + b);
        DumpDiff.assertSameLines(
            historyOracle(b), dumpHistory(baseTable), "history table after batch " + b);
        DumpDiff.assertSameLines(
            frontierOracle(b), dumpFrontier(baseTable), "frontier table after batch " + b);
      }

      List<String> before = dumpTable(baseTable);
      BatchApplier.Result again = applier(fluo).applyPending(null);
      fluo.awaitIdle();
      assertEquals(1, again.appliedBefore());
      assertEquals(1, again.appliedAfter(), "the resume point stays");
      assertEquals(0, again.batches(), "batches 0 and 1 are not applied again");
      assertEquals(0, again.pages());
      assertEquals(1, WebindexApp.applied(fluo.client()));
      assertEquals(before, dumpTable(baseTable), "a second run changes nothing");
    }
  }

  /** Incount cells and domain rows (rank and pagecount): the cells the URI and domain own. */
  static List<String> incountAndDomainCells(List<String> dump) {
    return dump.stream().filter(l -> l.startsWith("d:") || l.contains("\tpage:incount\t")).toList();
  }

  /**
   * Through the application's observers (URI combine queue, domain combine queue, export queue): an
   * updated page that links two URIs it did not link before, one of them new in a domain, changes
   * their incount and the domains' rank and pagecount cells as the oracle says.
   */
  @Test
  @Order(2)
  void webindexObserversUpdateIncountRankAndPagecount() throws Exception {
    batch(
        2,
        page(
            "http://b.example.com/",
            "2026-01-03T00:00:00Z",
            "http://a.example.com/1",
            "http://d.example.net/",
            "http://a.example.com/2"));
    List<String> expectedBefore = incountAndDomainCells(oracle(1));
    List<String> expected = incountAndDomainCells(oracle(2));
    assertNotEquals(expectedBefore, expected, "the fixture: incount and domain cells change");
    assertTrue(
        expected.stream().anyMatch(l -> l.contains("pagecount")), "fixture has pagecount cells");
    assertTrue(expected.stream().anyMatch(l -> l.contains("\trank:")), "fixture has rank cells");
    assertTrue(
        frontierOracle(2).stream()
            .anyMatch(l -> l.startsWith("q:a.example.com\tdue:0000000000000000:")),
        "fixture: a URI linked to and never crawled, due at once");

    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      List<String> table = incountAndDomainCells(dumpTable(baseTable));
      DumpDiff.assertSameLines(expectedBefore, table, "incount and domain cells before");
      BatchApplier.Result r = applier(fluo).applyPending(null);
      fluo.awaitIdle();
      assertEquals(2, r.appliedAfter());
      assertEquals(1, r.pages());
    }
    DumpDiff.assertSameLines(
        expected, incountAndDomainCells(dumpTable(baseTable)), "incount and domain cells after");
    DumpDiff.assertSameLines(oracle(2), dumpTable(baseTable), "query table after batch 2");
    DumpDiff.assertSameLines(historyOracle(2), dumpHistory(baseTable), "history after batch 2");
    DumpDiff.assertSameLines(frontierOracle(2), dumpFrontier(baseTable), "frontier after batch 2");
  }

  /**
   * A cut-over to run r1 resumes r1's application, catches it up (embedded) and makes the served
   * pointer name r1's table and that application in one switch; the same cut-over again finds the
   * run served and switches nothing ("a repeat of the same call resumes where the last one
   * stopped").
   */
  @Test
  @Order(3)
  void cutoverServesTheRunAndARepeatSwitchesNothing() throws Exception {
    RunRegistry runs = registry();
    Cutover.Options o = new Cutover.Options(RUN_ID, cutApp, true, false, false, Duration.ZERO);

    Cutover.Result first =
        new Cutover(cfg, new Configuration(), new PrintWriter(new StringWriter(), true)).run(o);
    assertTrue(first.resumed(), "r1's application is resumed, not initialised");
    assertEquals(cutApp, first.app());
    assertTrue(first.served());
    assertEquals(2, first.appliedAfter(), "caught up with every batch after the snapshot");
    RunRegistry.Served served = runs.served().orElseThrow();
    assertEquals(runTable, served.table());
    assertEquals(RUN_ID, served.runId());
    assertEquals(cutApp, served.fluoApp());
    assertEquals(first.now(), served);
    assertTrue(runs.cutoverTarget().isEmpty(), "the target is cleared after the switch");
    assertEquals(cutApp, WebindexApp.currentApp(cfg, AccumuloConnections.connect(cfg)));
    DumpDiff.assertSameLines(oracle(2), dumpTable(runTable), "the run's table after the catch-up");
    DumpDiff.assertSameLines(
        historyOracle(2), dumpHistory(runTable), "the run's history table after the catch-up");
    DumpDiff.assertSameLines(
        frontierOracle(2), dumpFrontier(runTable), "the run's frontier table after the catch-up");

    String version = runs.servedVersion().version();
    Cutover.Result again =
        new Cutover(cfg, new Configuration(), new PrintWriter(new StringWriter(), true)).run(o);
    assertTrue(again.resumed());
    assertFalse(again.served(), "already served: no switch");
    assertEquals(served, again.now());
    assertEquals(served, runs.served().orElseThrow(), "the served pointer is unchanged");
    assertEquals(version, runs.servedVersion().version(), "the pointer was not written");
    DumpDiff.assertSameLines(oracle(2), dumpTable(runTable), "the run's table after the repeat");
  }

  /**
   * A following service wants the served application and the cut-over target, except an application
   * the registry records as (re)initialising, and one it does not run yet that is not initialised.
   */
  @Test
  @Order(4)
  void fluoServicesWantTheServedAppAndTheCutoverTarget() {
    RunRegistry runs = registry();
    assertEquals(cutApp, runs.served().orElseThrow().fluoApp(), "served since the cut-over");
    assertTrue(runs.cutoverTarget().isEmpty());
    assertEquals(Set.of(cutApp), FluoServices.wanted(cfg, runs, Set.of()));

    // a cut-over bringing the (initialised) base application up
    runs.setCutoverTarget(
        new RunRegistry.CutoverTarget(cfg.fluoApp(), "r2", baseTable, Instant.now()));
    assertEquals(
        List.of(cutApp, cfg.fluoApp()), List.copyOf(FluoServices.wanted(cfg, runs, Set.of())));

    // a target whose ZooKeeper state is not initialised: only kept while it runs already
    String absent = cfg.fluoApp() + "_absent";
    runs.setCutoverTarget(new RunRegistry.CutoverTarget(absent, "r3", "none", Instant.now()));
    assertEquals(Set.of(cutApp), FluoServices.wanted(cfg, runs, Set.of()));
    assertEquals(Set.of(cutApp, absent), FluoServices.wanted(cfg, runs, Set.of(absent)));

    // recorded as initialising: not served, even while it runs
    runs.putApp(
        new RunRegistry.FluoApp(
            absent, "r3", "none", 9, RunRegistry.AppState.INITIALIZING, Instant.now()));
    assertEquals(Set.of(cutApp), FluoServices.wanted(cfg, runs, Set.of(absent)));
    runs.deleteApp(absent);
    runs.clearCutoverTarget(absent);
    assertEquals(Set.of(cutApp), FluoServices.wanted(cfg, runs, Set.of()));
  }

  /**
   * Writes batches {@code first..last} of a random web of 14 URLs in three domains, 40 lines each
   * in two files: several crawls per page, stale versions, duplicate lines, same-millisecond
   * versions and deletions. Returns how many stale, duplicate, tied and deleted lines it wrote.
   */
  static int[] randomWeb(Path batches, long first, long last) throws IOException {
    Random rnd = new Random(23);
    String[] urls = new String[14];
    for (int i = 0; i < urls.length; i++) {
      urls[i] =
          "http://"
              + (i % 3 == 0
                  ? "a.example.com"
                  : i % 3 == 1 ? "www.b.example.co.uk" : "c.example.org")
              + "/p"
              + i;
    }
    long clock = Instant.parse("2026-02-01T00:00:00Z").toEpochMilli();
    List<String> written = new ArrayList<>();
    int stale = 0;
    int duplicates = 0;
    int deletions = 0;
    for (long b = first; b <= last; b++) {
      Map<String, StringBuilder> files = new java.util.TreeMap<>();
      for (int i = 0; i < 40; i++) {
        String line;
        if (!written.isEmpty() && rnd.nextInt(6) == 0) {
          // a duplicate: the same crawl again, in the same or another file or batch (a
          // same-millisecond tie, which the later version wins; ties of versions with other
          // content cannot be exported exactly, see docs/tables.md)
          line = written.get(rnd.nextInt(written.size()));
          duplicates++;
        } else {
          String url = urls[rnd.nextInt(urls.length)];
          long t =
              rnd.nextInt(5) == 0
                  ? clock - rnd.nextInt(10) * 43_200_000L - 1 // stale: up to 5 days back
                  : (clock += rnd.nextInt(4) * 36_000_000L + 1);
          stale += t < clock ? 1 : 0;
          String when = Instant.ofEpochMilli(t).toString();
          if (rnd.nextInt(6) == 0) {
            line = deleted(url, when).strip();
            deletions++;
          } else {
            int n = rnd.nextInt(3);
            String[] links = new String[n];
            for (int k = 0; k < n; k++) {
              links[k] = urls[(k * 5 + rnd.nextInt(2)) % urls.length];
            }
            line = page(url, when, links).strip();
            if (rnd.nextBoolean()) {
              // a record digest: one of two, so some recrawls change and some do not
              line =
                  line.substring(0, line.length() - 1)
                      + ",\"digest\":\"sha1:"
                      + (rnd.nextBoolean()
                          ? "3XLT4X6EBBBAKGG67Z7M5LAIAWTPYXX5"
                          : "2fa6203395bdac1d26702c39af88ca0cf5fd8be1")
                      + "\"}";
            }
          }
        }
        written.add(line);
        files
            .computeIfAbsent("part-" + rnd.nextInt(2) + ".jsonl", k -> new StringBuilder())
            .append(line)
            .append('\n');
      }
      Map<String, byte[]> bytes = new java.util.TreeMap<>();
      files.forEach((f, text) -> bytes.put(f, text.toString().getBytes(StandardCharsets.UTF_8)));
      LocalBatches.write(batches, b, bytes);
    }
    return new int[] {stale, duplicates, deletions};
  }

  /**
   * A random web with several crawls per page: versions older than the current one (stale, also in
   * later batches: out of order), duplicates (the same line again, in the same or another file or
   * batch: a millisecond already held, which the later version wins) and deletions; then two
   * batches by hand in which URIs never crawled are linked to and unlinked again (urc up and down
   * to 0). After each load the exported query table, history table and frontier table are the
   * oracle's, with three history versions kept per URI and the schedule's clamps at work.
   */
  @Test
  @Order(5)
  void historyScheduleAndFrontierOfARandomWebWithSeveralCrawlsPerPageAreTheOracles()
      throws Exception {
    int[] mix = randomWeb(store.resolve("batches"), 3, 6);
    int stale = mix[0];
    int duplicates = mix[1];
    int deletions = mix[2];
    assertTrue(stale > 5 && duplicates > 5 && deletions > 5, "the fixture's mix");
    List<String> history = historyOracle(6);
    assertTrue(
        history.stream().anyMatch(l -> l.matches(".*crawls=([4-9]|[1-9][0-9]+) .*")),
        "URIs with more crawls than the three versions kept");
    assertTrue(history.stream().anyMatch(l -> l.contains("\tgone - 0")), "a gone crawl");

    // two pages of the random web link to URIs nobody crawled, then stop linking to them
    String p0 = "http://a.example.com/p0";
    String p2 = "http://c.example.org/p2";
    String newA = "http://new.example.net/a";
    String newB = "http://new.example.net/b";
    batch(
        7,
        page(p0, "2026-04-01T00:00:00Z", newA, newB, p2),
        page(p2, "2026-04-01T00:00:00Z", newA));
    batch(8, page(p0, "2026-04-02T00:00:00Z", p2), deleted(p2, "2026-04-02T00:00:00Z"));
    assertTrue(
        frontierOracle(7).stream()
            .anyMatch(l -> l.startsWith("q:new.example.net\tdue:0000000000000000:")),
        "linked to, never crawled: due at once");
    assertTrue(
        frontierOracle(8).stream().noneMatch(l -> l.startsWith("q:new.example.net\t")),
        "no longer linked to: out of the frontier");
    assertNotEquals(
        frontierOracle(6).stream().filter(l -> l.contains("/p0\t")).toList(),
        frontierOracle(8).stream().filter(l -> l.contains("/p0\t")).toList(),
        "re-crawled: p0 moves");

    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      for (long upTo : new long[] {4, 6, 7, 8}) {
        BatchApplier.Result r = applier(fluo).applyPending(upTo);
        fluo.awaitIdle();
        assertEquals(upTo, r.appliedAfter());
        DumpDiff.assertSameLines(
            oracle(upTo), dumpTable(baseTable), "query table after batch " + upTo);
        DumpDiff.assertSameLines(
            historyOracle(upTo), dumpHistory(baseTable), "history table after batch " + upTo);
        DumpDiff.assertSameLines(
            frontierOracle(upTo), dumpFrontier(baseTable), "frontier table after batch " + upTo);
      }
    }
  }

  /**
   * The export queue delivers at least once: a worker that dies after an export call wrote its
   * cells and before the queue entries were removed leaves them to be exported again. A replayed
   * export leaves the history table as it was, also after a newer export: each crawl is one
   * version, none is pushed out of the newest {@code webindex.history.versions} (3 here) by a copy
   * of another. (Accumulo keeps a second put of one key beside the first, as a version of its own.)
   */
  @Test
  @Order(6)
  void aReplayedExportWritesNoCrawlVersionTwice() throws Exception {
    String table = createTable(newTableName("fx"));
    io.webindex.store.HistoryTables.createFresh(connector(), table, cfg.historySettings());
    FluoConfiguration fc = WebindexApp.connection(cfg, cfg.fluoApp() + "_fx");
    WebindexApp.configure(fc, cfg, table, 1);
    QueryTableExporter exporter = new QueryTableExporter(fc.getAppConfiguration());
    String uri = "com.example/a";
    long day = Duration.ofDays(1).toMillis();
    long t0 = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
    TimedCell c1 = crawl(uri, t0, "s1");
    TimedCell c2 = crawl(uri, t0 + day, "s2");
    TimedCell c3 = crawl(uri, t0 + 2 * day, "s3");
    QueryTableExporter.Sequenced first = export(5, uri, "v5", c1, c2);
    QueryTableExporter.Sequenced second = export(6, uri, "v6", c3);

    exporter.write(List.of(first).iterator());
    List<String> once = dumpTable(HistorySchema.historyTable(table));
    assertEquals(3, once.size(), "two crawls and the schedule: " + once);
    // the replay of an export whose queue entries were not removed
    exporter.write(List.of(first).iterator());
    assertEquals(once, dumpTable(HistorySchema.historyTable(table)), "the replay wrote again");

    exporter.write(List.of(second).iterator());
    exporter.write(List.of(first, second).iterator());
    List<String> crawls = new ArrayList<>();
    try (Scanner sc =
        connector().createScanner(HistorySchema.historyTable(table), Authorizations.EMPTY)) {
      sc.fetchColumnFamily(new org.apache.hadoop.io.Text(HistorySchema.FAM_CRAWL));
      for (Map.Entry<Key, Value> e : sc) {
        crawls.add(e.getKey().getTimestamp() + "=" + e.getValue());
      }
    }
    assertEquals(
        List.of(
            c3.timestamp() + "=" + c3.value(),
            c2.timestamp() + "=" + c2.value(),
            c1.timestamp() + "=" + c1.value()),
        crawls,
        "the three crawls, newest first, each once");
    // the query table: the newer export's cell
    List<String> query = dumpTable(table);
    assertEquals(1, query.size(), query.toString());
    assertTrue(query.get(0).endsWith("\tv6"), query.toString());
  }

  private static TimedCell crawl(String uri, long millis, String signature) {
    return HistorySchema.crawlCell(
        uri,
        new io.webindex.core.history.Crawl(
            millis, io.webindex.core.history.CrawlStatus.OK, signature, 1));
  }

  /** An export of one page's query-table cell and its history's new crawls and schedule. */
  private static QueryTableExporter.Sequenced export(
      long seq, String uri, String value, TimedCell... newCrawls) {
    List<io.webindex.core.schema.TimedCellChange> history = new ArrayList<>();
    for (TimedCell c : newCrawls) {
      history.add(new io.webindex.core.schema.TimedCellChange.Put(c));
    }
    TimedCell sched = new TimedCell(uri, HistorySchema.FAM_SCHED, "", 1, "schedule of " + value);
    history.add(new io.webindex.core.schema.TimedCellChange.Delete(sched.column(), 0));
    history.add(new io.webindex.core.schema.TimedCellChange.Put(sched));
    return new QueryTableExporter.Sequenced(
        seq,
        new io.webindex.seed.IndexExport(
            List.of(
                io.webindex.core.schema.CellChange.put(
                    new io.webindex.core.schema.Cell(uri, "p", "v", value))),
            history));
  }
}
