package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is served, read once from the meta table ({@link ServedState}): the served table and its
 * run, the application that maintains it (named by the pointer after a cut-over, else the
 * configured one), the cut-over in progress, and the pointer's version a guarded switch compares.
 */
@SharedCluster
class ServedStateIT extends AccumuloITBase {
  @TempDir Path tmp;

  private WebindexConfig config(String prefix) throws Exception {
    return WebindexConfig.load(writeWebindexConf(tmp, prefix), Map.of());
  }

  private static RunRecord run(String id, String table) {
    Instant now = Instant.now();
    return new RunRecord(
        id,
        RunRecord.Status.SUCCEEDED,
        3,
        table,
        now,
        now,
        List.of(),
        Map.of(),
        "",
        "",
        "",
        4,
        io.webindex.core.Version.current().webindex());
  }

  @Test
  void nothingServedYet() throws Exception {
    WebindexConfig cfg = config("sv_empty");
    ServedState s = ServedState.read(new RunRegistry(connector(), cfg.metaTable()), cfg);
    assertTrue(s.served().isEmpty());
    assertTrue(s.table().isEmpty());
    assertFalse(s.namesApp());
    assertEquals("sv_empty", s.app(), "the configured application");
    assertTrue(s.cutover().isEmpty());
    assertTrue(s.applied().isEmpty());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> s.requireServed("serve a run first"));
    assertEquals("serve a run first", e.getMessage());
  }

  @Test
  void theServedTableItsApplicationTheCutoverAndTheVersion() throws Exception {
    WebindexConfig cfg = config("sv_live");
    RunRegistry runs = new RunRegistry(connector(), cfg.metaTable()).ensureTable();
    RunRecord first = run("first", "sv_live_first");
    runs.put(first);
    runs.serve(first);

    ServedState plain = ServedState.read(runs, cfg);
    assertEquals("sv_live_first", plain.table().orElseThrow());
    assertEquals("first", plain.served().orElseThrow().runId());
    assertFalse(plain.namesApp(), "served without an application's name");
    assertEquals("sv_live", plain.app(), "so the configured one maintains it");

    RunRecord second = run("second", "sv_live_second");
    runs.put(second);
    runs.setCutoverTarget(
        new RunRegistry.CutoverTarget("sv_live_2", "second", "sv_live_second", Instant.now()));
    ServedState during = ServedState.read(runs, cfg);
    assertEquals("sv_live_first", during.table().orElseThrow(), "not switched yet");
    assertEquals("sv_live_2", during.cutover().orElseThrow().app());

    runs.serve(second, "sv_live_2");
    ServedState after = ServedState.read(runs, cfg);
    assertEquals("sv_live_second", after.table().orElseThrow());
    assertTrue(after.namesApp());
    assertEquals("sv_live_2", after.app(), "the application the pointer names");
    assertNotEquals(during.version().version(), after.version().version(), "a new version");
    assertEquals("sv_live_first", after.served().orElseThrow().previousTable());

    ServedState withApplied = after.withApplied(app -> app.equals("sv_live_2") ? 7 : -1);
    assertEquals(OptionalLong.of(7), withApplied.applied(), "asked for its own application");
    assertEquals(after.table(), withApplied.table());
  }
}
