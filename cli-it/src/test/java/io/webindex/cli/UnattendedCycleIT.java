package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.synth.RandomWeb;
import io.webindex.fluo.Cutover;
import io.webindex.fluo.FluoSession;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.Cells;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cycle as a scheduler runs it, beside services nobody restarts: two oracles (one stands by)
 * and two workers started once without {@code --app}, {@code load --watch} running all along,
 * batches arriving; then cycles of {@code recompute --snapshot S} (after the loader passed S),
 * {@code check --served} and {@code reconcile} without {@code --embedded}. Every check must be
 * CONSISTENT at the first try and every reconcile must complete (exit 0) with the running services;
 * a worker killed in the middle of a cut-over must not stop it; the last check, with every batch
 * applied, must be CONSISTENT; and a real inconsistency injected while the loader runs must still
 * be found. The truth each check compares with is an independent batch recompute of the same
 * batches.
 */
@SharedCluster
class UnattendedCycleIT extends AccumuloITBase {
  private static final Duration WAIT = Duration.ofSeconds(180);

  @TempDir Path tmp;

  private String c;
  private WebindexConfig cfg;
  private RandomWeb web;
  private String prefix;

  @Test
  void servicesFollowEveryCutOverAndEveryScheduledCheckIsConsistent() throws Exception {
    prefix = newTableName("un");
    Path conf =
        writeWebindexConf(
            tmp,
            prefix,
            WebindexConfig.FLUO_BUCKETS + "=4",
            WebindexConfig.RETENTION_RUNS + "=3",
            // the worker killed below keeps its share of the notifications until its ZooKeeper
            // session ends: 8 s instead of Fluo's 30
            "fluo.connection.zookeeper.timeout=8000");
    c = conf.toString();
    cfg = WebindexConfig.load(conf, Map.of());
    web = new RandomWeb(20261125, 250);

    writeBatch(0, 250);
    ok("recompute", "--run", "r0");
    ok("fluo-init", "--run", "r0");

    try (ServiceProcesses sp = new ServiceProcesses(tmp, c)) {
      // started in any order: the loader waits for an oracle (with back-off) instead of dying
      ServiceProcesses.Child loader = sp.start("loader", "load", "--watch", "2");
      ServiceProcesses.Child oracleA = sp.start("oracle-a", "fluo-oracle");
      ServiceProcesses.Child oracleB = sp.start("oracle-b", "fluo-oracle");
      sp.start("worker-a", "fluo-worker");
      ServiceProcesses.Child workerB = sp.start("worker-b", "fluo-worker");
      awaitServing(sp, prefix, 2);

      // cycle 1: the run's snapshot is 2, the loader is at 3 when the check runs
      writeBatch(1, 60);
      writeBatch(2, 60);
      awaitApplied(sp, 2);
      ok("recompute", "--run", "r1", "--snapshot", "2");
      writeBatch(3, 60);
      awaitApplied(sp, 3);
      JsonNode check1 = check(0, "r1");
      assertEquals(3, check1.path("live").path("applied").asLong(), check1.toString());
      assertEquals(3, check1.path("live").path("excludedUpTo").asLong(), check1.toString());
      Run rec1 = ok("reconcile", "--run", "r1", "--wait", "120");
      String app1 = Cutover.reconcileApp(cfg, "r1");
      assertEquals(prefix + "_r1", served().table(), rec1.toString());
      assertEquals(app1, served().fluoApp());
      // the services took up the new application and let the old one go, by themselves
      awaitServing(sp, app1, 2);
      sp.await(
          "the services to stop serving " + prefix,
          WAIT,
          () -> WebindexApp.processes(cfg, prefix).workers() == 0);

      // cycle 2: the loader follows the cut-over; a worker dies in the middle of the next one
      writeBatch(4, 60);
      awaitApplied(sp, 4);
      ok("recompute", "--run", "r2", "--snapshot", "4");
      writeBatch(5, 60);
      awaitApplied(sp, 5);
      check(0, "r2");
      String app2 = Cutover.reconcileApp(cfg, "r2");
      CompletableFuture<Run> rec2 =
          CompletableFuture.supplyAsync(
              () -> status(0, "reconcile", "--run", "r2", "--wait", "150"));
      sp.await(
          "a worker of " + app2 + " during its cut-over",
          WAIT,
          () -> WebindexApp.processes(cfg, app2).workers() > 0 || rec2.isDone());
      workerB.kill();
      Run r2 = rec2.get(5, TimeUnit.MINUTES);
      assertTrue(r2.out().contains("served table: " + prefix + "_r2"), r2.toString());
      assertEquals(app2, served().fluoApp());

      // the last cycle: every batch applied, the run's snapshot is the newest batch
      writeBatch(6, 60);
      ok("recompute", "--run", "r3");
      JsonNode last = check(0, "r3");
      assertEquals(6, last.path("live").path("applied").asLong(), last.toString());
      // a cut-over with nothing to catch up returns before the services follow it; a check right
      // after it waits (within --settle) for an oracle of the new application instead of giving up
      ok("reconcile", "--run", "r3", "--wait", "120");
      assertEquals(Cutover.reconcileApp(cfg, "r3"), served().fluoApp());
      JsonNode afterCutover = check(0, "r3");
      assertEquals(
          Cutover.reconcileApp(cfg, "r3"),
          afterCutover.path("live").path("app").asText(),
          afterCutover.toString());

      // a real inconsistency, injected while the loader runs, is found: a domain no batch has
      Cells.write(
          connector(), served().table(), List.of(QuerySchema.pageCount("injected.example", 5)));
      writeBatch(7, 60);
      JsonNode bad = check(1, "r3");
      assertTrue(bad.toString().contains("injected.example"), bad.toString());
      sp.assertAlive();

      // stopped in the wrong order, the oracles first: the loader's round waits for an oracle
      // that is gone, and the loader still stops within seconds (the round is interrupted). The
      // wait is one the loader logs after the oracles stopped: its log may hold an earlier one (a
      // loader that started before its oracle)
      int before = loader.log().length();
      assertEquals(143, oracleA.stop(), oracleA.log());
      assertEquals(143, oracleB.stop(), oracleB.log());
      ServiceProcesses.poll(
          "the loader to wait for an oracle",
          WAIT,
          () -> loader.log().indexOf("Waiting for timestamp from Oracle", before) >= 0,
          loader::logAndThreads);
      long t0 = System.nanoTime();
      assertEquals(143, loader.stop(), loader.log());
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
      assertTrue(seconds < 30, "the loader stopped in " + seconds + " s: " + loader.log());
      assertTrue(loader.log().contains("interrupting it"), loader.log());
    }
  }

  /** Waits until an oracle and {@code workers} workers serve {@code app}. */
  private void awaitServing(ServiceProcesses sp, String app, int workers) {
    sp.await(
        "an oracle and " + workers + " workers of " + app,
        WAIT,
        () -> {
          WebindexApp.Processes p = WebindexApp.processes(cfg, app);
          return p.oracle() && p.workers() == workers;
        });
  }

  /** Waits until the served application has applied batch {@code batch}. */
  private void awaitApplied(ServiceProcesses sp, long batch) {
    sp.await(
        "the loader to apply batch " + batch,
        WAIT,
        () -> {
          String app = served().fluoApp().isEmpty() ? cfg.fluoApp() : served().fluoApp();
          try {
            return FluoSession.applied(cfg, app) >= batch;
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  private JsonNode check(int expected, String run) throws Exception {
    Path out = tmp.resolve("check-" + run + "-" + expected);
    Run r = status(expected, "check", "--run", run, "--served", "--out", out.toString());
    return new ObjectMapper().readTree(Files.readString(out.resolve("check.json")));
  }

  private RunRegistry.Served served() {
    return new RunRegistry(connector(), cfg.metaTable()).served().orElseThrow();
  }

  /** A batch as a writer should add one: under a name that is not a number, then renamed. */
  private void writeBatch(long b, int pages) throws Exception {
    Path batches = Files.createDirectories(tmp.resolve("store").resolve(BatchLayout.BATCHES_DIR));
    Path dir = Files.createDirectories(batches.resolve(BatchLayout.inProgressDirName(b)));
    for (Map.Entry<String, String> f : web.batchFiles(b, pages, 2).entrySet()) {
      Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }
    Files.writeString(dir.resolve("_SUCCESS"), "");
    Files.move(dir, batches.resolve(BatchLayout.dirName(b)));
  }

  private Run ok(String... args) {
    return status(0, args);
  }

  private Run status(int expected, String... args) {
    return Run.expect(tmp, c, expected, args);
  }
}
