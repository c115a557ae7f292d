package io.webindex.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CountCodec;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.Cells;
import io.webindex.store.QueryTables;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the check's cluster tests share: a raw page store of three batches of a random web, a
 * configuration on the class's cluster, batch runs made from the reference index, and the helpers
 * that read tables and reports. {@link CheckIT} injects faults into the query table and runs the
 * Tool; {@link CheckTablesIT} compares through the tables' files and the history and frontier
 * tables. Two classes so that the module's forks share the work.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SharedCluster
abstract class CheckITBase extends AccumuloITBase {
  @TempDir Path tmp;
  Path confFile;
  WebindexConfig cfg;

  @BeforeEach
  void setUp() throws IOException {
    Path store = tmp.resolve("store");
    String prefix = newTableName("chk");
    confFile = writeWebindexConf(tmp, prefix, "webindex.recompute.tablets=3");
    cfg = WebindexConfig.load(confFile, Map.of());
    RandomWeb web = new RandomWeb(31, 250);
    for (long b = 0; b < 3; b++) {
      Path dir =
          Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", b)));
      for (Map.Entry<String, String> f : web.batchFiles(b, 200, 2).entrySet()) {
        Files.writeString(dir.resolve(f.getKey()), f.getValue());
      }
      LocalBatches.markComplete(dir);
    }
  }

  /**
   * A batch run as the check sees it, made without the recompute (it lives in mr-jobs, above this
   * module): the reference index of every batch {@code <= snapshot} of the raw page store, written
   * into a fresh table {@code <prefix>_<run>} of three tablets (two split points, as the recompute
   * makes them with {@code webindex.recompute.tablets=3}), and a SUCCEEDED record of it.
   * RecomputeIT shows the recompute writes exactly the reference index's cells.
   */
  RunRecord referenceRun(String run, long snapshot) throws Exception {
    ReferenceIndex ref = new ReferenceIndex();
    RawPageStore raw = new RawPageStore(cfg.storeRoot(), new Configuration());
    PageSink sink =
        new PageSink() {
          @Override
          public void page(Page page) {
            ref.apply(page);
          }

          @Override
          public void reject(Reject reject) {}
        };
    List<String> inputs = new ArrayList<>();
    for (RawPageStore.Batch b : raw.batches()) {
      if (b.seq() <= snapshot) {
        raw.read(b, ReadLimits.DEFAULT, new ReadStats(), sink);
        inputs.add(b.dir().toString());
      }
    }
    List<Cell> cells = new ArrayList<>(ref.cells());
    cells.sort(Cell.ORDER);
    SortedSet<Text> splits = new TreeSet<>();
    for (int i = 1; i < 3; i++) {
      splits.add(new Text(cells.get(i * cells.size() / 3).row()));
    }
    String table = cfg.runTable(run);
    QueryTables.createFresh(connector(), table, splits);
    Cells.write(connector(), table, cells);
    Path workDir = Files.createDirectories(tmp.resolve("work").resolve("runs").resolve(run));
    Instant now = Instant.now();
    RunRecord record =
        new RunRecord(
            run,
            RunRecord.Status.SUCCEEDED,
            snapshot,
            table,
            now,
            now,
            inputs,
            Map.of("write.QUERY_CELLS", (long) cells.size()),
            "",
            workDir.toUri().toString(),
            "",
            cfg.fluoBuckets(),
            io.webindex.core.Version.current().webindex());
    RunRegistry registry = new RunRegistry(connector(), cfg.metaTable()).ensureTable();
    registry.put(record);
    return registry.get(run).orElseThrow();
  }

  CheckReport check(RunRecord truth, String actual, long applied, CheckRunner.Mode mode)
      throws Exception {
    return new CheckRunner(cfg, connector(), new Configuration()).run(truth, actual, applied, mode);
  }

  static long diff(CheckReport r, String range, Kind kind) {
    RangeTotals t =
        r.ranges().stream().filter(x -> x.range().equals(range)).findFirst().orElseThrow();
    return kind == Kind.MISSING ? t.missing() : kind == Kind.EXTRA ? t.extra() : t.different();
  }

  static long violations(CheckReport r, String table, Kind kind) {
    return r.invariants().getOrDefault(table, Map.of()).getOrDefault(kind, 0L);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The URI key of one of RandomWeb's URLs, written for this test alone: RandomWeb's hosts are
   * names, one IPv4 address, {@code d.net:8080} and {@code https://e.io}; its paths are {@code /}
   * or {@code /p<n>}; a fragment ({@code #top}, which RandomWeb adds to some self links) is not
   * part of the key.
   */
  static String keyOf(String url) {
    int hash = url.indexOf('#');
    if (hash >= 0) {
      url = url.substring(0, hash);
    }
    boolean https = url.startsWith("https://");
    String rest = url.substring(https ? 8 : 7);
    int slash = rest.indexOf('/');
    String hostPort = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 || rest.substring(slash).equals("/") ? "" : rest.substring(slash);
    String host = hostPort.contains(":") ? hostPort.substring(0, hostPort.indexOf(':')) : hostPort;
    String port = hostPort.contains(":") ? hostPort.substring(hostPort.indexOf(':') + 1) : "";
    String marker =
        (port.isEmpty() ? "" : ":" + port) + (https ? (port.isEmpty() ? ":s" : "s") : "");
    String reversed =
        host.matches("[0-9.]+") ? host : String.join(".", reverse(List.of(host.split("\\."))));
    return reversed + marker + path;
  }

  private static List<String> reverse(List<String> labels) {
    List<String> r = new ArrayList<>(labels);
    java.util.Collections.reverse(r);
    return r;
  }

  /** The registrable domains of RandomWeb's hosts, by hand (keys of one host share a domain). */
  static String domainOfKey(String key) {
    String host = key.split("[:/]", 2)[0];
    return switch (host) {
      case "com.a", "com.a.www" -> "com.a";
      case "uk.co.b", "uk.co.b.blog" -> "uk.co.b";
      case "org.c" -> "org.c";
      case "1.2.3.4" -> "1.2.3.4";
      case "net.d" -> "net.d";
      case "io.e" -> "io.e";
      default -> throw new AssertionError("not a RandomWeb host: " + key);
    };
  }

  /**
   * The URI keys that batch {@code batch} can change: its pages' and every link target of any
   * version of those pages in batches up to {@code batch}.
   */
  static Set<String> touchedByBatch(Path store, long batch) throws IOException {
    Map<String, Set<String>> targetsByPage = new HashMap<>();
    Set<String> pagesOfBatch = new TreeSet<>();
    for (long b = 0; b <= batch; b++) {
      try (Stream<Path> files =
          Files.list(store.resolve("batches").resolve(String.format("%05d", b)))) {
        for (Path f : files.toList()) {
          for (String line : Files.readAllLines(f)) {
            JsonNode page = JSON.readTree(line);
            String key = keyOf(page.get("url").asText());
            Set<String> targets = targetsByPage.computeIfAbsent(key, k -> new TreeSet<>());
            for (JsonNode link : page.path("links")) {
              String target = link.get("url").asText();
              if (!target.startsWith("#")) { // a bare "#top" is a link to the page itself
                targets.add(keyOf(target));
              }
            }
            if (b == batch) {
              pagesOfBatch.add(key);
            }
          }
        }
      }
    }
    Set<String> touched = new TreeSet<>(pagesOfBatch);
    for (String p : pagesOfBatch) {
      touched.addAll(targetsByPage.get(p));
    }
    return touched;
  }

  /**
   * Whether a difference concerns one of the given URIs (its p: row, t: row or rank, or domain).
   */
  static boolean concerns(Finding f, Set<String> uris) {
    String row = f.row();
    if (row.startsWith("p:")) {
      return uris.contains(row.substring(2));
    }
    if (row.startsWith("t:")) {
      return uris.contains(row.substring(2 + CountCodec.WIDTH + 1));
    }
    String family = f.column().substring(0, f.column().indexOf(':'));
    if (family.equals("rank")) {
      return uris.contains(
          f.column().substring(f.column().indexOf(':') + 1 + CountCodec.WIDTH + 1));
    }
    String domain = row.substring(2);
    return uris.stream().anyMatch(u -> domainOfKey(u).equals(domain));
  }

  static Finding sample(CheckReport r, Kind kind) {
    return r.samples().stream()
        .filter(f -> f.kind() == kind)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " sample"));
  }

  void mutate(String table, Mutation... ms) throws Exception {
    BatchWriter bw = connector().createBatchWriter(table, new BatchWriterConfig());
    for (Mutation m : ms) {
      bw.addMutation(m);
    }
    bw.close();
  }

  Map.Entry<Key, Value> first(String table, Range range) throws Exception {
    Scanner s = connector().createScanner(table, Authorizations.EMPTY);
    s.setRange(range);
    return s.iterator().next();
  }

  /** The tables of the cluster whose names say they are the files check's clones. */
  List<String> checkClones() {
    return connector().tableOperations().list().stream().filter(t -> t.contains("_chk_")).toList();
  }

  /** Every cell of a table, read through the tablet server. */
  java.util.TreeMap<Key, Value> cellsOf(String table) throws Exception {
    java.util.TreeMap<Key, Value> m = new java.util.TreeMap<>();
    try (Scanner s = connector().createScanner(table, Authorizations.EMPTY)) {
      for (Map.Entry<Key, Value> e : s) {
        m.put(e.getKey(), e.getValue());
      }
    }
    return m;
  }

  /** The files of each tablet of a table, from the metadata table (one entry per tablet). */
  Map<String, List<String>> filesByTablet(String table) throws Exception {
    String id = connector().tableOperations().tableIdMap().get(table);
    Map<String, List<String>> files = new java.util.TreeMap<>();
    try (Scanner s = connector().createScanner("accumulo.metadata", Authorizations.EMPTY)) {
      s.setRange(new Range(new Text(id + ";"), true, new Text(id + "<"), true));
      s.fetchColumnFamily(new Text("file"));
      for (Map.Entry<Key, Value> e : s) {
        files
            .computeIfAbsent(e.getKey().getRow().toString(), k -> new ArrayList<>())
            .add(e.getKey().getColumnQualifier().toString());
      }
    }
    return files;
  }

  Map<String, String> scanIterators(String table) throws Exception {
    Map<String, String> m = new java.util.TreeMap<>();
    for (Map.Entry<String, String> p : connector().tableOperations().getProperties(table)) {
      if (p.getKey().startsWith("table.iterator.scan.")) {
        m.put(p.getKey(), p.getValue());
      }
    }
    return m;
  }

  static String cellKey(Key k) {
    return k.getRow() + " " + k.getColumnFamily() + ":" + k.getColumnQualifier();
  }

  /** The comparison a report gives, without its timing: totals per range, invariants, samples. */
  static List<Object> findings(CheckReport r) {
    return List.of(r.ranges(), r.invariants(), r.samples());
  }
}
