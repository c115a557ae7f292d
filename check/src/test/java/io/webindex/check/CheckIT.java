package io.webindex.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import io.webindex.check.report.CheckReportJson;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.index.HistoryCells;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CountCodec;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.schema.TimedCell;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.BulkImport;
import io.webindex.store.Cells;
import io.webindex.store.FrontierTables;
import io.webindex.store.HistoryTables;
import io.webindex.store.JobSecrets;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.StoreException;
import io.webindex.testkit.AccumuloITBase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Fault injection: each kind of damage is reported with the right kind, range and sample. */
@Timeout(value = 8, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckIT extends AccumuloITBase {
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
    BulkImport.createFresh(connector(), table, splits);
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

  @ParameterizedTest
  @EnumSource(
      value = CheckRunner.Mode.class,
      names = {"SCANNER", "FILES", "MAPREDUCE"})
  void faultsAreReportedWithKindRangeAndSample(CheckRunner.Mode mode) throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord live = referenceRun("live", 2);
    CheckReport clean = check(truth, live.table(), 2, mode);
    assertTrue(clean.consistent(), CheckReportJson.toJson(clean));
    assertTrue(clean.compared() > 1000);

    // a corrupted page:cur
    Scanner curs = connector().createScanner(live.table(), Authorizations.EMPTY);
    curs.setRange(Range.prefix("p:"));
    curs.fetchColumn(new Text("page"), new Text("cur"));
    Map.Entry<Key, Value> cur = curs.iterator().next();
    Mutation corrupt = new Mutation(cur.getKey().getRow());
    corrupt.put(
        cur.getKey().getColumnFamily(),
        cur.getKey().getColumnQualifier(),
        new Value("{corrupted".getBytes(StandardCharsets.UTF_8)));
    // a deleted inlinks column
    Scanner s = connector().createScanner(live.table(), Authorizations.EMPTY);
    s.setRange(Range.prefix("p:"));
    s.fetchColumnFamily(new Text("inlinks"));
    Key inlink = s.iterator().next().getKey();
    Mutation dropInlink = new Mutation(inlink.getRow());
    dropInlink.putDelete(inlink.getColumnFamily(), inlink.getColumnQualifier());
    // a wrong t: row: the top URI's count off by 7
    Key top = first(live.table(), Range.prefix("t:")).getKey();
    String topRow = top.getRow().toString();
    long urc = CountCodec.decode(topRow, 2);
    String uri = topRow.substring(2 + CountCodec.WIDTH + 1);
    Mutation dropTop = new Mutation(topRow);
    dropTop.putDelete("", "");
    Mutation wrongTop = new Mutation("t:" + CountCodec.encode(urc + 7) + ":" + uri);
    wrongTop.put("", "", Long.toString(urc + 7));
    mutate(live.table(), corrupt, dropInlink, dropTop, wrongTop);

    CheckReport r = check(truth, live.table(), 2, mode);
    assertFalse(r.consistent());
    assertEquals(mode.name().toLowerCase(java.util.Locale.ROOT), r.mode());
    // what was injected, cell by cell: one changed page:cur (p: DIFFERENT), one deleted inlinks
    // column (p: MISSING, and its row's incount no longer counts its inlinks), the top t: row
    // deleted (t: MISSING) and re-written with a count 7 higher (t: EXTRA, and the URI's t: count
    // is no longer its incount). Nothing else.
    String curRow = cur.getKey().getRow().toString();
    String inlinkRow = inlink.getRow().toString();
    String inlinkColumn = "inlinks:" + inlink.getColumnQualifier();
    Map<String, List<Long>> missingExtraDifferent = new java.util.TreeMap<>();
    for (RangeTotals t : r.ranges()) {
      missingExtraDifferent.put(t.range(), List.of(t.missing(), t.extra(), t.different()));
    }
    Map<String, List<Long>> injected = new java.util.TreeMap<>();
    for (String range : missingExtraDifferent.keySet()) {
      injected.put(
          range,
          switch (range) {
            case "p:" -> List.of(1L, 0L, 1L);
            case "t:" -> List.of(1L, 1L, 0L);
            default -> List.of(0L, 0L, 0L);
          });
    }
    assertEquals(injected, missingExtraDifferent);
    assertTrue(missingExtraDifferent.keySet().containsAll(List.of("d:", "p:", "t:")));
    assertEquals(4, r.differences());
    assertEquals(
        List.of(
            Kind.DIFFERENT + " " + curRow + " page:cur -> {corrupted",
            Kind.EXTRA + " " + "t:" + CountCodec.encode(urc + 7) + ":" + uri,
            Kind.MISSING + " " + inlinkRow + " " + inlinkColumn,
            Kind.MISSING + " " + topRow),
        r.samples().stream()
            .filter(f -> f.kind().isDifference())
            .map(
                f ->
                    f.kind()
                        + " "
                        + f.row()
                        + (f.column().isEmpty() || f.column().equals(":") ? "" : " " + f.column())
                        + (f.kind() == Kind.DIFFERENT ? " -> " + f.actual() : ""))
            .sorted()
            .toList());
    assertEquals(
        Map.of(Kind.INCOUNT_MISMATCH, 1L, Kind.TOTAL_MISMATCH, 1L), r.invariants().get("actual"));
    assertEquals(inlinkRow, sample(r, Kind.INCOUNT_MISMATCH).row());
    Finding total = sample(r, Kind.TOTAL_MISMATCH);
    assertEquals(
        List.of(Long.toString(urc), Long.toString(urc + 7)),
        List.of(total.expected(), total.actual()));
    assertEquals(
        Map.of(), r.invariants().getOrDefault("expected", Map.of()), "the batch table is sound");
    assertEquals(r, CheckReportJson.fromJson(CheckReportJson.toJson(r)));
    assertEquals(List.of(), checkClones());
  }

  @Test
  void aDroppedDeltaIsReportedAndNewerBatchesAreNot() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord behind = referenceRun("behind", 1); // the live side missed batch 2
    CheckReport dropped = check(truth, behind.table(), 2, CheckRunner.Mode.SCANNER);
    assertFalse(dropped.consistent());
    assertTrue(dropped.differences() > 0);
    // the differences are in the p: range and every sampled one concerns what batch 2 touched
    // (its pages, their links, and the links their versions at snapshot 1 had)
    assertTrue(
        dropped.ranges().stream()
                .filter(t -> t.range().equals("p:"))
                .findFirst()
                .orElseThrow()
                .differences()
            > 0);
    // what batch 2 touched, computed here from the written input (not by SnapshotExclusions):
    // the URIs of its pages and every link target of any version (batches 0 to 2) of those pages
    Set<String> touched = touchedByBatch(tmp.resolve("store"), 2);
    List<Finding> diffs = dropped.samples().stream().filter(f -> f.kind().isDifference()).toList();
    assertFalse(diffs.isEmpty());
    for (Finding f : diffs) {
      assertTrue(concerns(f, touched), "a difference outside what batch 2 touched: " + f);
    }

    // Fluo ahead of the run: the live side applied batch 2, the run's snapshot is 1
    RunRecord older = referenceRun("older", 1);
    RunRecord ahead = referenceRun("ahead", 2);
    CheckReport aware = check(older, ahead.table(), 2, CheckRunner.Mode.SCANNER);
    assertTrue(
        aware.consistent(),
        "differences caused only by batch 2 are not inconsistencies: " + aware.differences());
    assertTrue(aware.ranges().stream().mapToLong(RangeTotals::skipped).sum() > 0);
    assertFalse(
        check(older, ahead.table(), 1, CheckRunner.Mode.SCANNER).consistent(),
        "without the exclusion they would be");
  }

  /**
   * The MapReduce check: its tasks get the Accumulo password from the job's credentials, not from
   * the job's configuration or a file; and its directory (exclusions, output, task errors) is gone
   * after a check that succeeded and after one that failed (its map tasks cannot read an offline
   * table), the failure reported with the task's exception.
   */
  @Test
  void theMapReduceCheckKeepsThePasswordInCredentialsAndLeavesNoFiles() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord live = referenceRun("live", 2);
    java.nio.file.Path workDir = java.nio.file.Path.of(java.net.URI.create(truth.workDir()));
    List<Job> jobs = new ArrayList<>();
    CheckRunner runner =
        new CheckRunner(cfg, connector(), new Configuration()).beforeSubmit(jobs::add);
    assertTrue(runner.run(truth, live.table(), 2, CheckRunner.Mode.MAPREDUCE).consistent());
    assertEquals(List.of(), checkDirs(workDir));

    connector().tableOperations().offline(live.table(), true);
    // a failed job is an internal failure (exit status 4), not a refusal the command line fixes
    IllegalStateException failed =
        assertThrows(
            IllegalStateException.class,
            () -> runner.run(truth, live.table(), 2, CheckRunner.Mode.MAPREDUCE));
    assertTrue(failed.getMessage().contains("offline"), failed.getMessage());
    assertTrue(failed.getMessage().contains("task attempt_"), failed.getMessage());
    assertEquals(List.of(), checkDirs(workDir), "the failed check's directory is gone");

    assertEquals(2, jobs.size());
    for (Job job : jobs) {
      ByteArrayOutputStream xml = new ByteArrayOutputStream();
      job.getConfiguration().writeXml(xml);
      String jobXml = xml.toString(StandardCharsets.UTF_8);
      assertFalse(jobXml.contains(ROOT_PASSWORD), "the job's configuration carries the password");
      assertFalse(jobXml.contains("accumulo.password"), jobXml);
      assertEquals(List.of(), JobSecrets.secretKeys(job.getConfiguration()));
      // named and tagged by its run, so `yarn application -list -appTags` finds it
      assertEquals("webindex check truth: check", job.getJobName());
      assertEquals(
          List.of("webindex", "webindex-run-truth", "webindex-check"),
          List.copyOf(job.getConfiguration().getTrimmedStringCollection("mapreduce.job.tags")));
      assertEquals(
          ROOT_PASSWORD,
          new String(
              job.getCredentials().getSecretKey(new Text("webindex.accumulo.password")),
              StandardCharsets.UTF_8));
    }
  }

  static List<String> checkDirs(java.nio.file.Path workDir) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.list(workDir)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith("check-"))
          .toList();
    }
  }

  @Test
  void theToolWritesTheReportsAndExitsByVerdict() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord behind = referenceRun("behind", 1);
    Path out = tmp.resolve("report");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    int exit =
        ToolRunner.run(
            new Configuration(),
            new CheckTool(new PrintStream(console, true, StandardCharsets.UTF_8)),
            new String[] {
              "--webindex-conf",
              confFile.toString(),
              "--run",
              "truth",
              "--actual",
              behind.table(),
              "--out",
              out.toString()
            });
    assertEquals(CheckTool.INCONSISTENT, exit);
    assertTrue(
        console.toString(StandardCharsets.UTF_8).contains("INCONSISTENT"),
        console.toString(StandardCharsets.UTF_8));
    assertFalse(CheckReportJson.fromJson(Files.readString(out.resolve("check.json"))).consistent());
    assertTrue(Files.readString(out.resolve("check.html")).contains("INCONSISTENT"));
    int ok =
        ToolRunner.run(
            new Configuration(),
            new CheckTool(new PrintStream(new ByteArrayOutputStream())),
            new String[] {
              "--webindex-conf",
              confFile.toString(),
              "--run",
              "truth",
              "--actual",
              truth.table(),
              "--out",
              out.toString()
            });
    assertEquals(0, ok);
    assertEquals(
        CheckTool.USAGE,
        ToolRunner.run(
            new Configuration(),
            new CheckTool(),
            new String[] {
              "--webindex-conf", confFile.toString(), "--run", "nope", "--actual", "x"
            }));
  }

  @Test
  void theToolComparesWithTheServedTableAndWritesReportsThroughHadoop() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord behind = referenceRun("behind", 1);
    Path out = tmp.resolve("served-report");
    String[] args = {
      "--webindex-conf",
      confFile.toString(),
      "--run",
      "truth",
      "--served",
      "--out",
      out.toUri().toString() // file:///…: a Hadoop path, written through Hadoop's file system
    };
    assertTrue(args[6].startsWith("file:/"), args[6]);
    assertEquals(
        CheckTool.USAGE,
        ToolRunner.run(new Configuration(), new CheckTool(), args),
        "nothing is served yet");
    assertFalse(Files.exists(out));

    RunRegistry registry = new RunRegistry(connector(), cfg.metaTable());
    registry.serve(behind);
    assertEquals(
        CheckTool.INCONSISTENT,
        ToolRunner.run(
            new Configuration(),
            new CheckTool(new PrintStream(new ByteArrayOutputStream())),
            args));
    CheckReport report = CheckReportJson.fromJson(Files.readString(out.resolve("check.json")));
    assertEquals(behind.table(), report.actualTable(), "--served is the served table");
    assertEquals(truth.table(), report.expectedTable());
    assertTrue(Files.readString(out.resolve("check.html")).contains("INCONSISTENT"));

    registry.serve(truth);
    assertEquals(
        0,
        ToolRunner.run(
            new Configuration(),
            new CheckTool(new PrintStream(new ByteArrayOutputStream())),
            args));
    assertTrue(
        CheckReportJson.fromJson(Files.readString(out.resolve("check.json"))).consistent(),
        "the reports are replaced");
  }

  /**
   * Without the Fluo side on the class path (this module's, like the recompute's job jar), a served
   * table that a Fluo application maintains cannot be checked against its live side: a usage error
   * that says where the Fluo side is, nothing compared.
   */
  @Test
  void aFluoMaintainedServedTableNeedsTheFluoSide() throws Exception {
    assertTrue(FluoSide.find().isEmpty(), "no Fluo side on the check's own class path");
    Instant now = Instant.now();
    RunRecord run =
        new RunRecord(
            "live",
            RunRecord.Status.SUCCEEDED,
            0,
            cfg.runTable("live"),
            now,
            now,
            List.of(),
            Map.of(),
            "",
            "",
            "",
            cfg.fluoBuckets(),
            io.webindex.core.Version.current().webindex());
    RunRegistry registry = new RunRegistry(connector(), cfg.metaTable()).ensureTable();
    registry.put(run);
    registry.serve(run, "some_fluo_app");
    String[] r =
        runCheckTool(
            new Configuration(),
            "--webindex-conf",
            confFile.toString(),
            "--run",
            "live",
            "--served",
            "--out",
            tmp.resolve("live-report").toString());
    assertEquals(Integer.toString(CheckTool.USAGE), r[0], r[1]);
    String said = r[1];
    assertTrue(said.contains("needs the Fluo engine"), said);
    assertTrue(said.contains("webindex-fluo-jobs-<version>-job.jar"), said);
    assertFalse(Files.exists(tmp.resolve("live-report")), "no report: nothing was compared");
  }

  /** CheckTool's exit status and stderr with Hadoop properties {@code props} (key, value, …). */
  private String[] checkTool(String... props) throws Exception {
    Configuration conf = new Configuration();
    for (int i = 0; i < props.length; i += 2) {
      conf.set(props[i], props[i + 1]);
    }
    return runCheckTool(
        conf,
        "--webindex-conf",
        confFile.toString(),
        "--run",
        "any",
        "--actual",
        "any_table",
        "--out",
        tmp.resolve("unreached").toString());
  }

  /** CheckTool run as under {@code hadoop jar}: its exit status and what it wrote to stderr. */
  private static String[] runCheckTool(Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    int status;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      status =
          ToolRunner.run(conf, new CheckTool(new PrintStream(new ByteArrayOutputStream())), args);
    } finally {
      System.setErr(stderr);
    }
    return new String[] {Integer.toString(status), err.toString(StandardCharsets.UTF_8)};
  }

  /**
   * A check that cannot reach Accumulo is a transient failure (exit status 3: retry later), never
   * the verdict INCONSISTENT (1) nor a usage error; an instance name that does not exist is a
   * configuration error (2). One line on stderr each, no report written.
   */
  @Test
  void anUnreachableAccumuloIsTransientNotAVerdict() throws Exception {
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort(); // nothing listens there once it is closed
    }
    long t0 = System.nanoTime();
    String[] down =
        checkTool(
            "webindex.accumulo.zookeepers",
            "127.0.0.1:" + closed,
            "webindex.accumulo.connect.timeout",
            "2");
    long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
    assertEquals(Integer.toString(io.webindex.core.exit.ExitStatus.TRANSIENT), down[0], down[1]);
    assertEquals(1, down[1].lines().count(), down[1]);
    assertTrue(
        down[1].startsWith("check: Accumulo instance '" + instanceName() + "' at 127.0.0.1:"),
        down[1]);
    assertTrue(down[1].contains(": no ZooKeeper answers (127.0.0.1:" + closed + ": "), down[1]);
    assertTrue(down[1].contains("run the same again later"), down[1]);
    assertTrue(seconds < 30, "bounded by the connect timeout, took " + seconds + " s");

    String[] wrong = checkTool("webindex.accumulo.instance", "no_such_instance");
    assertEquals(Integer.toString(CheckTool.USAGE), wrong[0], wrong[1]);
    assertTrue(wrong[1].contains("no_such_instance"), wrong[1]);
    String[] typo = checkTool("webindex.accumulo.zookeepers", "no-such-zk-host.invalid:2181");
    assertEquals(Integer.toString(CheckTool.USAGE), typo[0], typo[1]);
    assertTrue(typo[1].contains("unknown ZooKeeper host no-such-zk-host.invalid"), typo[1]);
    assertFalse(Files.exists(tmp.resolve("unreached")), "no report: nothing was compared");
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

  /**
   * The files mode reads what the tablet server serves: on a Fluo-maintained table whose three
   * tablets share one file (written and flushed in one tablet, then split), with overwritten
   * versions and deletes in a second flushed file per tablet and in memory (the clone's flush
   * writes them), it gives exactly the scanner mode's findings, and those match what this test
   * computes from the cells it wrote. The clones are gone afterwards.
   */
  @Test
  void theFilesModeFindsWhatTheScannerModeFinds() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord older = referenceRun("older", 1);
    java.util.TreeMap<Key, Value> want = cellsOf(truth.table());
    java.util.TreeMap<Key, Value> start = cellsOf(older.table());
    String live = cfg.runTable("live");
    connector().tableOperations().create(live);
    // no major compaction may merge the files this test lays out
    connector().tableOperations().setProperty(live, "table.compaction.major.ratio", "1000");
    // what the live table holds at the end, cell by cell (row family:qualifier -> value)
    java.util.TreeMap<String, String> holds = new java.util.TreeMap<>();
    BatchWriter bw = connector().createBatchWriter(live, new BatchWriterConfig());
    for (Map.Entry<Key, Value> e : start.entrySet()) {
      Key k = e.getKey();
      Mutation m = new Mutation(k.getRow());
      m.put(k.getColumnFamily(), k.getColumnQualifier(), 1000L, e.getValue());
      bw.addMutation(m);
      holds.put(cellKey(k), e.getValue().toString());
    }
    bw.close();
    connector().tableOperations().flush(live, null, null, true);
    List<Key> keys = new ArrayList<>(start.keySet());
    SortedSet<Text> splits = new TreeSet<>();
    splits.add(keys.get(keys.size() / 3).getRow());
    splits.add(keys.get(2 * keys.size() / 3).getRow());
    connector().tableOperations().addSplits(live, splits);

    // toward the truth, every second change: puts (new cells and new versions) and deletes;
    // first a wrong version of each changed cell, then the right one (or the delete)
    java.util.TreeMap<String, String> truthCells = new java.util.TreeMap<>();
    want.forEach((k, v) -> truthCells.put(cellKey(k), v.toString()));
    java.util.TreeMap<String, Key> keyOf = new java.util.TreeMap<>();
    want.keySet().forEach(k -> keyOf.put(cellKey(k), k));
    start.keySet().forEach(k -> keyOf.put(cellKey(k), k));
    List<String> changed = new ArrayList<>();
    for (String ck : keyOf.keySet()) {
      if (!java.util.Objects.equals(truthCells.get(ck), holds.get(ck))) {
        changed.add(ck);
      }
    }
    assertTrue(changed.size() > 20, "batch 2 changes cells: " + changed.size());
    List<Mutation> later = new ArrayList<>();
    bw = connector().createBatchWriter(live, new BatchWriterConfig());
    for (int i = 0; i < changed.size(); i += 2) {
      String ck = changed.get(i);
      Key k = keyOf.get(ck);
      Mutation wrong = new Mutation(k.getRow());
      wrong.put(
          k.getColumnFamily(),
          k.getColumnQualifier(),
          2000L,
          new Value("wrong".getBytes(StandardCharsets.UTF_8)));
      bw.addMutation(wrong);
      Mutation right = new Mutation(k.getRow());
      if (truthCells.containsKey(ck)) {
        right.put(
            k.getColumnFamily(),
            k.getColumnQualifier(),
            3000L,
            new Value(truthCells.get(ck).getBytes(StandardCharsets.UTF_8)));
        holds.put(ck, truthCells.get(ck));
      } else {
        right.putDelete(k.getColumnFamily(), k.getColumnQualifier(), 3000L);
        holds.remove(ck);
      }
      later.add(right);
    }
    bw.close();
    connector().tableOperations().flush(live, null, null, true); // the wrong versions: in files
    // cells the files check reads without the delete iterator (the table's only scan iterator is
    // the default latest-version one): a cell deleted then put again (in a flushed file and in
    // memory), one put and deleted at the same time (the delete wins), and a labelled cell (never
    // visible without authorizations)
    List<String> unchanged =
        holds.keySet().stream().filter(ck -> !changed.contains(ck)).limit(3).toList();
    assertEquals(3, unchanged.size());
    bw = connector().createBatchWriter(live, new BatchWriterConfig());
    Key again = keyOf.get(unchanged.get(0));
    Mutation del = new Mutation(again.getRow());
    del.putDelete(again.getColumnFamily(), again.getColumnQualifier(), 4000L);
    bw.addMutation(del);
    Key tie = keyOf.get(unchanged.get(1));
    Mutation tied = new Mutation(tie.getRow());
    tied.put(
        tie.getColumnFamily(),
        tie.getColumnQualifier(),
        4000L,
        new Value("tie".getBytes(StandardCharsets.UTF_8)));
    tied.putDelete(tie.getColumnFamily(), tie.getColumnQualifier(), 4000L);
    bw.addMutation(tied);
    holds.remove(unchanged.get(1));
    Mutation labelled = new Mutation(keyOf.get(unchanged.get(2)).getRow());
    labelled.put(
        new Text("page"),
        new Text("secret"),
        new org.apache.accumulo.core.security.ColumnVisibility("admin"),
        4000L,
        new Value("hidden".getBytes(StandardCharsets.UTF_8)));
    bw.addMutation(labelled);
    bw.close();
    connector().tableOperations().flush(live, null, null, true);
    bw = connector().createBatchWriter(live, new BatchWriterConfig());
    for (Mutation m : later) {
      bw.addMutation(m); // the right versions and the deletes: in memory until the clone's flush
    }
    Mutation putAgain = new Mutation(again.getRow());
    putAgain.put(
        again.getColumnFamily(),
        again.getColumnQualifier(),
        5000L,
        new Value(holds.get(unchanged.get(0)).getBytes(StandardCharsets.UTF_8)));
    bw.addMutation(putAgain);
    bw.close();

    // the setup is what this test claims: three tablets, one file shared by all, more files
    Map<String, List<String>> files = filesByTablet(live);
    assertEquals(3, files.size(), files.toString());
    assertEquals(
        "{table.iterator.scan.vers=20,org.apache.accumulo.core.iterators.user.VersioningIterator,"
            + " table.iterator.scan.vers.opt.maxVersions=1}",
        scanIterators(live).toString(),
        "the table's scan iterators are Accumulo's default");
    Map<String, Long> tabletsPerFile = new java.util.TreeMap<>();
    files.values().forEach(fs -> fs.forEach(f -> tabletsPerFile.merge(f, 1L, Long::sum)));
    assertEquals(1, tabletsPerFile.values().stream().filter(n -> n == 3).count(), files.toString());
    assertTrue(tabletsPerFile.size() > 1, files.toString());
    assertEquals(List.of(), checkClones());

    // what the check must find, from the cells this test wrote
    long missing = truthCells.keySet().stream().filter(k -> !holds.containsKey(k)).count();
    long extra = holds.keySet().stream().filter(k -> !truthCells.containsKey(k)).count();
    long different =
        truthCells.entrySet().stream()
            .filter(e -> holds.containsKey(e.getKey()))
            .filter(e -> !holds.get(e.getKey()).equals(e.getValue()))
            .count();
    assertTrue(missing > 0 && extra > 0 && different > 0, missing + " " + extra + " " + different);

    CheckReport scanner = check(truth, live, 2, CheckRunner.Mode.SCANNER);
    CheckReport files1 = check(truth, live, 2, CheckRunner.Mode.FILES);
    // auto on a run this small compares through the tablet servers; at the size where the files
    // pay (filesFrom lowered to 0 here) it reads them
    CheckReport auto = check(truth, live, 2, CheckRunner.Mode.AUTO);
    CheckReport autoFiles =
        new CheckRunner(cfg, connector(), new Configuration())
            .filesFrom(0)
            .run(truth, live, 2, CheckRunner.Mode.AUTO);
    for (CheckReport r : List.of(scanner, files1, auto, autoFiles)) {
      assertEquals(
          List.of(truthCells.size() + extra, missing, extra, different),
          List.of(
              r.compared(),
              r.ranges().stream().mapToLong(RangeTotals::missing).sum(),
              r.ranges().stream().mapToLong(RangeTotals::extra).sum(),
              r.ranges().stream().mapToLong(RangeTotals::different).sum()),
          r.mode());
    }
    assertEquals(
        List.of("scanner", "files", "scanner", "files"),
        List.of(scanner.mode(), files1.mode(), auto.mode(), autoFiles.mode()));
    assertEquals(findings(scanner), findings(files1));
    assertEquals(findings(scanner), findings(auto));
    assertEquals(findings(scanner), findings(autoFiles));
    assertFalse(scanner.invariants().getOrDefault("actual", Map.of()).isEmpty());
    assertEquals(List.of(), checkClones(), "the clones are deleted");
    assertEquals(
        0,
        cellsOf(live).values().stream().filter(v -> v.toString().equals("wrong")).count(),
        "no wrong version is served");
  }

  /**
   * A files check that fails while it compares (its listener throws) or before (a scan iterator
   * class the check cannot load) leaves no clone behind; the second is not read through the tablet
   * server instead, since the user asked for the files mode.
   */
  @Test
  void theClonesAreDeletedWhenTheFilesCheckFails() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord live = referenceRun("live", 2);
    IllegalStateException stop =
        assertThrows(
            IllegalStateException.class,
            () ->
                io.webindex.check.scan.FileCheck.run(
                    connector(),
                    new Configuration(),
                    truth.table(),
                    live.table(),
                    io.webindex.check.engine.Exclusions.NONE,
                    new io.webindex.check.engine.CheckAccumulator(20),
                    new io.webindex.check.engine.CheckListener() {
                      long n;

                      @Override
                      public void compared(String range, boolean skipped) {
                        if (++n == 500) {
                          throw new IllegalStateException("stop at cell 500");
                        }
                      }

                      @Override
                      public void difference(Kind kind, Cell expected, Cell actual) {}

                      @Override
                      public void violation(String table, Finding finding) {}
                    }));
    assertEquals("stop at cell 500", stop.getMessage());
    assertEquals(List.of(), checkClones());

    connector()
        .tableOperations()
        .setProperty(
            live.table(), "table.iterator.scan.nosuch", "30,io.webindex.check.NoSuchIterator");
    StoreException failed =
        assertThrows(
            StoreException.class, () -> check(truth, live.table(), 2, CheckRunner.Mode.FILES));
    assertTrue(failed.getMessage().contains("scan iterators"), failed.getMessage());
    assertTrue(failed.getMessage().contains("--mode scanner"), failed.getMessage());
    assertEquals(List.of(), checkClones());
  }

  /**
   * A user who may read both tables but not clone them: auto compares through the tablet servers
   * (the same findings), files refuses with a message that names the missing permission.
   */
  @Test
  void withoutPermissionToCloneAutoFallsBackToTheScanner() throws Exception {
    RunRecord truth = referenceRun("truth", 2);
    RunRecord behind = referenceRun("behind", 1);
    String user = "reader" + System.nanoTime();
    String password = "reader-secret-" + System.nanoTime();
    connector()
        .securityOperations()
        .createLocalUser(
            user, new org.apache.accumulo.core.client.security.tokens.PasswordToken(password));
    for (String t : List.of(truth.table(), behind.table())) {
      connector()
          .securityOperations()
          .grantTablePermission(user, t, org.apache.accumulo.core.security.TablePermission.READ);
    }
    org.apache.accumulo.core.client.Connector reader =
        connector()
            .getInstance()
            .getConnector(
                user, new org.apache.accumulo.core.client.security.tokens.PasswordToken(password));
    // auto as at the size where it reads the files (the run is small)
    CheckRunner runner = new CheckRunner(cfg, reader, new Configuration()).filesFrom(0);
    CheckReport auto = runner.run(truth, behind.table(), 2, CheckRunner.Mode.AUTO);
    CheckReport scanner = check(truth, behind.table(), 2, CheckRunner.Mode.SCANNER);
    assertEquals("scanner", auto.mode());
    assertFalse(scanner.consistent());
    assertEquals(findings(scanner), findings(auto));
    StoreException refused =
        assertThrows(
            StoreException.class,
            () -> runner.run(truth, behind.table(), 2, CheckRunner.Mode.FILES));
    assertTrue(refused.getMessage().contains("no permission to clone"), refused.getMessage());
    assertTrue(refused.getMessage().contains("PERMISSION_DENIED"), refused.getMessage());
    assertEquals(List.of(), checkClones());
  }

  /** Waits until a property change of the history table of {@code queryTable} is visible. */
  private void awaitIncRate(String queryTable, double rate) throws InterruptedException {
    long until = System.nanoTime() + 30_000_000_000L;
    while (HistoryTables.settings(connector(), queryTable).orElseThrow().schedule().incRate()
        != rate) {
      assertTrue(System.nanoTime() < until, "the property change is not visible");
      Thread.sleep(100);
    }
  }

  /**
   * Writes the history table of {@code queryTable} as a recompute would: every URI's crawls and
   * schedule from the versions of batches {@code <= snapshot}, and a urc point of every seen URI at
   * each of {@code urcRuns} (the started instants of the runs whose series it holds).
   */
  void writeHistory(String queryTable, long snapshot, List<Long> urcRuns) throws Exception {
    Map<String, List<Page>> versions = new java.util.TreeMap<>();
    ReferenceIndex ref = new ReferenceIndex();
    RawPageStore raw = new RawPageStore(cfg.storeRoot(), new Configuration());
    for (RawPageStore.Batch b : raw.batches()) {
      if (b.seq() <= snapshot) {
        raw.read(
            b,
            ReadLimits.DEFAULT,
            new ReadStats(),
            new PageSink() {
              @Override
              public void page(Page page) {
                versions.computeIfAbsent(page.key(), k -> new ArrayList<>()).add(page);
                ref.apply(page);
              }

              @Override
              public void reject(Reject reject) {}
            });
      }
    }
    List<TimedCell> cells = new ArrayList<>();
    versions.forEach(
        (key, pages) -> {
          List<HistoryEntry> h = Histories.of(pages);
          cells.addAll(HistoryCells.of(key, h, cfg.schedule(), cfg.historyVersions()));
        });
    for (Map.Entry<String, UriState> u : ref.uriStates().entrySet()) {
      if (u.getValue().seen()) {
        for (long started : urcRuns) {
          cells.add(HistorySchema.urcCell(u.getKey(), started, u.getValue().urc()));
        }
      }
    }
    HistoryTables.createFresh(connector(), queryTable, cfg.historySettings());
    try (BatchWriter bw =
        connector()
            .createBatchWriter(HistorySchema.historyTable(queryTable), new BatchWriterConfig())) {
      for (TimedCell c : cells) {
        bw.addMutation(Cells.toMutation(c.cell(), c.timestamp()));
      }
    }
  }

  /**
   * The history tables: equal ones are CONSISTENT (every crawl version, schedule and urc point
   * compared; the later run's own urc point is not held against the Fluo-maintained table, which
   * has the series of the run it was seeded from); an added crawl version, a rewritten schedule and
   * an added urc point in the live history table are each reported as a difference, with the
   * invariant violations they cause (last crawl, crawls seen, the schedule rule), and change the
   * verdict.
   */
  @Test
  void theHistoryTablesAreComparedCellForCellAndTheirInvariantsChecked() throws Exception {
    RunRecord truth = referenceRun("h2", 2);
    RunRecord live = referenceRun("h1", 2);
    long earlier = truth.started().toEpochMilli() - 86_400_000L;
    writeHistory(truth.table(), 2, List.of(earlier, truth.started().toEpochMilli()));
    writeHistory(live.table(), 2, List.of(earlier));

    CheckReport equal = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertEquals(findings(equal), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    RangeTotals history =
        equal.ranges().stream().filter(t -> t.range().equals("history")).findFirst().orElseThrow();
    assertTrue(equal.consistent(), "equal history tables: " + findings(equal));
    assertTrue(history.compared() > 500, "history cells compared: " + history.compared());

    // each table records the rule it is kept by, and one kept by another rule is named as such
    assertEquals(
        Optional.of(cfg.historySettings()), HistoryTables.settings(connector(), live.table()));
    String incRate = "table.custom." + HistorySettings.INC_RATE;
    connector()
        .tableOperations()
        .setProperty(HistorySchema.historyTable(live.table()), incRate, "0.5");
    awaitIncRate(live.table(), 0.5);
    CheckReport otherRule = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertFalse(otherRule.consistent());
    assertEquals(
        findings(otherRule), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    assertEquals(
        List.of("(settings) settings:webindex.schedule.inc.rate 0.4 0.5"),
        otherRule.samples().stream()
            .filter(f -> f.kind() == Kind.DIFFERENT)
            .map(f -> f.row() + " " + f.column() + " " + f.expected() + " " + f.actual())
            .toList());
    connector()
        .tableOperations()
        .setProperty(HistorySchema.historyTable(live.table()), incRate, "0.4");
    awaitIncRate(live.table(), 0.4);

    // three rows of the live history table with a few crawls each
    List<String> rows = new ArrayList<>();
    try (Scanner sc =
        connector().createScanner(HistorySchema.historyTable(live.table()), Authorizations.EMPTY)) {
      sc.fetchColumnFamily(new Text(HistorySchema.FAM_SCHED));
      for (Map.Entry<Key, Value> e : sc) {
        if (HistorySchema.decodeSchedule(e.getValue().toString()).crawls() >= 2
            && rows.size() < 3) {
          rows.add(e.getKey().getRow().toString());
        }
      }
    }
    assertEquals(3, rows.size(), "rows with several crawls");
    String liveHistory = HistorySchema.historyTable(live.table());
    long future = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();
    Mutation crawl = new Mutation(rows.get(0));
    crawl.put(HistorySchema.FAM_CRAWL, "", future, "ok sha1:AAAA 1");
    String sched;
    try (Scanner sc = connector().createScanner(liveHistory, Authorizations.EMPTY)) {
      sc.setRange(Range.exact(rows.get(1), HistorySchema.FAM_SCHED));
      sched = sc.iterator().next().getValue().toString();
    }
    io.webindex.core.history.Schedule s = HistorySchema.decodeSchedule(sched);
    String altered =
        HistorySchema.encodeSchedule(
            new io.webindex.core.history.Schedule(
                s.firstCrawlMillis(),
                s.lastCrawlMillis(),
                s.crawls(),
                s.changes(),
                s.intervalSeconds(),
                s.nextFetchMillis() + 1000,
                s.lastModifiedMillis()));
    Mutation schedule = new Mutation(rows.get(1));
    schedule.put(HistorySchema.FAM_SCHED, "", 5L, altered);
    Mutation urc = new Mutation(rows.get(2));
    urc.put(HistorySchema.FAM_URC, "", earlier + 1, "7");
    mutate(liveHistory, crawl, schedule, urc);

    CheckReport r = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertFalse(r.consistent());
    // the files mode reads the history tables from their clones' files: the same findings
    assertEquals(findings(r), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    assertEquals(List.of(), checkClones(), "the clones are deleted");
    assertEquals(2, diff(r, "history", Kind.EXTRA), "the crawl version and the urc point");
    assertEquals(1, diff(r, "history", Kind.DIFFERENT), "the schedule");
    assertEquals(0, diff(r, "history", Kind.MISSING));
    assertEquals(1, violations(r, "actual", Kind.HISTORY_LAST_MISMATCH));
    assertEquals(1, violations(r, "actual", Kind.HISTORY_CRAWLS_MISMATCH));
    assertEquals(1, violations(r, "actual", Kind.SCHEDULE_MISMATCH));
    assertEquals(0, violations(r, "expected", Kind.SCHEDULE_MISMATCH));
    List<Finding> extra = r.samples().stream().filter(f -> f.kind() == Kind.EXTRA).toList();
    assertTrue(
        extra.stream()
            .anyMatch(
                f ->
                    f.row().equals(rows.get(0))
                        && f.column().equals("crawl:@2100-01-01T00:00:00.000Z")
                        && f.actual().equals("ok sha1:AAAA 1")),
        "the crawl version: " + extra);
    assertTrue(
        extra.stream()
            .anyMatch(
                f ->
                    f.row().equals(rows.get(2))
                        && f.column().equals("urc:@" + HistorySchema.iso(earlier + 1))
                        && f.actual().equals("7")),
        "the urc point: " + extra);
    Finding different = sample(r, Kind.DIFFERENT);
    assertEquals(rows.get(1), different.row());
    assertEquals(sched, different.expected());
    assertEquals(altered, different.actual());
    Finding rule = sample(r, Kind.SCHEDULE_MISMATCH);
    assertEquals(rows.get(1), rule.row());
    assertTrue(
        rule.detail().startsWith("next should be " + HistorySchema.iso(s.nextFetchMillis())),
        rule.detail());
  }

  /**
   * The frontier tables: equal ones are CONSISTENT; a due time changed (one cell moves: missing and
   * extra), a URL rewritten (different) and a URI twice in its queue (extra, and the duplicate an
   * invariant violation of the live table) are reported by the scanner mode and, reading the
   * clones' files, by the files mode alike.
   */
  @Test
  void theFrontierTablesAreComparedInBothModes() throws Exception {
    RunRecord truth = referenceRun("f2", 2);
    RunRecord live = referenceRun("f1", 2);
    List<FrontierEntry> entries = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String host = "h" + (i % 7) + ".com";
      entries.add(
          new FrontierEntry("com.h" + (i % 7) + "/p" + i, host, 1_000_000L * (i % 11), i % 5));
    }
    writeFrontier(truth.table(), entries);
    writeFrontier(live.table(), entries);

    CheckReport equal = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertTrue(equal.consistent(), "equal frontier tables: " + findings(equal));
    assertEquals(
        300,
        equal.ranges().stream()
            .filter(t -> t.range().equals("frontier"))
            .findFirst()
            .orElseThrow()
            .compared(),
        "frontier cells compared");
    assertEquals(findings(equal), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));

    String table = FrontierSchema.frontierTable(live.table());
    FrontierEntry moved = entries.get(10);
    FrontierEntry renamed = entries.get(20);
    Cell renamedCell = FrontierSchema.cell(renamed);
    Mutation move = new Mutation(FrontierSchema.queueRow(moved.queue()));
    move.putDelete(FrontierSchema.FAM_DUE, FrontierSchema.column(moved).qualifier());
    Cell later =
        FrontierSchema.cell(
            new FrontierEntry(
                moved.uriKey(), moved.queue(), moved.dueMillis() + 60_000L, moved.urc()));
    move.put(later.family(), later.qualifier(), later.value());
    Mutation rename = new Mutation(renamedCell.row());
    rename.put(renamedCell.family(), renamedCell.qualifier(), "http://elsewhere.example/");
    mutate(table, move, rename);

    CheckReport r = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertFalse(r.consistent());
    assertEquals(1, diff(r, "frontier", Kind.MISSING), "the entry's old due time");
    assertEquals(1, diff(r, "frontier", Kind.EXTRA), "its new due time");
    assertEquals(1, diff(r, "frontier", Kind.DIFFERENT), "the rewritten URL");
    assertEquals(0, violations(r, "actual", Kind.FRONTIER_DUPLICATE));
    assertEquals(findings(r), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));

    // the old due time back as well: the URI twice in its queue
    Cell old = FrontierSchema.cell(moved);
    Mutation twice = new Mutation(old.row());
    twice.put(old.family(), old.qualifier(), old.value());
    mutate(table, twice);
    CheckReport dup = check(truth, live.table(), 2, CheckRunner.Mode.SCANNER);
    assertEquals(0, diff(dup, "frontier", Kind.MISSING));
    assertEquals(1, diff(dup, "frontier", Kind.EXTRA));
    assertEquals(1, violations(dup, "actual", Kind.FRONTIER_DUPLICATE));
    assertEquals(findings(dup), findings(check(truth, live.table(), 2, CheckRunner.Mode.FILES)));
    assertEquals(List.of(), checkClones(), "the clones are deleted");
  }

  /** Creates the frontier table of {@code queryTable} holding {@code entries}. */
  private void writeFrontier(String queryTable, List<FrontierEntry> entries) throws Exception {
    FrontierTables.createFresh(connector(), queryTable);
    Cells.write(
        connector(),
        FrontierSchema.frontierTable(queryTable),
        entries.stream().map(FrontierSchema::cell).toList());
  }
}
