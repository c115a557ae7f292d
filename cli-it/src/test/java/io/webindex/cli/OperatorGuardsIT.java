package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.files.LocalFiles;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.HangGuard;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The operator's guards and long-running paths: every check that must refuse before anything
 * changes, retention by time, a watching loader beside a cut-over and a recompute, and a loader
 * process killed in the middle of a batch (the served table must then equal a recompute, cell for
 * cell). The shared set-up is in {@link OperatorPathsBase}.
 */
class OperatorGuardsIT extends OperatorPathsBase {
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
    LocalFiles.deleteRecursively(
        Path.of(new org.apache.hadoop.fs.Path(r0b.seedDir()).toUri().getPath()));
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
    LocalFiles.deleteRecursively(store.resolve("batches/1"));

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
            16,
            io.webindex.core.Version.current().webindex()));
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

  @Test
  void aLoaderProcessKilledInTheMiddleOfABatchResumesExactly() throws Exception {
    // the killed loader's oracle keeps its leadership until its ZooKeeper session ends: 5 s
    // instead of Fluo's 30, so that the restart below does not wait half a minute for it
    setUp("kill", 150, "fluo.connection.zookeeper.timeout=5000");
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
      long until = System.currentTimeMillis() + HangGuard.SLOW_SUITE.toMillis();
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

  /** Waits until a recompute of batches 0..b equals {@code table} (the watcher applied b). */
  private void awaitApplied(long b, String table) throws InterruptedException {
    String truth = "w" + b + "_" + table.replaceAll("[^A-Za-z0-9]", "");
    ok("recompute", "--run", truth, "--snapshot", Long.toString(b));
    String expected = ok("dump", "--table", prefix + "_" + truth).out();
    long until = System.currentTimeMillis() + HangGuard.SLOW_SUITE.toMillis();
    while (!ok("dump", "--table", table).out().equals(expected)) {
      assertTrue(System.currentTimeMillis() < until, "batch " + b + " never reached " + table);
      Thread.sleep(500);
    }
  }
}
