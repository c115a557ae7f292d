package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's paths that a scheduler's retries make routine (issue "Reliability and security"):
 * a repeated cut-over to the run already served, fluo-init twice, a reconcile retried after it
 * stopped part-way, a reconcile back to an earlier run — each followed by new deltas, after which
 * the served table must equal a recompute of every batch, cell for cell, and the check must say so.
 * And the checks that must refuse before anything is changed.
 */
class OperatorPathsIT extends AccumuloITBase {
  @TempDir Path tmp;

  private Path store;
  private String c;
  private String prefix;
  private RandomWeb web;

  private void setUp(String hint, int pages, String... extraConf) {
    store = tmp.resolve("store");
    prefix = newTableName(hint);
    c = writeWebindexConf(tmp, prefix, extraConf).toString();
    web = new RandomWeb(hint.hashCode(), pages);
  }

  private void writeBatch(long b, int pages) throws IOException {
    Path dir = Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", b)));
    for (Map.Entry<String, String> f : web.batchFiles(b, pages, 2).entrySet()) {
      Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }
  }

  private Run ok(String... args) {
    Run r = Run.of(tmp, withConf(args));
    assertEquals(0, r.status(), String.join(" ", args) + ": " + r);
    return r;
  }

  private Run status(int expected, String... args) {
    Run r = Run.of(tmp, withConf(args));
    assertEquals(expected, r.status(), String.join(" ", args) + ": " + r);
    return r;
  }

  private String[] withConf(String... args) {
    String[] out = new String[args.length + 2];
    out[0] = args[0];
    out[1] = "--conf";
    out[2] = c;
    System.arraycopy(args, 1, out, 3, args.length - 1);
    return out;
  }

  private Path workDir() {
    String w = WebindexConfig.load(Path.of(c), Map.of()).workDir();
    return Path.of(java.net.URI.create(w.startsWith("file:") ? w : "file://" + w));
  }

  private RunRegistry registry() {
    return new RunRegistry(connector(), prefix + "_meta");
  }

  /**
   * The served table equals a fresh recompute of every batch (dump, cell for cell), and the check
   * of the two says CONSISTENT.
   */
  private void assertServedIsTheTruth(String truthRun, long snapshot) {
    ok("recompute", "--run", truthRun, "--snapshot", Long.toString(snapshot));
    String served = registry().served().orElseThrow().table();
    assertEquals(
        ok("dump", "--table", prefix + "_" + truthRun).out(),
        ok("dump", "--table", served).out(),
        "the served table " + served + " vs a recompute of batches 0.." + snapshot);
    Run check =
        ok(
            "check",
            "--run",
            truthRun,
            "--actual",
            served,
            "--out",
            tmp.resolve("check-" + truthRun).toString());
    assertTrue(check.out().contains("CONSISTENT"), check.toString());
  }

  @Test
  void reconcileToTheRunAlreadyServedThenNewDeltas() throws Exception {
    // the reported case: 250 pages, four deltas, a reconcile to the run already served
    setUp("again", 250);
    writeBatch(0, 250);
    ok("recompute", "--run", "r0");
    ok("fluo-init", "--run", "r0");
    for (long b = 1; b <= 3; b++) {
      writeBatch(b, 60);
    }
    ok("load", "--embedded");
    Run rec = ok("reconcile", "--run", "r0", "--embedded");
    assertTrue(rec.out().contains("already served"), rec.out());
    assertTrue(rec.out().contains("(resumed"), rec.out());
    writeBatch(4, 60);
    Run load = ok("load", "--embedded");
    assertTrue(load.out().contains("applied batches 4..4"), load.out());
    ok("recompute", "--run", "r4");
    Run check =
        ok(
            "check",
            "--run",
            "r4",
            "--actual",
            prefix + "_r0",
            "--applied",
            "4",
            "--out",
            tmp.resolve("check").toString());
    assertTrue(check.out().contains("CONSISTENT"), check.out());
    assertEquals(ok("dump", "--table", prefix + "_r4").out(), ok("dump").out());
  }

  @Test
  void fluoInitTwiceResumesAndAnotherRunNeedsForce() throws Exception {
    setUp("twice", 150);
    writeBatch(0, 150);
    ok("recompute", "--run", "r0");
    ok("recompute", "--run", "r0x");
    ok("fluo-init", "--run", "r0");
    Run again = ok("fluo-init", "--run", "r0");
    assertTrue(again.out().contains("resumed from run r0"), again.out());
    Run refused = status(2, "fluo-init", "--run", "r0x");
    assertTrue(refused.err().contains("--force"), refused.err());
    assertEquals(prefix + "_r0", registry().served().orElseThrow().table());
    writeBatch(1, 50);
    ok("load", "--embedded");
    assertServedIsTheTruth("t1", 1);

    // --force starts the configured application afresh from r0x, catching up batch 1 first
    Run forced = ok("fluo-init", "--run", "r0x", "--force", "--embedded");
    assertTrue(forced.out().contains("Fluo caught up to batch 1 before the switch"), forced.out());
    assertEquals(prefix + "_r0x", registry().served().orElseThrow().table());
    writeBatch(2, 50);
    ok("load", "--embedded");
    assertServedIsTheTruth("t2", 2);
    // r0's table was maintained by an application: it can never be seeded again
    Run reseed = status(2, "fluo-init", "--run", "r0", "--force", "--embedded");
    assertTrue(reseed.err().contains("already maintained"), reseed.err());
    assertEquals(prefix + "_r0x", registry().served().orElseThrow().table());
  }

  @Test
  void reconcileRetriedAfterItStoppedAndBackToAnEarlierRun() throws Exception {
    setUp("retry", 150, "webindex.retention.runs=5");
    writeBatch(0, 150);
    ok("recompute", "--run", "r0");
    ok("fluo-init", "--run", "r0");
    writeBatch(1, 50);
    ok("load", "--embedded");
    ok("recompute", "--run", "r1");
    writeBatch(2, 50);
    // without --embedded and with no worker running, the cut-over stops before the switch and
    // says what to start
    Run waiting = status(3, "reconcile", "--run", "r1", "--wait", "1");
    assertTrue(waiting.err().contains("start its oracle and workers"), waiting.err());
    assertEquals(prefix + "_r0", registry().served().orElseThrow().table());
    // the retry resumes the application the first attempt initialised
    Run retry = ok("reconcile", "--run", "r1", "--embedded");
    assertTrue(retry.out().contains(prefix + "_r1 (resumed"), retry.out());
    assertTrue(retry.out().contains("caught up to batch 2"), retry.out());
    assertEquals(prefix + "_r1", registry().served().orElseThrow().table());
    writeBatch(3, 50);
    Run load = ok("load", "--embedded");
    assertTrue(load.out().contains("applied batches 3..3"), load.out());
    assertServedIsTheTruth("t3", 3);

    // back to r0: its application still exists and is resumed from where it stopped (batch 1)
    Run back = ok("reconcile", "--run", "r0", "--embedded");
    assertTrue(
        back.out().contains("served table: " + prefix + "_r0 (run r0, Fluo caught up to batch 3)"),
        back.out());
    assertTrue(back.out().contains("(resumed"), back.out());
    writeBatch(4, 50);
    ok("load", "--embedded");
    assertServedIsTheTruth("t4", 4);
  }

  @Test
  void everyCheckRefusesBeforeAnythingChanges() throws Exception {
    setUp("checks", 80);
    writeBatch(0, 80);
    ok("recompute", "--run", "r0");
    ok("recompute", "--run", "r0b");
    // a configuration whose bucket count differs from the one the seed was laid out with
    Path other = tmp.resolve("other");
    Files.createDirectories(other);
    String otherConf = writeWebindexConf(other, prefix, "webindex.fluo.buckets=7").toString();
    Run buckets = Run.of(tmp, "fluo-init", "--conf", otherConf, "--run", "r0");
    assertEquals(2, buckets.status(), buckets.toString());
    assertTrue(buckets.err().contains("7") && buckets.err().contains("buckets"), buckets.err());
    assertTrue(registry().served().isEmpty(), "nothing served");
    assertTrue(registry().apps().isEmpty(), "no application started");

    // a run whose seed is gone
    RunRecord r0b = registry().get("r0b").orElseThrow();
    deleteRecursively(Path.of(new org.apache.hadoop.fs.Path(r0b.seedDir()).toUri().getPath()));
    Run seed = status(2, "fluo-init", "--run", "r0b");
    assertTrue(seed.err().contains("seed of run r0b is missing"), seed.err());
    assertTrue(registry().served().isEmpty(), "nothing served");
    assertFalse(
        connector().tableOperations().exists(prefix + "_fluo"), "no Fluo table was created");

    // two directories for one batch number
    ok("fluo-init", "--run", "r0");
    writeBatch(1, 30);
    Files.createDirectories(store.resolve("batches/1"));
    Files.writeString(store.resolve("batches/1/more.jsonl"), "");
    Run twoNames = status(2, "load", "--embedded");
    assertTrue(twoNames.err().contains("batch 1 has two directories"), twoNames.err());
    deleteRecursively(store.resolve("batches/1"));

    // a batch still being copied waits, with every batch after it
    writeBatch(2, 30);
    writeBatch(3, 30);
    Path copying = store.resolve("batches/00002/late.jsonl._COPYING_");
    Files.writeString(copying, "{\"url\":\"http://half");
    Run partial = ok("load", "--embedded");
    assertTrue(partial.out().contains("applied batches 1..1"), partial.out());
    Files.move(copying, store.resolve("batches/00002/late.jsonl"));
    Files.writeString(store.resolve("batches/00002/late.jsonl"), "");
    Files.writeString(
        store.resolve("batches/00003/bad.jsonl"), "{\"url\": \"http://a.com/x\", \"crawled\": \n");
    Run rest = ok("load", "--embedded");
    assertTrue(rest.out().contains("applied batches 2..3"), rest.out());
    assertTrue(rest.out().contains(", 1 rejected,"), rest.out());
    // the loader samples its rejects with the reason, like the batch jobs
    String sample = Files.readString(workDir().resolve("load/00003/rejects"));
    assertTrue(sample.startsWith("bad.jsonl\t0\t"), sample);
    assertEquals(1, sample.lines().count(), sample);
    assertServedIsTheTruth("t3", 3);
  }

  @Test
  void retentionGoesByTimeAndDropsAbandonedRunsAndOldApplications() throws Exception {
    setUp("keep", 60, "webindex.retention.runs=1");
    writeBatch(0, 60);
    // ids that do not sort by time: r9 is the oldest
    ok("recompute", "--run", "r9");
    ok("recompute", "--run", "r10");
    ok("recompute", "--run", "r11");
    RunRegistry runs = registry();
    // a run whose process was killed two days ago, with its half-made table and work dir
    Path killedDir = Files.createDirectories(tmp.resolve("killed-work"));
    connector().tableOperations().create(prefix + "_dead");
    runs.put(
        new RunRecord(
            "dead",
            RunRecord.Status.RUNNING,
            0,
            prefix + "_dead",
            Instant.now().minus(Duration.ofDays(2)),
            null,
            List.of(),
            Map.of(),
            "",
            killedDir.toUri().toString(),
            "",
            16));
    ok("fluo-init", "--run", "r9");
    ok("reconcile", "--run", "r10", "--embedded");
    Run last = ok("reconcile", "--run", "r11", "--embedded");
    // served r11, previous r10 (and their applications) stay; r9 and its application go
    assertTrue(last.out().contains("dropped"), last.out());
    assertFalse(connector().tableOperations().exists(prefix + "_r9"), last.out());
    assertFalse(connector().tableOperations().exists(prefix + "_fluo"), "r9's application");
    assertTrue(connector().tableOperations().exists(prefix + "_r10"));
    assertTrue(connector().tableOperations().exists(prefix + "_fluo_" + prefix + "_r10"));
    assertTrue(connector().tableOperations().exists(prefix + "_r11"));
    assertEquals(RunRecord.Status.DROPPED, runs.get("r9").orElseThrow().status());
    RunRecord r9 = runs.get("r9").orElseThrow();
    assertFalse(
        Files.exists(Path.of(new org.apache.hadoop.fs.Path(r9.workDir()).toUri().getPath())),
        "r9's work dir with its seed");
    assertFalse(connector().tableOperations().exists(prefix + "_dead"));
    assertFalse(Files.exists(killedDir));
    assertEquals(RunRecord.Status.DROPPED, runs.get("dead").orElseThrow().status());
    assertTrue(runs.get("dead").orElseThrow().message().contains("abandoned"));
  }

  @Test
  void concurrentSwitchesNeverLoseThePreviousPointer() throws Exception {
    setUp("cas", 30);
    writeBatch(0, 30);
    ok("recompute", "--run", "a");
    ok("recompute", "--run", "b");
    RunRegistry runs = registry();
    RunRecord a = runs.get("a").orElseThrow();
    RunRecord b = runs.get("b").orElseThrow();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 30; round++) {
        runs.serve(round % 2 == 0 ? a : b, "");
        CyclicBarrier start = new CyclicBarrier(2);
        RunRegistry ra = new RunRegistry(connector(), prefix + "_meta");
        RunRegistry rb = new RunRegistry(connector(), prefix + "_meta");
        Future<?> fa = pool.submit(() -> switchAfter(start, ra, a));
        Future<?> fb = pool.submit(() -> switchAfter(start, rb, b));
        fa.get();
        fb.get();
        RunRegistry.Served s = runs.served().orElseThrow();
        // in either order the last switch's previous is what the first one served
        String other = s.table().equals(a.table()) ? b.table() : a.table();
        assertEquals(other, s.previousTable(), "round " + round + ": " + s);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void loadWatchFollowsACutOverAndRunsBesideARecompute() throws Exception {
    setUp("watch", 120);
    writeBatch(0, 120);
    ok("recompute", "--run", "r0");
    ok("fluo-init", "--run", "r0");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Cli watchCtx = new Cli(tmp, out, err);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> watcher =
          pool.submit(
              () -> Main.run(List.of("load", "--conf", c, "--embedded", "--watch", "1"), watchCtx));
      writeBatch(1, 40);
      awaitApplied(1, prefix + "_r0");
      // a recompute while the loader runs, then a cut-over to it: the loader follows
      ok("recompute", "--run", "r1");
      ok("reconcile", "--run", "r1", "--embedded");
      writeBatch(2, 40);
      awaitApplied(2, prefix + "_r1");
      watchCtx.requestStop();
      assertEquals(0, (int) watcher.get(), err.toString());
      String log = err.toString(java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(log.contains("now maintained by Fluo application " + prefix + "_r1"), log);
    } finally {
      watchCtx.requestStop();
      pool.shutdown();
    }
    assertServedIsTheTruth("t2", 2);
  }

  /** Waits until a recompute of batches 0..b equals {@code table} (the watcher applied b). */
  private void awaitApplied(long b, String table) throws InterruptedException {
    String truth = "w" + b + "_" + table.replaceAll("[^A-Za-z0-9]", "");
    ok("recompute", "--run", truth, "--snapshot", Long.toString(b));
    String expected = ok("dump", "--table", prefix + "_" + truth).out();
    long until = System.currentTimeMillis() + 90_000;
    while (!ok("dump", "--table", table).out().equals(expected)) {
      assertTrue(System.currentTimeMillis() < until, "batch " + b + " never reached " + table);
      Thread.sleep(500);
    }
  }

  @Test
  void aLoaderProcessKilledInTheMiddleOfABatchResumesExactly() throws Exception {
    setUp("kill", 150);
    writeBatch(0, 150);
    ok("recompute", "--run", "r0");
    ok("fluo-init", "--run", "r0");
    writeBatch(1, 400);
    // a separate JVM loads slowly (its own MiniFluo: oracle and workers) and is killed with
    // SIGKILL once it reports progress inside batch 1
    Path log = tmp.resolve("killed-load.log");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "io.webindex.cli.Main",
                "load",
                "--conf",
                c,
                "--embedded",
                "--rate",
                "40")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      long until = System.currentTimeMillis() + 120_000;
      while (!(Files.exists(log) && Files.readString(log).contains("load: batch 1:"))) {
        assertTrue(p.isAlive(), "the loader ended early: " + Files.readString(log));
        assertTrue(System.currentTimeMillis() < until, "no progress: " + Files.readString(log));
        Thread.sleep(200);
      }
    } finally {
      p.destroyForcibly().waitFor();
    }
    assertTrue(Files.readString(log).contains("load: batch 1:"));
    // the restart resumes at batch 1 (not recorded), and nothing is lost or counted twice
    Run rest = ok("load", "--embedded");
    assertTrue(rest.out().contains("applied batches 1..1"), rest.out());
    assertServedIsTheTruth("t1", 1);
  }

  private static Void switchAfter(CyclicBarrier start, RunRegistry r, RunRecord run)
      throws Exception {
    start.await();
    r.serve(run, "");
    return null;
  }

  private static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var s = Files.walk(p)) {
      for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
