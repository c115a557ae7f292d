package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.schema.LocalBatches;
import io.webindex.testkit.SharedCluster;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluo.api.client.FluoAdmin;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The loader against the raw page store and its resume point, on MiniAccumulo with the webindex
 * application in a MiniFluo: only complete batches are read, in order and without gaps; the resume
 * point never goes back, with two loaders at once; an application or run of another version is
 * refused.
 */
@SharedCluster
class BatchLoadingIT extends LoaderITBase {
  /**
   * A batch directory without its _SUCCESS marker ({@code hdfs dfs -put} has made it, its files are
   * on the way) is not recorded as read empty: it waits, and is read whole once marked. A batch
   * renamed into place before the one before it waits for that one.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void onlyCompleteBatchesAreLoadedInOrderWithoutGaps() throws Exception {
    batch(0, 3);
    Path put = Files.createDirectories(batches.resolve("00001"));
    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      StringWriter progress = new StringWriter();
      BatchApplier.Result first = applier(fluo.client(), progress).applyPending(null);
      assertEquals(0, first.appliedAfter(), "batch 1 is not complete: not recorded");
      assertEquals(1, first.batches());
      assertEquals(3, first.pages());
      String unmarked = "batch 1 is not complete yet: file:" + put + " has no _SUCCESS marker";
      assertTrue(first.waiting().startsWith(unmarked), first.waiting());
      assertTrue(
          progress.toString().endsWith("load: " + first.waiting() + "\n"), progress.toString());

      // the copy goes on, then the marker; batch 3 is renamed into place before batch 2
      Files.write(put.resolve("part-0.jsonl"), pages(1, 5));
      LocalBatches.markComplete(put);
      batch(3, 4);
      BatchApplier.Result second = applier(fluo.client(), new StringWriter()).applyPending(null);
      assertEquals(1, second.appliedAfter(), "batch 3 waits for batch 2");
      assertEquals(1, second.batches());
      assertEquals(5, second.pages(), "batch 1 read whole");
      assertTrue(second.waiting().startsWith("batch 2 is missing: "), second.waiting());

      // the operator skips number 2: an empty batch with its marker
      LocalBatches.write(batches, 2, Map.of());
      BatchApplier.Result third = applier(fluo.client(), new StringWriter()).applyPending(null);
      assertEquals(3, third.appliedAfter());
      assertEquals(2, third.batches());
      assertEquals(4, third.pages());
      assertNull(third.waiting());
      assertEquals(3, WebindexApp.applied(fluo.client()));

      // the export queue's depth (a loader's figure) counts its entries: two written by hand to a
      // bucket row no observer is notified of stay there once the exporter is idle
      fluo.awaitIdle();
      assertEquals(0, LoaderMetrics.exportQueueEntries(fluo.client()));
      try (org.apache.fluo.api.client.Transaction tx = fluo.client().newTransaction()) {
        tx.set("eq:zz:a", new org.apache.fluo.api.data.Column("e", "v"), "1");
        tx.set("eq:zz:b", new org.apache.fluo.api.data.Column("e", "v"), "2");
        tx.set("eq:zz:b", new org.apache.fluo.api.data.Column("e", "x"), "not an entry");
        tx.commit();
      }
      assertEquals(2, LoaderMetrics.exportQueueEntries(fluo.client()));
    }
  }

  /**
   * The resume point only goes up: a lower batch recorded later (a loader that was overtaken)
   * leaves it, and loaders recording at once in many threads leave the highest.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void theResumePointNeverGoesBack() throws Exception {
    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      FluoClient client = fluo.client();
      assertEquals(-1, WebindexApp.applied(client));
      assertEquals(7, WebindexApp.markApplied(client, 7));
      assertEquals(7, WebindexApp.markApplied(client, 5), "5 is below the recorded 7");
      assertEquals(7, WebindexApp.applied(client));

      List<Long> values = new ArrayList<>();
      for (long v = 8; v < 108; v++) {
        values.add(v);
      }
      Collections.shuffle(values, new Random(20));
      long highest = Collections.max(values);
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<String> wentBack = new AtomicReference<>();
      ExecutorService pool = Executors.newFixedThreadPool(5);
      try {
        Future<?> watcher =
            pool.submit(
                () -> {
                  long seen = 7;
                  while (!done.get()) {
                    long now = WebindexApp.applied(client);
                    if (now < seen) {
                      wentBack.compareAndSet(null, seen + " then " + now);
                    }
                    seen = now;
                  }
                });
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          List<Long> mine = values.subList(t * 25, t * 25 + 25);
          writers.add(
              pool.submit(
                  () -> {
                    for (long v : mine) {
                      assertTrue(WebindexApp.markApplied(client, v) >= v);
                    }
                  }));
        }
        for (Future<?> w : writers) {
          w.get(2, TimeUnit.MINUTES);
        }
        done.set(true);
        watcher.get(1, TimeUnit.MINUTES);
      } finally {
        pool.shutdownNow();
      }
      assertNull(wentBack.get(), "the resume point went back");
      assertEquals(highest, WebindexApp.applied(client));
    }
  }

  /**
   * Loader A loads batch 1 while loader B applies batches 1 to 3 and records 3: A's record of batch
   * 1 leaves the resume point at 3, and A goes on after batch 3 instead of loading 2 and 3 again.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aLoaderOvertakenByAnotherGoesOnAfterIt() throws Exception {
    for (long b = 0; b <= 3; b++) {
      batch(b, 4);
    }
    try (FluoSession fluo = FluoSession.embedded(cfg, cfg.fluoApp(), 2)) {
      FluoClient client = fluo.client();
      List<Long> seenByA = new ArrayList<>();
      List<BatchApplier.Result> byB = new ArrayList<>();
      StringWriter progressA = new StringWriter();
      BatchApplier.Result a =
          applier(client, progressA)
              .afterLoading(
                  seq -> {
                    seenByA.add(WebindexApp.applied(client));
                    if (seq == 1) {
                      try {
                        byB.add(applier(client, new StringWriter()).applyPending(null));
                      } catch (IOException e) {
                        throw new UncheckedIOException(e);
                      }
                      seenByA.add(WebindexApp.applied(client));
                    }
                  })
              .applyPending(null);
      // B started after A recorded batch 0 and applied 1, 2, 3
      assertEquals(1, byB.size());
      assertEquals(0, byB.get(0).appliedBefore());
      assertEquals(3, byB.get(0).appliedAfter());
      assertEquals(12, byB.get(0).pages());
      // the resume point as A found it after loading batch 0 (none), after loading batch 1 (its
      // own 0) and after B ran (B's 3); A loaded no other batch
      assertEquals(List.of(-1L, 0L, 3L), seenByA);
      assertEquals(-1, a.appliedBefore());
      assertEquals(3, a.appliedAfter());
      assertEquals(2, a.batches());
      assertEquals(8, a.pages());
      assertTrue(
          progressA
              .toString()
              .contains("load: another loader recorded batch 3 as applied meanwhile: going on"),
          progressA.toString());
      assertEquals(3, WebindexApp.applied(client));
    }
  }

  /**
   * An application initialised by another version of webindex (here: one from before versions were
   * recorded) is refused by the loader, naming the upgrade; a run recomputed by another version
   * seeds no application, nor does a seed of an earlier build with the frontier inputs in rows of
   * their own. (The messages for a recorded older or newer version: {@link VersionMismatchTest}.)
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void anApplicationOrRunOfAnotherVersionIsRefused() throws Exception {
    assertEquals(
        io.webindex.core.Version.current().webindex(),
        WebindexApp.version(cfg, cfg.fluoApp()),
        "setUp's");
    // the same application as one initialised before versions were recorded
    FluoConfiguration fc = WebindexApp.connection(cfg, cfg.fluoApp());
    WebindexApp.configure(fc, cfg, prefixTable(), 1);
    fc.clearProperty("fluo.app." + WebindexApp.VERSION_KEY);
    try (FluoAdmin admin = WebindexApp.admin(fc)) {
      admin.initialize(
          new FluoAdmin.InitializationOptions().setClearTable(true).setClearZookeeper(true));
    }
    io.webindex.store.StoreException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.webindex.store.StoreException.class,
            () -> FluoSession.embedded(cfg, cfg.fluoApp(), 1).close());
    assertTrue(
        refused
            .getMessage()
            .startsWith(
                "Fluo application "
                    + cfg.fluoApp()
                    + " was initialised by a webindex older than "
                    + io.webindex.core.Version.current().webindex()
                    + " (which recorded no version)"),
        refused.getMessage());
    assertTrue(
        refused.getMessage().contains("docs/operations.md (Upgrading webindex)"),
        refused.getMessage());
    StringWriter err = new StringWriter();
    assertEquals(
        2,
        org.apache.hadoop.util.ToolRunner.run(
            new Configuration(),
            new LoadTool(new PrintWriter(new StringWriter()), new PrintWriter(err, true)),
            new String[] {"--webindex-conf", confFile.toString(), "--embedded"}),
        "a refused application is the operator's to sort out, not a crash");
    assertEquals("load: " + refused.getMessage() + "\n", err.toString());

    io.webindex.store.RunRecord old = succeededRun("r09", tmp.resolve("seed"), "0.9.0");
    io.webindex.store.StoreException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.webindex.store.StoreException.class,
            () -> WebindexApp.initializeFromRun(cfg, old, new Configuration(), "other"));
    assertTrue(
        e.getMessage()
            .startsWith("run r09 (its Fluo seed) was recomputed by webindex 0.9.0, and this is"),
        e.getMessage());

    // a seed of this version's earlier builds, with the frontier inputs in rows of their own
    java.nio.file.Path oldSeed = java.nio.file.Files.createDirectories(tmp.resolve("seed-fr"));
    java.nio.file.Files.write(oldSeed.resolve("uri-part-r-00000.rf"), new byte[0]);
    java.nio.file.Files.write(oldSeed.resolve("fr-part-r-00000.rf"), new byte[0]);
    io.webindex.store.RunRecord frSeed =
        succeededRun("r10", oldSeed, io.webindex.core.Version.current().webindex());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.webindex.store.StoreException.class,
            () -> WebindexApp.initializeFromRun(cfg, frSeed, new Configuration(), "other"));
    assertEquals(
        "the Fluo seed of run r10 holds frontier inputs in rows of their own"
            + " (fr-part-r-00000.rf), the layout of an earlier build: recompute a new run"
            + " (recompute --run NEW_ID) and start from that one",
        e.getMessage());
  }

  /** A run record of a succeeded run of the query table, its seed in {@code seed}. */
  private io.webindex.store.RunRecord succeededRun(
      String id, java.nio.file.Path seed, String version) {
    return new io.webindex.store.RunRecord(
        id,
        io.webindex.store.RunRecord.Status.SUCCEEDED,
        0,
        prefixTable(),
        java.time.Instant.now(),
        java.time.Instant.now(),
        List.of(),
        Map.of(),
        seed.toString(),
        tmp.resolve("work").toString(),
        "",
        cfg.fluoBuckets(),
        version);
  }

  private String prefixTable() {
    return cfg.tablePrefix() + "_q";
  }
}
