package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.schema.CountCodec;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.JobSecrets;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.oracle.DumpDiff;
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
import org.apache.accumulo.core.client.TableNotFoundException;
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
class RecomputeIT extends AccumuloITBase {
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
            tmp, prefix, "webindex.recompute.tablets=3", "webindex.rejects.samples.per.task=5");
  }

  Path batchDir(long seq) throws IOException {
    return Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", seq)));
  }

  static byte[] resource(String name) throws IOException {
    try (InputStream in = RecomputeIT.class.getResourceAsStream("/io/webindex/mr/" + name)) {
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

  @Test
  void workedExampleEqualsGoldenDump() throws Exception {
    Files.write(batchDir(0).resolve("part-0.jsonl"), resource("worked-example.jsonl"));
    Result r = recompute("--run", "r1");
    assertEquals(0, r.exit(), r.stdout());
    assertTrue(r.stdout().contains("run r1 SUCCEEDED"), r.stdout());
    List<String> golden =
        new String(resource("worked-example.tsv"), StandardCharsets.UTF_8).lines().toList();
    assertEquals(golden, dump(prefix + "_r1"));
    assertEquals(golden, Oracle.ofStore(store, 0).dump(), "the independent oracle agrees");
    RunRecord rec = new RunRegistry(connector(), prefix + "_meta").get("r1").orElseThrow();
    assertEquals(RunRecord.Status.SUCCEEDED, rec.status());
    assertEquals(0, rec.snapshot());
    assertEquals(3L, rec.counters().get("latest.CURRENT_PAGES"));
    // p: for 3 pages + um: for 5 seen URIs + dm: for 4 domains + the resume point
    assertEquals(13L, rec.counters().get("write.FLUO_SEED_ENTRIES"));
    assertTrue(
        Files.list(Path.of(URI.create(rec.seedDir()))).anyMatch(p -> p.toString().endsWith(".rf")));
  }

  @Test
  void randomizedWebWithMixedFormatsDeletionsStaleVersionsAndBadInput() throws Exception {
    RandomWeb web = new RandomWeb(2026, 300);
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
    // the WAT sample in batch 2: the oracle reads page JSON only, so snapshot 1 is its to check
    Files.createDirectories(batchDir(2).resolve("wat"));
    Files.write(batchDir(2).resolve("wat/sample.wat.warc"), resource("common-crawl-18.wat.warc"));
    Files.writeString(
        batchDir(2).resolve("bad.jsonl"),
        "{not json\n{\"url\":\"ftp://x.com/\"}\n\u0000\u0001garbage\n");
    Files.writeString(batchDir(2).resolve("_SUCCESS"), "");

    Result full = recompute("--run", "full");
    assertEquals(0, full.exit(), full.stdout());
    List<String> expected = DumpFormat.lines(reference(3).cells());
    assertTrue(expected.size() > 1000, "a web worth comparing: " + expected.size());
    assertEquals(expected, dump(prefix + "_full"));
    Path rejects = Path.of(URI.create(rec("full").workDir())).resolve("latest/rejects");
    assertTrue(
        Files.walk(rejects).anyMatch(f -> f.getFileName().toString().startsWith("part")),
        "rejects sampled");
    RunRecord rec = rec("full");
    assertEquals(3L, rec.counters().get("read.REJECTED"));
    assertTrue(rec.counters().get("latest.SUPERSEDED_VERSIONS") > 0);
    assertTrue(rec.counters().get("latest.CURRENT_DELETIONS") > 0);

    Result older = recompute("--run", "snap1", "--snapshot", "1");
    assertEquals(0, older.exit(), older.stdout());
    assertEquals(DumpFormat.lines(reference(1).cells()), dump(prefix + "_snap1"));
    Oracle oracle = Oracle.ofStore(store, 1);
    assertTrue(oracle.staleAcrossBatches() > 0, "batch 1 holds versions older than batch 0's");
    DumpDiff.assertSameLines(oracle.dump(), dump(prefix + "_snap1"), "snapshot 1 vs the oracle");
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
    Files.write(batchDir(0).resolve("part-0.jsonl"), resource("worked-example.jsonl"));
    List<Job> jobs = new ArrayList<>();
    int exit =
        ToolRunner.run(
            new Configuration(),
            new RecomputeTool(new PrintStream(new ByteArrayOutputStream())).beforeSubmit(jobs::add),
            new String[] {"--webindex-conf", conf.toString(), "--run", "pw"});
    assertEquals(0, exit);
    assertEquals(3, jobs.size());
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
    Files.write(batchDir(0).resolve("part-0.jsonl"), resource("worked-example.jsonl"));
    // the work directory lies below a regular file: the first job cannot write its output
    Path blocker = Files.writeString(tmp.resolve("blocker"), "");
    Result r = recompute("-D", "webindex.work.dir=" + blocker.toUri() + "/work", "--run", "broken");
    assertEquals(1, r.exit(), r.stdout());
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

    Files.write(batchDir(0).resolve("part-0.jsonl"), resource("worked-example.jsonl"));
    connector().tableOperations().create(prefix + "_taken");
    Result taken = recompute("--run", "taken");
    assertEquals(RecomputeTool.USAGE, taken.exit());
    assertEquals(List.of(), dump(prefix + "_taken"), "an existing table is never written");

    assertEquals(RecomputeTool.USAGE, recompute("--snapshot", "x").exit());
    assertEquals(RecomputeTool.USAGE, recompute("--bogus").exit());
  }

  /** The table in the dump format (what every printer of a table writes). */
  List<String> dump(String table) throws TableNotFoundException {
    List<String> out = new ArrayList<>();
    for (Map.Entry<Key, Value> e : connector().createScanner(table, Authorizations.EMPTY)) {
      Key k = e.getKey();
      out.add(
          DumpFormat.line(
              k.getRow().toString(),
              k.getColumnFamily().toString(),
              k.getColumnQualifier().toString(),
              e.getValue().toString()));
    }
    return out;
  }
}
