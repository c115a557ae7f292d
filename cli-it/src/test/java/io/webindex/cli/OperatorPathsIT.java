package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The operator's paths that a scheduler's retries make routine (issue "Reliability and security"):
 * a repeated cut-over to the run already served, fluo-init twice, a reconcile retried after it
 * stopped part-way, a reconcile back to an earlier run — each followed by new deltas, after which
 * the served table must equal a recompute of every batch, cell for cell, and the check must say so.
 * And the checks that must refuse before anything is changed.
 */
class OperatorPathsIT extends OperatorPathsBase {
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
    // ... and the application that maintained it is gone (re-initialised from r0x): the message
    // says what to do instead of sending the operator round in a circle
    assertTrue(
        reseed.err().contains("is gone") && reseed.err().contains("recompute a new run"),
        reseed.err());
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
    assertTrue(waiting.err().contains("start an oracle and workers"), waiting.err());
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

  /**
   * Issue 20's guards of an unattended cut-over: a cut-over that stalled while another switched
   * does not switch back; the retention keeps the application of the cut-over in progress; an
   * application is never (re)initialised under its running oracle and workers.
   */
  @Test
  void aStalledCutOverNeverSwitchesBackTheRetentionKeepsItAndWorkersBlockAReinit()
      throws Exception {
    setUp("stall", 40, "webindex.retention.runs=1");
    writeBatch(0, 40);
    ok("recompute", "--run", "a");
    ok("recompute", "--run", "b");
    ok("recompute", "--run", "c");
    RunRegistry runs = registry();
    RunRecord b = runs.get("b").orElseThrow();
    RunRecord runC = runs.get("c").orElseThrow();
    runs.serve(runs.get("a").orElseThrow(), "");

    // a cut-over to b takes the pointer's state at its start; a newer one switches to c meanwhile
    RunRegistry.ServedVersion atStart = runs.servedVersion();
    runs.serve(runC, "");
    assertTrue(runs.serveIfUnchanged(b, "appB", atStart).isEmpty(), "the stalled switch refused");
    assertEquals(runC.table(), runs.served().orElseThrow().table());
    // a decision taken on the current state does switch
    assertEquals(
        b.table(), runs.serveIfUnchanged(b, "appB", runs.servedVersion()).orElseThrow().table());
    runs.serve(runs.get("a").orElseThrow(), "");
    runs.serve(runC, ""); // served c, previously a: b's table is neither

    // an application created before the last switch, not served: expired, unless it is the
    // application of the cut-over in progress
    runs.putApp(
        new RunRegistry.FluoApp(
            "appB",
            "b",
            b.table(),
            1,
            RunRegistry.AppState.READY,
            java.time.Instant.now().minusSeconds(3600)));
    java.time.Instant now = java.time.Instant.now();
    assertTrue(
        runs.expired(1, java.time.Duration.ofDays(1), now).apps().stream()
            .anyMatch(x -> x.name().equals("appB")),
        "without a cut-over in progress the old application expires");
    runs.setCutoverTarget(new RunRegistry.CutoverTarget("appB", "b", b.table(), now));
    RunRegistry.Expired expired = runs.expired(1, java.time.Duration.ofDays(1), now);
    assertTrue(expired.apps().stream().noneMatch(x -> x.name().equals("appB")), expired.toString());
    assertTrue(expired.runs().stream().noneMatch(r -> r.runId().equals("b")), expired.toString());
    runs.clearCutoverTarget("appB");
    assertTrue(runs.cutoverTarget().isEmpty());
    runs.deleteApp("appB");

    // the configured application, initialised from a; its oracle and worker running (MiniFluo)
    ok("fluo-init", "--run", "a", "--force", "--embedded");
    io.webindex.core.config.WebindexConfig cfg =
        io.webindex.core.config.WebindexConfig.load(java.nio.file.Path.of(c), java.util.Map.of());
    try (io.webindex.fluo.FluoSession running =
        io.webindex.fluo.FluoSession.embedded(cfg, cfg.fluoApp(), 1)) {
      Run refused = status(2, "fluo-init", "--run", "b", "--force", "--embedded");
      assertTrue(refused.err().contains("cannot be initialised while"), refused.err());
      assertEquals(prefix + "_a", registry().served().orElseThrow().table(), "nothing changed");
    }
    ok("fluo-init", "--run", "b", "--force", "--embedded");
    assertEquals(prefix + "_b", registry().served().orElseThrow().table());
  }

  private static Void switchAfter(CyclicBarrier start, RunRegistry r, RunRecord run)
      throws Exception {
    start.await();
    r.serve(run, "");
    return null;
  }
}
