package io.webindex.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import io.webindex.check.report.CheckReportJson;
import io.webindex.core.schema.CountCodec;
import io.webindex.store.JobSecrets;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Fault injection: each kind of damage is reported with the right kind, range and sample. */
class CheckIT extends CheckITBase {

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
}
