package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.exit.ExitStatus;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.mapreduce.Jobs;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.oracle.Oracle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code recompute} under faults, on MiniAccumulo and the local job runner: a run that fails in any
 * of its three jobs or in the bulk import leaves the served table and every other run record as
 * they were, leaves no table of its own, is recorded FAILED with the failed task's exception, and a
 * rerun with the same id and input succeeds with the expected table; a killed run is refused until
 * restarted; a batch applied twice changes nothing.
 *
 * <p>The faults. {@code latest}: a real one — a Unix domain socket in a batch directory, which the
 * file system lists as a file but nobody can open, so the map task reading it fails (permissions
 * cannot make a file unreadable here: the tests run as root in the build containers). {@code uris},
 * {@code write}: the test-only property {@code webindex.mr.test.fault=<stage>} ({@link
 * Jobs#TEST_FAULT}) makes reduce task 0 of that job fail after it wrote its output. {@code import}:
 * {@code webindex.mr.test.fault=import} takes the fresh table offline just before the bulk import,
 * and Accumulo refuses the import.
 */
@SharedCluster
@Timeout(value = 9, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecomputeFaultIT extends AccumuloITBase {
  /** One store and one served run for the fault cases; each case adds its own run. */
  @TempDir static Path shared;

  static String sharedPrefix;
  static Path sharedConf;

  @TempDir Path tmp;

  record Result(int exit, String stdout, String stderr) {}

  static Result recompute(Path conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>();
    List<String> rest = new ArrayList<>(List.of(args));
    while (rest.size() >= 2 && rest.get(0).equals("-D")) {
      all.addAll(rest.subList(0, 2));
      rest = new ArrayList<>(rest.subList(2, rest.size()));
    }
    all.addAll(List.of("--webindex-conf", conf.toString()));
    all.addAll(rest);
    PrintStream stderr = System.err;
    int exit;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      exit =
          ToolRunner.run(
              new Configuration(),
              new RecomputeTool(new PrintStream(out, true, StandardCharsets.UTF_8)),
              all.toArray(new String[0]));
    } finally {
      System.setErr(stderr);
    }
    String e = err.toString(StandardCharsets.UTF_8);
    stderr.print(e);
    return new Result(exit, out.toString(StandardCharsets.UTF_8), e);
  }

  static void writeWeb(Path store, long seed, int urls, int batches) throws IOException {
    RandomWeb web = new RandomWeb(seed, urls);
    for (long b = 0; b < batches; b++) {
      Path dir = batchDir(store, b);
      for (Map.Entry<String, String> f : web.batchFiles(b, urls * 2 / 3, 2).entrySet()) {
        Files.writeString(dir.resolve(f.getKey()), f.getValue());
      }
      LocalBatches.markComplete(dir);
    }
  }

  private static boolean isPageFile(Path f) {
    return BatchLayout.isPageFileName(f.getFileName().toString());
  }

  static Path batchDir(Path store, long seq) throws IOException {
    return Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", seq)));
  }

  static Optional<RunRecord> rec(String prefix, String run) {
    return new RunRegistry(connector(), prefix + "_meta").get(run);
  }

  /** The reference table of the store, which the independent oracle confirms. */
  static List<String> expected(Path store, long snapshot) throws IOException {
    List<String> ref = DumpFormat.lines(References.of(store.toUri().toString(), snapshot).cells());
    assertEquals(Oracle.ofStore(store, snapshot).dump(), ref, "reference vs independent oracle");
    return ref;
  }

  /** Every entry of the metadata table but the rows of {@code run}, timestamps included. */
  static SortedMap<Key, Value> metaExcept(String prefix, String run) throws Exception {
    SortedMap<Key, Value> m = new TreeMap<>();
    try (Scanner s = connector().createScanner(prefix + "_meta", Authorizations.EMPTY)) {
      for (Map.Entry<Key, Value> e : s) {
        if (!e.getKey().getRow().toString().equals("run:" + run)) {
          m.put(e.getKey(), e.getValue());
        }
      }
    }
    return m;
  }

  /** The shared store (two batches of a small random web) and its served run {@code served}. */
  static synchronized void servedBaseline() throws Exception {
    if (sharedPrefix != null) {
      return;
    }
    String prefix = newClassTableName("fault");
    Path conf = writeWebindexConf(shared, prefix, "webindex.recompute.tablets=2");
    writeWeb(shared.resolve("store"), 17, 90, 2);
    Result served = recompute(conf, "--run", "served");
    assertEquals(0, served.exit(), served.stderr());
    RunRegistry runs = new RunRegistry(connector(), prefix + "_meta");
    runs.serve(runs.get("served").orElseThrow());
    sharedPrefix = prefix;
    sharedConf = conf;
  }

  @ParameterizedTest(name = "a fault in {0}")
  @ValueSource(strings = {"latest", "latest_sort", "uris", "uris_shuffle", "write", "import"})
  void aFailedRunTouchesNothingElseIsRecordedWithItsCauseAndARerunSucceeds(String stage)
      throws Exception {
    servedBaseline();
    String prefix = sharedPrefix;
    Path store = shared.resolve("store");
    String run = "f_" + stage;
    String table = prefix + "_" + run;
    List<String> truth = expected(store, 1);
    SortedMap<Key, Value> metaBefore = metaExcept(prefix, run);
    List<String> servedBefore = dumpTable(prefix + "_served");

    List<String> args = new ArrayList<>();
    Path socket = batchDir(store, 1).resolve("jammed.sock");
    ServerSocketChannel jam = null;
    String cause;
    if (stage.equals("latest")) {
      // a batch entry the file system lists as a file but that cannot be opened
      assertTrue(socket.toString().length() < 100, "a Unix socket path fits: " + socket);
      jam = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      jam.bind(UnixDomainSocketAddress.of(socket));
      cause = "jammed.sock";
    } else {
      args.addAll(List.of("-D", Jobs.TEST_FAULT + "=" + stage));
      cause = stage.equals("import") ? "offline" : "injected fault";
    }
    args.addAll(List.of("--run", run));
    Result failed;
    try {
      failed = recompute(sharedConf, args.toArray(new String[0]));
    } finally {
      if (jam != null) {
        jam.close();
      }
    }
    assertEquals(ExitStatus.INTERNAL, failed.exit(), failed.stderr());
    RunRecord r = rec(prefix, run).orElseThrow();
    assertEquals(RunRecord.Status.FAILED, r.status());
    assertTrue(r.message().contains(cause), "the record says why: " + r.message());
    if (!stage.equals("import")) {
      assertTrue(r.message().contains("task attempt_"), "the failed task's own exception: " + r);
    }
    assertFalse(r.message().matches(".*(:\\s*NA)\\b.*"), r.message());
    assertTrue(failed.stderr().contains("FAILED: "), failed.stderr());
    assertFalse(connector().tableOperations().exists(table), "the half-made table is dropped");
    assertFalse(connector().tableOperations().exists(table + "_history"), "and its history");
    assertFalse(connector().tableOperations().exists(table + "_frontier"), "and its frontier");
    assertEquals(
        metaBefore, metaExcept(prefix, run), "the served pointer and other runs as before");
    assertEquals(servedBefore, dumpTable(prefix + "_served"));

    // the fault removed, the same command again
    Files.deleteIfExists(socket);
    Result rerun = recompute(sharedConf, "--run", run);
    assertEquals(0, rerun.exit(), rerun.stderr());
    assertTrue(rerun.stdout().contains("cleaning up the failed attempt"), rerun.stdout());
    assertEquals(RunRecord.Status.SUCCEEDED, rec(prefix, run).orElseThrow().status());
    assertEquals(truth, dumpTable(table));
    assertEquals(metaBefore, metaExcept(prefix, run));
  }

  /**
   * A recompute process killed with SIGKILL mid-run leaves its record RUNNING, its work directory
   * and (killed during the import) its table. The same command is refused, with what to do; with
   * {@code --restart} it cleans up and succeeds.
   */
  @Test
  void aKilledRunIsRefusedUntilRestartedThenSucceeds() throws Exception {
    String prefix = newTableName("killed");
    Path conf = writeWebindexConf(tmp, prefix, "webindex.recompute.tablets=2");
    Path store = tmp.resolve("store");
    writeWeb(store, 23, 90, 2);
    List<String> truth = expected(store, 1);

    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                RecomputeTool.class.getName(),
                "--webindex-conf",
                conf.toString(),
                "--run",
                "k")
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("killed-recompute.log").toFile())
            .start();
    Path runDir = tmp.resolve("work").resolve("runs").resolve("k");
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    try {
      while (!(rec(prefix, "k").isPresent() && Files.exists(runDir))) {
        assertTrue(p.isAlive(), "the recompute ended early: " + log(tmp));
        assertTrue(Instant.now().isBefore(deadline), "the recompute never started: " + log(tmp));
        Thread.sleep(10);
      }
    } finally {
      p.destroyForcibly(); // SIGKILL: no cleanup of any kind runs
      p.waitFor(30, TimeUnit.SECONDS);
    }
    assertEquals(RunRecord.Status.RUNNING, rec(prefix, "k").orElseThrow().status(), log(tmp));
    assertTrue(rec(prefix, "k").orElseThrow().message().startsWith("running: pid " + p.pid()));
    // as if it had been killed during the bulk import: its tables are left too
    connector().tableOperations().create(prefix + "_k");
    connector().tableOperations().create(prefix + "_k_frontier");

    Result refused = recompute(conf, "--run", "k");
    assertEquals(RecomputeTool.USAGE, refused.exit());
    assertTrue(refused.stderr().contains("RUNNING"), refused.stderr());
    assertTrue(refused.stderr().contains("--restart"), refused.stderr());
    assertFalse(refused.stderr().contains("\tat "), "no stack trace: " + refused.stderr());
    assertEquals(RunRecord.Status.RUNNING, rec(prefix, "k").orElseThrow().status());
    assertTrue(connector().tableOperations().exists(prefix + "_k"), "nothing touched");
    assertTrue(Files.exists(runDir), "nothing touched");

    Result restarted = recompute(conf, "--run", "k", "--restart");
    assertEquals(0, restarted.exit(), restarted.stderr());
    assertTrue(restarted.stdout().contains("cleaning up the interrupted attempt"));
    assertTrue(connector().tableOperations().exists(prefix + "_k_frontier"), "made afresh");
    assertEquals(RunRecord.Status.SUCCEEDED, rec(prefix, "k").orElseThrow().status());
    assertEquals(truth, dumpTable(prefix + "_k"));

    Result again = recompute(conf, "--run", "k", "--restart");
    assertEquals(RecomputeTool.USAGE, again.exit(), "a succeeded run is never redone");
    assertTrue(again.stderr().contains("succeeded already"), again.stderr());
    assertEquals(truth, dumpTable(prefix + "_k"));
  }

  private static String log(Path dir) {
    try {
      return Files.readString(dir.resolve("killed-recompute.log"));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /**
   * A batch delivered twice (a writer's retry: batch 3 a copy of batch 2, and one file of batch 1
   * copied under a second name) gives the same table as the batches delivered once.
   */
  @Test
  void aBatchAppliedTwiceGivesTheSameTable() throws Exception {
    String prefix = newTableName("twice");
    Path conf = writeWebindexConf(tmp, prefix, "webindex.recompute.tablets=2");
    Path store = tmp.resolve("store");
    writeWeb(store, 29, 90, 3);
    List<String> truth = expected(store, 2);
    assertEquals(0, recompute(conf, "--run", "once").exit());
    assertEquals(truth, dumpTable(prefix + "_once"));

    Path b2 = batchDir(store, 2);
    Path b3 = batchDir(store, 3);
    try (Stream<Path> files = Files.list(b2)) {
      for (Path f : files.filter(RecomputeFaultIT::isPageFile).toList()) {
        Files.copy(f, b3.resolve(f.getFileName()));
      }
    }
    LocalBatches.markComplete(b3);
    Path b1 = batchDir(store, 1);
    Path first;
    try (Stream<Path> files = Files.list(b1)) {
      first = files.filter(RecomputeFaultIT::isPageFile).sorted().findFirst().orElseThrow();
    }
    Files.copy(first, b1.resolve("retry-" + first.getFileName()));

    Result twice = recompute(conf, "--run", "twice");
    assertEquals(0, twice.exit(), twice.stderr());
    assertEquals(3, rec(prefix, "twice").orElseThrow().snapshot());
    assertTrue(
        rec(prefix, "twice").orElseThrow().counters().get("latest.SUPERSEDED_VERSIONS")
            > rec(prefix, "once").orElseThrow().counters().get("latest.SUPERSEDED_VERSIONS"),
        "the copies were read");
    assertEquals(dumpTable(prefix + "_once"), dumpTable(prefix + "_twice"));
  }

  /**
   * A snapshot never skips a batch: {@code --snapshot S} over a missing batch (batch 2 renamed into
   * place before batch 1) or over one without its _SUCCESS marker (batch 1 being copied) is refused
   * before anything is made, and the default snapshot is the last batch before the first one that
   * waits, which it names.
   */
  @Test
  void aSnapshotNeverSkipsAMissingOrIncompleteBatch() throws Exception {
    String prefix = newTableName("gap");
    Path conf = writeWebindexConf(tmp, prefix, "webindex.recompute.tablets=2");
    Path store = tmp.resolve("store");
    writeWeb(store, 41, 60, 1);
    Path b2 = batchDir(store, 2);
    Files.writeString(
        b2.resolve("late.jsonl"),
        "{\"url\":\"http://late.example.com/\",\"crawled\":\"2026-02-01T00:00:00Z\"}\n");
    LocalBatches.markComplete(b2);
    String batches = "file:" + store.resolve("batches");

    Result gap = recompute(conf, "--run", "gap", "--snapshot", "2");
    assertEquals(RecomputeTool.USAGE, gap.exit(), gap.stderr());
    assertTrue(
        gap.stderr()
            .startsWith(
                "recompute: snapshot 2 needs every batch from 0 to 2, complete: batch 1 is missing:"
                    + " batches are read in order of their numbers, from 0 and without gaps, and "
                    + batches
                    + " holds batch 2 but no batch 1, so that one waits for it"),
        gap.stderr());

    Path b1 = batchDir(store, 1); // being copied: its file is there, its marker not yet
    Files.writeString(
        b1.resolve("part-0.jsonl"),
        "{\"url\":\"http://copied.example.com/\",\"crawled\":\"2026-01-15T00:00:00Z\"}\n");
    Result unmarked = recompute(conf, "--run", "unmarked", "--snapshot", "1");
    assertEquals(RecomputeTool.USAGE, unmarked.exit(), unmarked.stderr());
    assertTrue(
        unmarked
            .stderr()
            .startsWith(
                "recompute: snapshot 1 needs every batch from 0 to 1, complete: batch 1 is not"
                    + " complete yet: "
                    + batches
                    + "/00001 has no _SUCCESS marker"),
        unmarked.stderr());
    assertTrue(rec(prefix, "gap").isEmpty() && rec(prefix, "unmarked").isEmpty(), "no run");
    assertFalse(connector().tableOperations().exists(prefix + "_gap"));
    assertFalse(connector().tableOperations().exists(prefix + "_unmarked"));

    Result dflt = recompute(conf, "--run", "dflt");
    assertEquals(0, dflt.exit(), dflt.stderr());
    assertTrue(
        dflt.stderr().contains("recompute: snapshot 0: batch 1 is not complete yet: "),
        dflt.stderr());
    RunRecord r = rec(prefix, "dflt").orElseThrow();
    assertEquals(0, r.snapshot());
    assertEquals(List.of(batches + "/00000"), r.inputs());
    assertEquals(expected(store, 0), dumpTable(prefix + "_dflt"));
  }
}
