package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.exit.ExitStatus;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CountCodec;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.schema.TimedCell;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.JobSecrets;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.WorkedExample;
import io.webindex.testkit.oracle.DumpDiff;
import io.webindex.testkit.oracle.HistoryOracle;
import io.webindex.testkit.oracle.Oracle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batch recompute on MiniAccumulo with Hadoop's local job runner, compared cell for cell with
 * the in-memory reference index of core.
 */
@SharedCluster
class RecomputeIT extends AccumuloITBase {
  /** The history versions kept: few, so that crawl lists and urc series overflow it. */
  static final int VERSIONS = 3;

  /** The shipped schedule constants, written out for the oracle. */
  static final HistoryOracle.Rule RULE =
      new HistoryOracle.Rule(30 * 86_400L, 60, 365 * 86_400L, 0.4, 0.2, true, 0.3);

  @TempDir Path tmp;
  Path store;
  Path conf;
  String prefix;

  @BeforeEach
  void setUp() throws IOException {
    store = tmp.resolve("store");
    prefix = newTableName("wi");
    conf =
        writeWebindexConf(
            tmp,
            prefix,
            "webindex.recompute.tablets=3",
            "webindex.rejects.samples.per.task=5",
            "webindex.history.versions=" + VERSIONS);
  }

  Path batchDir(long seq) throws IOException {
    return Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", seq)));
  }

  /** Marks batches complete: their _SUCCESS marker, written after their files. */
  void complete(long... seqs) throws IOException {
    for (long b : seqs) {
      LocalBatches.markComplete(batchDir(b));
    }
  }

  static byte[] resource(String name) throws IOException {
    try (InputStream in = RecomputeIT.class.getResourceAsStream("/io/webindex/core/" + name)) {
      return in.readAllBytes();
    }
  }

  record Result(int exit, String stdout) {}

  RunRecord rec(String run) {
    return new RunRegistry(connector(), prefix + "_meta").get(run).orElseThrow();
  }

  Result recompute(String... args) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>();
    List<String> rest = new ArrayList<>(List.of(args));
    // generic Hadoop options (-D k=v) come first, as `hadoop jar` users write them
    while (rest.size() >= 2 && rest.get(0).equals("-D")) {
      all.addAll(rest.subList(0, 2));
      rest = new ArrayList<>(rest.subList(2, rest.size()));
    }
    all.addAll(List.of("--webindex-conf", conf.toString()));
    all.addAll(rest);
    int exit =
        ToolRunner.run(
            new Configuration(),
            new RecomputeTool(new PrintStream(bytes, true, StandardCharsets.UTF_8)),
            all.toArray(new String[0]));
    return new Result(exit, bytes.toString(StandardCharsets.UTF_8));
  }

  /** Reads the store the way the jobs must: every file of every batch <= snapshot. */
  ReferenceIndex reference(long snapshot) throws IOException {
    return References.of(store.toUri().toString(), snapshot);
  }

  /**
   * {@code [urls, superseded versions, current deletions]} of the JSON-lines pages in batches up to
   * {@code snapshot}, with latest-wins written here: the later {@code crawled}, then the later
   * batch, the later file name, the later line. Only RandomWeb's files ({@code part-*}) are read.
   */
  long[] latestCounts(long snapshot) throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    Map<String, long[]> best = new java.util.HashMap<>(); // url -> [time, batch, file, line, del]
    long versions = 0;
    for (long b = 0; b <= snapshot; b++) {
      List<Path> files;
      try (java.util.stream.Stream<Path> list = Files.list(batchDir(b))) {
        files = list.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList();
      }
      for (int fi = 0; fi < files.size(); fi++) {
        byte[] bytes = Files.readAllBytes(files.get(fi));
        if (files.get(fi).toString().endsWith(".gz")) {
          bytes =
              new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(bytes))
                  .readAllBytes();
        }
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
        for (int li = 0; li < lines.size(); li++) {
          com.fasterxml.jackson.databind.JsonNode page = json.readTree(lines.get(li));
          versions++;
          long[] v = {
            java.time.Instant.parse(page.get("crawled").asText()).toEpochMilli(),
            b,
            fi,
            li,
            page.path("deleted").asBoolean() ? 1 : 0
          };
          best.merge(
              page.get("url").asText(), v, (x, y) -> java.util.Arrays.compare(x, y) >= 0 ? x : y);
        }
      }
    }
    long deletions = best.values().stream().filter(v -> v[4] == 1).count();
    return new long[] {best.size(), versions - best.size(), deletions};
  }

  @Test
  void workedExampleEqualsGoldenDump() throws Exception {
    Files.writeString(batchDir(0).resolve("part-0.jsonl"), WorkedExample.jsonl());
    complete(0);
    Result r = recompute("--run", "r1");
    assertEquals(0, r.exit(), r.stdout());
    assertTrue(r.stdout().contains("run r1 SUCCEEDED"), r.stdout());
    List<String> golden = WorkedExample.dump().lines().toList();
    assertEquals(golden, dumpTable(prefix + "_r1"));
    assertEquals(golden, Oracle.ofStore(store, 0).dump(), "the independent oracle agrees");
    RunRecord rec = new RunRegistry(connector(), prefix + "_meta").get("r1").orElseThrow();
    assertEquals(RunRecord.Status.SUCCEEDED, rec.status());
    assertEquals(0, rec.snapshot());
    assertEquals(3L, rec.counters().get("latest.CURRENT_PAGES"));
    // p: and h: for 3 pages + um: for 5 seen URIs (the 3 crawled ones with their next fetch) +
    // dm: for 4 domains + the resume point
    assertEquals(16L, rec.counters().get("write.FLUO_SEED_ENTRIES"));
    assertTrue(
        Files.list(Path.of(URI.create(rec.seedDir()))).anyMatch(p -> p.toString().endsWith(".rf")));
    // the history table: each page crawled once, the urc series of the run's 5 seen URIs
    List<String> history = dumpHistory(prefix + "_r1");
    assertEquals(HistoryOracle.dump(store, 0, List.of(oracleRun(rec)), VERSIONS, RULE), history);
    assertEquals(3 * 2 + 5, history.size(), String.join("\n", history));
    // the frontier table: core's hand-written golden, and the oracle's
    List<String> frontier = dumpFrontier(prefix + "_r1");
    assertEquals(Files.readAllLines(CORE_FRONTIER_GOLDEN), frontier);
    assertEquals(HistoryOracle.frontier(store, 0, RULE), frontier);
    assertEquals(5L, rec.counters().get("write.FRONTIER_CELLS"));
  }

  /**
   * The worked example's frontier table, written by hand: core's golden, read where it is (the
   * tests run in their module's directory).
   */
  static final Path CORE_FRONTIER_GOLDEN =
      Path.of(
          System.getProperty("webindex.repo", ".."),
          "core/src/test/resources/io/webindex/core/frontier/worked-example-frontier.tsv");

  /** The frontier table of a run's table as dump lines, in table order. */
  List<String> dumpFrontier(String queryTable) throws Exception {
    List<String> out = new ArrayList<>();
    Scanner s =
        connector().createScanner(FrontierSchema.frontierTable(queryTable), Authorizations.EMPTY);
    for (Map.Entry<Key, Value> e : s) {
      Key k = e.getKey();
      assertEquals(0L, k.getTimestamp(), "a frontier cell at timestamp 0: " + k);
      out.add(
          DumpFormat.line(
              new Cell(
                  k.getRow().toString(),
                  k.getColumnFamily().toString(),
                  k.getColumnQualifier().toString(),
                  e.getValue().toString())));
    }
    return out;
  }

  /** The history table of a run's table as dump lines, as a scan returns it (versions kept). */
  List<String> dumpHistory(String queryTable) throws Exception {
    List<String> out = new ArrayList<>();
    Scanner s =
        connector().createScanner(HistorySchema.historyTable(queryTable), Authorizations.EMPTY);
    for (Map.Entry<Key, Value> e : s) {
      Key k = e.getKey();
      out.add(
          DumpFormat.line(
              new TimedCell(
                  k.getRow().toString(),
                  k.getColumnFamily().toString(),
                  k.getColumnQualifier().toString(),
                  k.getTimestamp(),
                  e.getValue().toString())));
    }
    return out;
  }

  static HistoryOracle.Run oracleRun(RunRecord r) {
    return new HistoryOracle.Run(r.started(), r.snapshot());
  }

  /**
   * (crawl ms, signature) of every HTML response of a WAT file, read here with Jackson: the
   * record's own digest, {@code sha1:} and its base-32 text as the record writes it.
   */
  static List<String> watDigests(byte[] wat) throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    List<String> out = new ArrayList<>();
    for (String line : new String(wat, StandardCharsets.UTF_8).split("\r?\n")) {
      if (!line.startsWith("{\"Envelope\"")) {
        continue;
      }
      com.fasterxml.jackson.databind.JsonNode env = json.readTree(line).path("Envelope");
      com.fasterxml.jackson.databind.JsonNode head = env.path("WARC-Header-Metadata");
      com.fasterxml.jackson.databind.JsonNode http =
          env.path("Payload-Metadata").path("HTTP-Response-Metadata");
      if (!head.path("WARC-Type").asText().equals("response") || !http.has("HTML-Metadata")) {
        continue;
      }
      String digest = http.path("Entity-Digest").asText(head.path("WARC-Payload-Digest").asText());
      out.add(
          java.time.Instant.parse(head.path("WARC-Date").asText()).toEpochMilli()
              + " ok "
              + digest);
    }
    return out;
  }

  @Test
  void randomizedWebWithMixedFormatsDeletionsStaleVersionsAndBadInput() throws Exception {
    RandomWeb web = new RandomWeb(2026, 300).subMillisecondCrawls();
    for (long b = 0; b < 4; b++) {
      Path dir = batchDir(b);
      for (Map.Entry<String, String> f : web.batchFiles(b, 250, 2).entrySet()) {
        byte[] content = f.getValue().getBytes(StandardCharsets.UTF_8);
        if (b == 1 && f.getKey().endsWith("0.jsonl")) {
          try (OutputStream out =
              new GZIPOutputStream(Files.newOutputStream(dir.resolve(f.getKey() + ".gz")))) {
            out.write(content);
          }
        } else {
          Files.write(dir.resolve(f.getKey()), content);
        }
      }
    }
    // a file delivered again in a later batch: the same versions twice (same crawl times)
    Files.copy(batchDir(0).resolve("part-00000.jsonl"), batchDir(2).resolve("part-again.jsonl"));
    // the WAT sample in batch 3: the oracle reads page JSON only, so snapshots 1 and 2 are its to
    // check
    Files.createDirectories(batchDir(3).resolve("wat"));
    Files.write(batchDir(3).resolve("wat/sample.wat.warc"), resource("common-crawl-18.wat.warc"));
    Files.writeString(
        batchDir(3).resolve("bad.jsonl"),
        "{not json\n{\"url\":\"ftp://x.com/\"}\n\u0000\u0001garbage\n");
    complete(0, 1, 2, 3); // each batch's _SUCCESS marker: never read as a page

    // two successive runs at snapshots 1 and 2, then the full one: the urc series grows by one
    // point per run, the history of each equal to the oracle's, cell for cell with timestamps
    Result older = recompute("--run", "snap1", "--snapshot", "1");
    assertEquals(0, older.exit(), older.stdout());
    List<HistoryOracle.Run> runs = new ArrayList<>(List.of(oracleRun(rec("snap1"))));
    List<String> history1 = HistoryOracle.dump(store, 1, runs, VERSIONS, RULE);
    DumpDiff.assertSameLines(history1, dumpHistory(prefix + "_snap1"), "history at snapshot 1");
    List<String> frontier1 = dumpFrontier(prefix + "_snap1");
    DumpDiff.assertSameLines(
        HistoryOracle.frontier(store, 1, RULE), frontier1, "frontier at snapshot 1");
    assertEquals((long) frontier1.size(), rec("snap1").counters().get("write.FRONTIER_CELLS"));
    Result second = recompute("--run", "snap2", "--snapshot", "2");
    assertEquals(0, second.exit(), second.stdout());
    runs.add(oracleRun(rec("snap2")));
    List<String> history2 = HistoryOracle.dump(store, 2, runs, VERSIONS, RULE);
    DumpDiff.assertSameLines(history2, dumpHistory(prefix + "_snap2"), "history at snapshot 2");
    List<String> frontier2 = dumpFrontier(prefix + "_snap2");
    DumpDiff.assertSameLines(
        HistoryOracle.frontier(store, 2, RULE), frontier2, "frontier at snapshot 2");
    // due at once (never crawled) and due later (crawled) both there; and gone pages nobody links
    // to, which are in the frontier but not seen
    String dueNow = "\tdue:" + FrontierSchema.encodeDue(0) + ":";
    assertTrue(frontier2.stream().anyMatch(l -> l.contains(dueNow)), "URIs never crawled");
    assertTrue(frontier2.stream().anyMatch(l -> !l.contains(dueNow)), "URIs crawled");
    assertTrue(
        frontier2.size() > rec("snap2").counters().get("uris.SEEN_URIS"),
        "gone pages nobody links to: " + frontier2.size());
    assertTrue(
        history2.stream().filter(l -> l.contains("\tcrawl:\t")).count()
            > 2L * history2.stream().filter(l -> l.contains("\tsched:\t")).count(),
        "several crawls per page");
    assertTrue(
        history2.stream().anyMatch(l -> l.contains("\tcrawl:\t") && l.contains("\tgone - 0")));
    assertTrue(
        rec("snap2").counters().get("latest.CRAWLS")
            > history2.stream().filter(l -> l.contains("\tcrawl:\t")).count(),
        "some crawl lists are longer than the versions kept");
    assertEquals(
        rec("snap1").counters().get("uris.SEEN_URIS"),
        rec("snap2").counters().get("write.URC_POINTS_CARRIED"),
        "run snap1's points, one per URI it saw, carried into snap2");

    Result full = recompute("--run", "full");
    assertEquals(0, full.exit(), full.stdout());
    List<String> expected = DumpFormat.lines(reference(3).cells());
    assertTrue(expected.size() > 1000, "a web worth comparing: " + expected.size());
    assertEquals(expected, dumpTable(prefix + "_full"));
    Path rejects = Path.of(URI.create(rec("full").workDir())).resolve("latest/rejects");
    // job 1's references are gone once job 2 has read them; its samples and rejects stay
    try (java.util.stream.Stream<Path> latest = Files.list(rejects.getParent())) {
      assertEquals(
          List.of("_SUCCESS", "rejects", "samples"),
          latest
              .map(f -> f.getFileName().toString())
              .filter(f -> !f.startsWith("."))
              .sorted()
              .toList());
    }
    // every rejected line of bad.jsonl, by its byte offset, with the reason a reader must give it
    // (fields: file, offset, reason, detail, excerpt): line 1 is not JSON; line 2 (at byte 10,
    // after "{not json\n") has an ftp URL, checked before its missing crawl time; line 3 (at byte
    // 10 + 23) does not start an object, its two control characters shown as '?'
    List<String> sampled = new ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.walk(rejects)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("part")).toList()) {
        sampled.addAll(Files.readAllLines(f));
      }
    }
    List<String> reasons = new ArrayList<>();
    for (String line : sampled) {
      String[] field = line.split("\t", -1);
      assertEquals(5, field.length, line);
      assertEquals("bad.jsonl", field[0], line);
      reasons.add(field[1] + " " + field[2] + " " + field[4]);
    }
    reasons.sort(java.util.Comparator.comparingLong(r -> Long.parseLong(r.split(" ")[0])));
    assertEquals(
        List.of(
            "0 MALFORMED_JSON {not json",
            "10 INVALID_URL {\"url\":\"ftp://x.com/\"}",
            "33 MALFORMED_JSON ??garbage"),
        reasons);
    RunRecord rec = rec("full");
    assertEquals(3L, rec.counters().get("read.REJECTED"));
    // the latest-version counters, from the written input by this test's own latest-wins: the
    // 1000 JSON versions (the good ones) and the WAT file's 4 pages (each URL once)
    long[] latest = latestCounts(3);
    assertEquals(latest[0] + 4, rec.counters().get("latest.URLS"));
    assertEquals(latest[1], rec.counters().get("latest.SUPERSEDED_VERSIONS"));
    assertEquals(latest[2], rec.counters().get("latest.CURRENT_DELETIONS"));
    assertTrue(latest[1] > 0 && latest[2] > 0, "stale versions and deletions exercised");

    // the WAT records' own digests are their crawls' signatures
    List<String> crawls = new ArrayList<>();
    for (String l : dumpHistory(prefix + "_full")) {
      TimedCell c = DumpFormat.parseTimed(l);
      if (c.family().equals(HistorySchema.FAM_CRAWL)) {
        crawls.add(c.timestamp() + " " + c.value().substring(0, c.value().lastIndexOf(' ')));
      }
    }
    // the full run carries both earlier runs' points, all of them (3 runs <= VERSIONS)
    String t1 = "\t@" + HistorySchema.iso(rec("snap1").started().toEpochMilli()) + "\t";
    String t2 = "\t@" + HistorySchema.iso(rec("snap2").started().toEpochMilli()) + "\t";
    assertEquals(
        history2.stream().filter(l -> l.contains("\turc:\t")).toList(),
        dumpHistory(prefix + "_full").stream()
            .filter(l -> l.contains("\turc:\t") && (l.contains(t1) || l.contains(t2)))
            .toList(),
        "the earlier runs' urc points in the full run's table");
    List<String> wat = watDigests(resource("common-crawl-18.wat.warc"));
    assertEquals(4, wat.size(), "the sample's HTML responses: " + wat);
    assertTrue(crawls.containsAll(wat), "WAT digests " + wat + " in the history");

    assertEquals(DumpFormat.lines(reference(1).cells()), dumpTable(prefix + "_snap1"));
    Oracle oracle = Oracle.ofStore(store, 1);
    assertTrue(oracle.staleAcrossBatches() > 0, "batch 1 holds versions older than batch 0's");
    DumpDiff.assertSameLines(
        oracle.dump(), dumpTable(prefix + "_snap1"), "snapshot 1 vs the oracle");
    assertEquals(
        1, new RunRegistry(connector(), prefix + "_meta").get("snap1").orElseThrow().snapshot());
  }

  /**
   * A URI with 100k inlinks in a domain of 100k seen URIs streams through the reducers (they count,
   * they never collect); the test JVM's 2 GiB heap is shared with the cluster clients.
   */
  @Test
  void hotUriAndHugeDomainStream() throws Exception {
    int n = 100_000;
    StringBuilder sb = new StringBuilder(n * 90);
    for (int i = 0; i < n; i++) {
      sb.append("{\"url\":\"http://hot.com/p")
          .append(i)
          .append(
              "\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[{\"url\":\"http://hot.com/\",\"anchor\":\"home\"}]}\n");
    }
    Files.writeString(batchDir(0).resolve("hot.jsonl"), sb);
    complete(0);
    Result r = recompute("--run", "hot");
    assertEquals(0, r.exit(), r.stdout());
    RunRecord rec = rec("hot");
    assertEquals((long) n, rec.counters().get("uris.INLINKS"));
    assertEquals((long) n + 1, rec.counters().get("uris.SEEN_URIS"));
    Scanner s = connector().createScanner(prefix + "_hot", Authorizations.EMPTY);
    s.setRange(Range.exact("p:com.hot", "page", "incount"));
    assertEquals(Integer.toString(n), s.iterator().next().getValue().toString());
    s.setRange(Range.exact("d:com.hot", "domain", "pagecount"));
    assertEquals(Integer.toString(n + 1), s.iterator().next().getValue().toString());
    s.setRange(Range.prefix("t:"));
    assertEquals(
        "t:" + CountCodec.encode(n) + ":com.hot", s.iterator().next().getKey().getRow().toString());
  }

  /**
   * The Accumulo password reaches no job: the configuration of every job of a run (what Hadoop
   * writes to its job.xml) holds neither the password nor a webindex password key nor the password
   * file's path, and a password given as {@code -D} is refused before anything starts.
   */
  @Test
  void noJobCarriesThePassword() throws Exception {
    Files.writeString(batchDir(0).resolve("part-0.jsonl"), WorkedExample.jsonl());
    complete(0);
    List<Job> jobs = new ArrayList<>();
    // a tag a scheduler set (Oozie's launcher tag) is kept beside webindex's own
    Configuration scheduled = new Configuration();
    scheduled.set("mapreduce.job.tags", "oozie-0123abcd");
    int exit =
        ToolRunner.run(
            scheduled,
            new RecomputeTool(new PrintStream(new ByteArrayOutputStream())).beforeSubmit(jobs::add),
            new String[] {"--webindex-conf", conf.toString(), "--run", "Pw"});
    assertEquals(0, exit);
    assertEquals(3, jobs.size());
    // each job named by its run and stage, and tagged for `yarn application -list -appTags` (YARN
    // keeps tags in lower case)
    List<String> stages = List.of("latest", "uris", "write");
    for (int i = 0; i < 3; i++) {
      Job job = jobs.get(i);
      assertEquals("webindex recompute Pw: " + stages.get(i), job.getJobName());
      assertEquals(
          List.of("oozie-0123abcd", "webindex", "webindex-run-pw", "webindex-" + stages.get(i)),
          List.copyOf(job.getConfiguration().getTrimmedStringCollection("mapreduce.job.tags")));
    }
    for (Job job : jobs) {
      ByteArrayOutputStream xml = new ByteArrayOutputStream();
      job.getConfiguration().writeXml(xml);
      String jobXml = xml.toString(StandardCharsets.UTF_8);
      assertFalse(jobXml.contains(ROOT_PASSWORD), job.getJobName() + " carries the password");
      assertFalse(jobXml.contains("accumulo.password"), job.getJobName() + ": " + jobXml);
      assertEquals(List.of(), JobSecrets.secretKeys(job.getConfiguration()));
    }

    Result refused = recompute("-D", "webindex.accumulo.password=" + ROOT_PASSWORD, "--run", "pw2");
    assertEquals(RecomputeTool.USAGE, refused.exit());
    assertTrue(new RunRegistry(connector(), prefix + "_meta").get("pw2").isEmpty());
    assertFalse(connector().tableOperations().exists(prefix + "_pw2"));
  }

  /** A run that fails half-way is recorded as FAILED with the reason and leaves no table behind. */
  @Test
  void failedRunLeavesNothingVisible() throws Exception {
    Files.writeString(batchDir(0).resolve("part-0.jsonl"), WorkedExample.jsonl());
    complete(0);
    // the work directory lies below a regular file: the first job cannot write its output
    Path blocker = Files.writeString(tmp.resolve("blocker"), "");
    Result r = recompute("-D", "webindex.work.dir=" + blocker.toUri() + "/work", "--run", "broken");
    assertEquals(ExitStatus.INTERNAL, r.exit(), r.stdout());
    RunRecord rec = rec("broken");
    assertEquals(RunRecord.Status.FAILED, rec.status());
    assertFalse(rec.message().isEmpty(), "says what failed");
    assertFalse(connector().tableOperations().exists(prefix + "_broken"));
    assertTrue(new RunRegistry(connector(), prefix + "_meta").latestSucceeded().isEmpty());
  }

  @Test
  void refusesToOverwriteAndReportsMissingInput() throws Exception {
    Result none = recompute("--run", "empty");
    assertEquals(RecomputeTool.USAGE, none.exit());
    assertFalse(connector().tableOperations().exists(prefix + "_empty"));

    Files.writeString(batchDir(0).resolve("part-0.jsonl"), WorkedExample.jsonl());
    complete(0);
    connector().tableOperations().create(prefix + "_taken");
    Result taken = recompute("--run", "taken");
    assertEquals(RecomputeTool.USAGE, taken.exit());
    assertEquals(List.of(), dumpTable(prefix + "_taken"), "an existing table is never written");

    assertEquals(RecomputeTool.USAGE, recompute("--snapshot", "x").exit());
    assertEquals(RecomputeTool.USAGE, recompute("--bogus").exit());
  }

  /** Runs the recompute with {@code args}; its exit status and what it wrote to stderr. */
  private String[] recomputeStderr(String... args) throws Exception {
    PrintStream stderr = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    Result r;
    try {
      r = recompute(args);
    } finally {
      System.setErr(stderr);
    }
    String said = err.toString(StandardCharsets.UTF_8);
    stderr.print(said);
    return new String[] {Integer.toString(r.exit()), said};
  }

  /**
   * The two plain messages: a first batch still being written under its temporary name is "no
   * batches under … yet", and batches whose every record is rejected say "no page accepted" with
   * the counts and where the samples are, not Hadoop's missing input of the second job.
   */
  @Test
  void noBatchYetAndNoPageAcceptedSaySo() throws Exception {
    Path batches = Files.createDirectories(store.resolve("batches"));
    Path writing = Files.createDirectories(batches.resolve("_00000.tmp"));
    Files.writeString(writing.resolve("part-0.jsonl"), WorkedExample.jsonl());
    String[] early = recomputeStderr("--run", "early");
    assertEquals(Integer.toString(ExitStatus.USAGE), early[0], early[1]);
    assertTrue(
        early[1].contains(
            " yet: the first batch is still being written (_00000.tmp; its writer renames it to"
                + " 00000 once complete): run again when "),
        early[1]);
    assertTrue(new RunRegistry(connector(), prefix + "_meta").get("early").isEmpty());

    Files.delete(writing.resolve("part-0.jsonl"));
    Files.delete(writing);
    // three records, none a page: not JSON, a JSON array, an object without a url
    Files.writeString(batchDir(0).resolve("part-0.jsonl"), "not json\n[1, 2]\n{\"links\": []}\n");
    complete(0);
    String[] junk = recomputeStderr("--run", "junk");
    assertEquals(Integer.toString(ExitStatus.USAGE), junk[0], junk[1]);
    assertTrue(
        junk[1].contains("recompute: no page accepted: 3 records, 3 rejected (samples in "),
        junk[1]);
    assertFalse(junk[1].contains("matches 0 files"), junk[1]);
    String samples =
        junk[1].substring(junk[1].indexOf("(samples in ") + "(samples in ".length()).split(";")[0];
    assertTrue(samples.endsWith("/runs/junk/latest/rejects"), samples);
    // the samples are there, one line per rejected record
    long lines;
    try (java.util.stream.Stream<Path> files = Files.list(Path.of(URI.create(samples)))) {
      lines =
          files
              .filter(f -> f.getFileName().toString().startsWith("part"))
              .mapToLong(
                  f -> {
                    try {
                      return Files.readAllLines(f).size();
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .sum();
    }
    assertEquals(3, lines);
    RunRecord rec = rec("junk");
    assertEquals(RunRecord.Status.FAILED, rec.status());
    assertTrue(rec.message().startsWith("no page accepted: 3 records, 3 rejected"), rec.message());
    assertFalse(connector().tableOperations().exists(prefix + "_junk"));
  }
}
