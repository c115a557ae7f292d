package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.testkit.AccumuloITBase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's path: recompute, fluo-init from that run, then load new batches through Fluo. */
class FluoCommandsIT extends AccumuloITBase {
  @TempDir Path tmp;

  @Test
  void recomputeFluoInitAndLoadKeepTheTableEqualToARecompute() throws IOException {
    Path store = tmp.resolve("store");
    String prefix = newTableName("fc");
    Path conf = writeWebindexConf(tmp, prefix);
    Path b0 = Files.createDirectories(store.resolve("batches/00000"));
    try (InputStream in = getClass().getResourceAsStream("/io/webindex/cli/worked-example.jsonl")) {
      Files.copy(in, b0.resolve("pages.jsonl"));
    }
    String c = conf.toString();
    assertEquals(0, Run.of(tmp, "recompute", "--conf", c, "--run", "r0").status());
    Run init = Run.of(tmp, "fluo-init", "--conf", c, "--run", "r0");
    assertEquals(0, init.status(), init.toString());
    assertTrue(init.out().contains("(snapshot 0)"), init.out());

    Path b1 = Files.createDirectories(store.resolve("batches/00001"));
    Files.writeString(
        b1.resolve("delta.jsonl"),
        "{\"url\":\"http://c.com/\",\"crawled\":\"2026-11-21T00:00:00Z\",\"links\":[{\"url\":\"a.com/page1\",\"anchor\":\"A\"}]}\n"
            + "{\"url\":\"b.com\",\"crawled\":\"2026-11-21T00:00:00Z\",\"deleted\":true}\n",
        StandardCharsets.UTF_8);
    Run load = Run.of(tmp, "load", "--conf", c, "--embedded");
    assertEquals(0, load.status(), load.toString());
    assertTrue(
        load.out().contains("applied batches 1..1: 2 page versions (2 applied, 0 stale)"),
        load.out());
    Run again = Run.of(tmp, "load", "--conf", c, "--embedded");
    assertTrue(
        again.out().contains("nothing to apply: every batch up to 1 is applied"), again.out());

    assertEquals(0, Run.of(tmp, "recompute", "--conf", c, "--run", "r1").status());
    Run live = Run.of(tmp, "dump", "--conf", c, "--table", prefix + "_r0");
    Run truth = Run.of(tmp, "dump", "--conf", c, "--table", prefix + "_r1");
    assertEquals(truth.out(), live.out());
    assertTrue(live.out().contains("p:com.a/page1\tinlinks:com.c\tA\n"), live.out());
    assertTrue(!live.out().contains("p:com.b\tpage:cur"), "b.com deleted");

    // without --embedded and with no oracle running, load refuses at once (a Fluo client would
    // wait for the oracle forever)
    Run noOracle = Run.of(tmp, "load", "--conf", c);
    assertEquals(2, noOracle.status(), noOracle.toString());
    assertEquals(
        "webindex: no oracle of Fluo application "
            + prefix
            + " runs: start its oracle and workers (`bin/webindex fluo-oracle --app "
            + prefix
            + "` and `bin/webindex fluo-worker --app "
            + prefix
            + "`, see docs/fluo.md), or pass --embedded to run them in this process\n",
        noOracle.err());

    Run bad = Run.of(tmp, "fluo-init", "--conf", c, "--run", "nope");
    assertEquals(2, bad.status());
  }
}
