package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.RandomWeb;
import io.webindex.fluo.BatchApplier;
import io.webindex.fluo.WebindexApp;
import io.webindex.seed.FluoSeed;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.Goldens;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.oracle.DumpDiff;
import io.webindex.testkit.oracle.Oracle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.client.Snapshot;
import org.apache.fluo.api.client.Transaction;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.fluo.api.mini.MiniFluo;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Fluo application against the batch recompute: after every delta batch applied through Fluo,
 * the Fluo-maintained query table equals the in-memory reference and a recompute of the same
 * batches, and the Fluo table equals that recompute's Fluo seed.
 */
@SharedCluster
@Timeout(value = 8, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IncrementalIT extends AccumuloITBase {
  @TempDir Path tmp;
  Path store;
  Path confFile;
  WebindexConfig cfg;

  @BeforeEach
  void setUp() throws IOException {
    store = tmp.resolve("store");
    String prefix = newTableName("inc");
    confFile =
        writeWebindexConf(tmp, prefix, "webindex.recompute.tablets=2", "webindex.fluo.buckets=4");
    cfg = WebindexConfig.load(confFile, Map.of());
  }

  void writeBatches(RandomWeb web, int batches, int pagesPerBatch) throws IOException {
    for (long b = 0; b < batches; b++) {
      Path dir =
          Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", b)));
      for (Map.Entry<String, String> f :
          web.batchFiles(b, b == 0 ? pagesPerBatch * 2 : pagesPerBatch, 2).entrySet()) {
        Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
      }
      LocalBatches.markComplete(dir);
    }
  }

  RunRecord recompute(String run, long snapshot) throws Exception {
    int exit =
        ToolRunner.run(
            new Configuration(),
            new RecomputeTool(),
            new String[] {
              "--webindex-conf",
              confFile.toString(),
              "--run",
              run,
              "--snapshot",
              Long.toString(snapshot)
            });
    assertEquals(0, exit);
    return new RunRegistry(connector(), cfg.metaTable()).get(run).orElseThrow();
  }

  ReferenceIndex reference(long snapshot) throws IOException {
    return References.of(cfg.storeRoot(), snapshot);
  }

  /** The independent oracle's table of every batch <= snapshot. */
  Oracle oracle(long snapshot) throws IOException {
    return Oracle.ofStore(store, snapshot);
  }

  /** Compares two dumps, reporting only the differing lines. */
  static void assertSameDump(List<String> expected, List<String> actual, String what) {
    if (!expected.equals(actual)) {
      Set<String> e = new HashSet<>(expected);
      Set<String> a = new HashSet<>(actual);
      List<String> missing = expected.stream().filter(l -> !a.contains(l)).limit(15).toList();
      List<String> extra = actual.stream().filter(l -> !e.contains(l)).limit(15).toList();
      fail(
          what
              + ": "
              + expected.size()
              + " vs "
              + actual.size()
              + " lines\nmissing:\n  "
              + String.join("\n  ", missing)
              + "\nextra:\n  "
              + String.join("\n  ", extra));
    }
  }

  MiniFluo startFluo(FluoConfiguration fc) throws IOException {
    return WebindexApp.startEmbedded(fc, Files.createTempDirectory(tmp, "minifluo"), 4);
  }

  /** The Fluo table's own state: p: pages, the um:/dm: combine-queue data, f: frontier inputs. */
  static Map<String, String> fluoState(FluoClient client) {
    Map<String, String> out = new TreeMap<>();
    try (Snapshot s = client.newSnapshot()) {
      for (RowColumnValue rcv : s.scanner().build()) {
        String row = rcv.getsRow();
        if (row.startsWith("p:")
            || row.startsWith("um:")
            || row.startsWith("dm:")
            || row.startsWith("f:")) {
          out.put(
              row + " " + rcv.getColumn().getsFamily() + ":" + rcv.getColumn().getsQualifier(),
              rcv.getsValue());
        }
      }
    }
    return out;
  }

  /** The Fluo state a run's seed gives a freshly initialised application. */
  Map<String, String> seedState(RunRecord run) throws Exception {
    WebindexConfig other =
        WebindexConfig.fromMap(
            Map.of(
                WebindexConfig.INSTANCE,
                cfg.accumuloInstance(),
                WebindexConfig.ZOOKEEPERS,
                cfg.zookeepers(),
                WebindexConfig.USER,
                ROOT_USER,
                WebindexConfig.PASSWORD,
                ROOT_PASSWORD,
                WebindexConfig.TABLE_PREFIX,
                cfg.tablePrefix() + "_seedcheck",
                WebindexConfig.STORE_ROOT,
                cfg.storeRoot(),
                WebindexConfig.WORK_DIR,
                cfg.workDir(),
                WebindexConfig.FLUO_APP,
                cfg.fluoApp() + "_seedcheck",
                WebindexConfig.FLUO_BUCKETS,
                Integer.toString(cfg.fluoBuckets())),
            Map.of());
    FluoConfiguration fc = WebindexApp.initializeFromRun(other, run, new Configuration());
    try (MiniFluo mini = startFluo(fc);
        FluoClient client = FluoFactory.newClient(mini.getClientConfiguration())) {
      return fluoState(client);
    }
  }

  /**
   * The application's table was split before the seed came in: where each seed file but the first
   * begins, and inside the rows of each queue (um data and updates, dm, eq); it writes snappy files
   * of small data blocks. The tables read by point keep their data blocks in the tablet server's
   * block cache: the history table (the exporter's conditional puts) and the query table (the web
   * application's answers).
   */
  static void assertOptimized(String fluoTable, RunRecord run) throws Exception {
    Set<String> splits = new HashSet<>();
    for (Text t : connector().tableOperations().listSplits(fluoTable)) {
      splits.add(t.toString());
    }
    org.apache.hadoop.fs.Path seed = new org.apache.hadoop.fs.Path(run.seedDir());
    org.apache.hadoop.fs.FileSystem fs = seed.getFileSystem(new Configuration());
    List<String> starts = new java.util.ArrayList<>();
    for (org.apache.hadoop.fs.FileStatus st : fs.listStatus(seed)) {
      if (st.getPath().getName().endsWith(".rf")) {
        Scanner sc = RFile.newScanner().from(st.getPath().toString()).withFileSystem(fs).build();
        try {
          for (Map.Entry<Key, Value> e : sc) {
            starts.add(e.getKey().getRow().toString());
            break;
          }
        } finally {
          sc.close();
        }
      }
    }
    java.util.Collections.sort(starts);
    for (String start : starts.subList(1, starts.size())) {
      assertTrue(splits.contains(start), "no split where a seed file begins: " + start);
    }
    for (String queueRows : List.of("um:d:", "um:u:", "dm:d:", "dm:u:", "eq:")) {
      assertTrue(
          splits.stream().anyMatch(sp -> sp.startsWith(queueRows)),
          "no split in the rows " + queueRows + "*: " + new java.util.TreeSet<>(splits));
    }
    assertEquals(
        "snappy",
        propertyOf(fluoTable, "table.file.compress.type"),
        "the Fluo table's compression");
    assertEquals(
        "16384",
        propertyOf(fluoTable, "table.file.compress.blocksize"),
        "the Fluo table's data blocks: 16 KB, for point reads");
    // the exporter's conditional puts read the history table by point too
    String history = HistorySchema.historyTable(run.table());
    assertEquals(
        "true",
        propertyOf(history, "table.cache.block.enable"),
        "the history table's data blocks in the block cache");
    assertEquals(
        "16384",
        propertyOf(history, "table.file.compress.blocksize"),
        "the history table's compactions write 16 KB blocks");
    // the web application's answers are short scans after a seek of the query table
    assertEquals(
        "true",
        propertyOf(run.table(), "table.cache.block.enable"),
        "the query table's data blocks in the block cache");
  }

  static String propertyOf(String table, String key) throws Exception {
    for (Map.Entry<String, String> e : connector().tableOperations().getProperties(table)) {
      if (e.getKey().equals(key)) {
        return e.getValue();
      }
    }
    return null;
  }

  @Test
  void fluoEqualsReferenceAndRecomputeAfterEveryBatch() throws Exception {
    RandomWeb web = new RandomWeb(4242, 400);
    writeBatches(web, 4, 150);
    RunRecord base = recompute("base", 0);
    FluoConfiguration fc = WebindexApp.initializeFromRun(cfg, base, new Configuration());
    try (MiniFluo mini = startFluo(fc);
        FluoClient client = FluoFactory.newClient(mini.getClientConfiguration())) {
      assertEquals(0, WebindexApp.applied(client), "the seed holds the resume point");
      assertSameDump(
          DumpFormat.lines(reference(0).cells()), dumpTable(base.table()), "seeded table");
      DumpDiff.assertSameLines(oracle(0).dump(), dumpTable(base.table()), "seeded table vs oracle");
      assertEquals(seedState(base), fluoState(client), "the seeded Fluo table is the seed");
      assertOptimized(fc.getAccumuloTable(), base);
      for (long b = 1; b <= 3; b++) {
        BatchApplier.Result r =
            new BatchApplier(client, cfg, new Configuration(), null).applyPending(b);
        mini.waitForObservers();
        assertEquals(b, r.appliedAfter());
        assertTrue(r.pages() > 0);
        // several versions a transaction, retried on collisions: each version counted once
        assertEquals(r.pages(), r.applied() + r.stale(), "applied + stale after batch " + b);
        List<String> expected = DumpFormat.lines(reference(b).cells());
        assertSameDump(
            expected,
            dumpTable(base.table()),
            "Fluo-maintained table vs reference after batch " + b);
        DumpDiff.assertSameLines(
            oracle(b).dump(),
            dumpTable(base.table()),
            "Fluo-maintained table vs oracle after batch " + b);
        RunRecord batch = recompute("snap" + b, b);
        assertSameDump(
            dumpTable(batch.table()),
            dumpTable(base.table()),
            "Fluo-maintained table vs recompute after batch " + b);
        assertEquals(
            seedState(batch),
            fluoState(client),
            "Fluo table vs the recompute's seed after batch " + b);
        // the frontier: the Fluo-maintained one is the recompute's and the oracle's
        List<String> frontier =
            dumpTable(io.webindex.core.schema.FrontierSchema.frontierTable(base.table()));
        assertEquals(
            io.webindex.testkit.oracle.HistoryOracle.frontier(store, b, RecomputeIT.RULE),
            frontier,
            "Fluo-maintained frontier vs oracle after batch " + b);
        assertEquals(
            dumpTable(io.webindex.core.schema.FrontierSchema.frontierTable(batch.table())),
            frontier,
            "Fluo-maintained frontier vs recompute after batch " + b);
      }
      // the batches held versions older than one applied in an earlier batch (a stale arrival)
      assertTrue(oracle(3).staleAcrossBatches() >= 10, "stale versions in later batches");
      // replaying every batch changes nothing: each version is not newer than the one stored
      List<String> before = dumpTable(base.table());
      // (the resume point moved back by hand: the loader never lowers it)
      try (Transaction tx = client.newTransaction()) {
        tx.set(FluoSchema.META_LOADER_ROW, FluoSeed.APPLIED, "-1");
        tx.commit();
      }
      BatchApplier.Result replay =
          new BatchApplier(client, cfg, new Configuration(), null).applyPending(null);
      mini.waitForObservers();
      assertEquals(0, replay.applied(), "every replayed version is stale");
      assertSameDump(before, dumpTable(base.table()), "after a replay");
    }
  }

  @Test
  void restartInTheMiddleOfABatchLosesAndDoublesNothing() throws Exception {
    RandomWeb web = new RandomWeb(77, 300);
    writeBatches(web, 3, 200);
    RunRecord base = recompute("base", 0);
    FluoConfiguration fc = WebindexApp.initializeFromRun(cfg, base, new Configuration());
    try (MiniFluo mini = startFluo(fc);
        FluoClient client = FluoFactory.newClient(mini.getClientConfiguration())) {
      assertEquals(0, WebindexApp.applied(client), "the seed holds the resume point");
      BatchApplier.Result partial =
          new BatchApplier(client, cfg, new Configuration(), null)
              .stopAfterPages(120)
              .applyPending(null);
      assertEquals(0, partial.appliedAfter(), "batch 1 was not finished, so it is not recorded");
      assertEquals(120, partial.pages());
      // Stop the application with batch 1 half loaded and not recorded. (Fluo 1.2 hangs in
      // OracleClient.close when closed with work in flight, so the workers finish what was loaded
      // first; what matters here is the resume point, not the notifications, which persist.)
      mini.waitForObservers();
    }
    try (MiniFluo mini = startFluo(WebindexApp.connection(cfg));
        FluoClient client = FluoFactory.newClient(mini.getClientConfiguration())) {
      BatchApplier.Result rest =
          new BatchApplier(client, cfg, new Configuration(), null).applyPending(null);
      mini.waitForObservers();
      assertEquals(0, rest.appliedBefore());
      assertEquals(2, rest.appliedAfter());
      assertSameDump(
          DumpFormat.lines(reference(2).cells()), dumpTable(base.table()), "after restart");
      DumpDiff.assertSameLines(
          oracle(2).dump(), dumpTable(base.table()), "after restart vs oracle");
      RunRecord all = recompute("all", 2);
      assertSameDump(dumpTable(all.table()), dumpTable(base.table()), "after restart vs recompute");
    }
  }

  /**
   * The hand-checked goldens (testkit {@code goldens/}) through both engines: the union of their
   * inputs in one store, batch 0 recomputed and seeded into Fluo, the later batches applied through
   * Fluo one at a time (so the {@code versions} golden's older versions arrive after the newer
   * ones: stale), each state compared with the oracle; after the last batch the Fluo table and a
   * recompute of every batch are exactly the goldens.
   */
  @Test
  void goldensThroughRecomputeAndFluo() throws Exception {
    long last = Goldens.lastBatch();
    Goldens.writeStore(store, last);
    RunRecord base = recompute("gbase", 0);
    DumpDiff.assertSameLines(
        oracle(0).dump(), dumpTable(base.table()), "goldens: recompute of batch 0");
    FluoConfiguration fc = WebindexApp.initializeFromRun(cfg, base, new Configuration());
    try (MiniFluo mini = startFluo(fc);
        FluoClient client = FluoFactory.newClient(mini.getClientConfiguration())) {
      for (long b = 1; b <= last; b++) {
        BatchApplier.Result r =
            new BatchApplier(client, cfg, new Configuration(), null).applyPending(b);
        mini.waitForObservers();
        assertEquals(b, r.appliedAfter());
        DumpDiff.assertSameLines(
            oracle(b).dump(), dumpTable(base.table()), "goldens: Fluo after batch " + b);
      }
      assertEquals(2, oracle(last).staleAcrossBatches(), "the versions golden's stale arrivals");
      DumpDiff.assertSameLines(
          Goldens.expectedUnion(), dumpTable(base.table()), "goldens: Fluo after the last batch");
    }
    RunRecord all = recompute("gall", last);
    DumpDiff.assertSameLines(
        Goldens.expectedUnion(), dumpTable(all.table()), "goldens: recompute of every batch");
  }
}
