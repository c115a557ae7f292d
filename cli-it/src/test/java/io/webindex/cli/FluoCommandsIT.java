package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.schema.LocalBatches;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.WorkedExample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's path: recompute, fluo-init from that run, then load new batches through Fluo. */
@SharedCluster
class FluoCommandsIT extends AccumuloITBase {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void recomputeFluoInitAndLoadKeepTheTableEqualToARecompute() throws IOException {
    Path store = tmp.resolve("store");
    String prefix = newTableName("fc");
    Path conf = writeWebindexConf(tmp, prefix);
    Path b0 = Files.createDirectories(store.resolve("batches/00000"));
    Files.writeString(b0.resolve("pages.jsonl"), WorkedExample.jsonl());
    LocalBatches.markComplete(b0);
    String c = conf.toString();
    // recompute --json: the run record, checked against the worked example by hand (3 crawled
    // pages with 5 links to 5 seen URIs; the golden dump has one line per query cell)
    Run recompute = Run.of(tmp, "recompute", "--conf", c, "--run", "r0", "--json");
    assertEquals(0, recompute.status(), recompute.toString());
    JsonNode run = JSON.readTree(recompute.out());
    assertEquals("r0", run.path("id").asText());
    assertEquals("SUCCEEDED", run.path("status").asText());
    assertEquals(0, run.path("snapshot").asLong());
    assertEquals(prefix + "_r0", run.path("table").asText());
    assertTrue(run.path("finished").isTextual(), run.toString());
    assertTrue(run.path("seconds").asDouble() > 0, run.toString());
    assertTrue(run.path("message").isNull(), run.toString());
    JsonNode counters = run.path("counters");
    assertEquals(3, counters.path("read.PAGES").asLong(), counters.toString());
    assertEquals(5, counters.path("read.LINKS").asLong(), counters.toString());
    assertEquals(3, counters.path("latest.CURRENT_PAGES").asLong(), counters.toString());
    assertEquals(5, counters.path("uris.SEEN_URIS").asLong(), counters.toString());
    assertEquals(
        goldenLines(WorkedExample.TSV),
        counters.path("write.QUERY_CELLS").asLong(),
        counters.toString());
    Run init = Run.of(tmp, "fluo-init", "--conf", c, "--run", "r0");
    assertEquals(0, init.status(), init.toString());
    assertTrue(init.out().contains("(snapshot 0)"), init.out());

    Path b1 = Files.createDirectories(store.resolve("batches/00001"));
    Files.writeString(
        b1.resolve("delta.jsonl"),
        "{\"url\":\"http://c.com/\",\"crawled\":\"2026-11-21T00:00:00Z\",\"links\":[{\"url\":\"a.com/page1\",\"anchor\":\"A\"}]}\n"
            + "{\"url\":\"b.com\",\"crawled\":\"2026-11-21T00:00:00Z\",\"deleted\":true}\n",
        StandardCharsets.UTF_8);
    LocalBatches.markComplete(b1);
    // load --json: one round, batch 1 with its 2 page versions, both newer than the seed
    Run load = Run.of(tmp, "load", "--conf", c, "--embedded", "--json");
    assertEquals(0, load.status(), load.toString());
    assertEquals(1, load.lines().size(), load.toString());
    JsonNode round = JSON.readTree(load.out());
    assertEquals(0, round.path("appliedBefore").asLong(), round.toString());
    assertEquals(1, round.path("appliedAfter").asLong(), round.toString());
    assertEquals(1, round.path("batches").asLong(), round.toString());
    assertEquals(2, round.path("pages").asLong(), round.toString());
    assertEquals(2, round.path("applied").asLong(), round.toString());
    assertEquals(0, round.path("stale").asLong(), round.toString());
    assertEquals(0, round.path("rejected").asLong(), round.toString());
    assertTrue(round.path("seconds").asDouble() > 0, round.toString());
    assertTrue(round.path("pagesPerSecond").isIntegralNumber(), round.toString());
    Run again = Run.of(tmp, "load", "--conf", c, "--embedded");
    assertTrue(
        again.out().contains("nothing to apply: every batch up to 1 is applied"), again.out());

    assertEquals(0, Run.of(tmp, "recompute", "--conf", c, "--run", "r1").status());
    Run live = Run.of(tmp, "dump", "--conf", c, "--table", prefix + "_r0");
    Run truth = Run.of(tmp, "dump", "--conf", c, "--table", prefix + "_r1");
    assertEquals(truth.out(), live.out());
    assertTrue(live.out().contains("p:com.a/page1\tinlinks:com.c\tA\n"), live.out());
    assertTrue(!live.out().contains("p:com.b\tpage:cur"), "b.com deleted");

    // without --embedded and with no oracle running, load stops at once (a Fluo client would
    // wait for the oracle forever): transient, exit 3, the same later once one runs
    Run noOracle = Run.of(tmp, "load", "--conf", c);
    assertEquals(ExitCodes.TRANSIENT, noOracle.status(), noOracle.toString());
    assertEquals(
        "webindex: no oracle of Fluo application "
            + prefix
            + " runs: start an oracle and workers that serve it (`bin/webindex fluo-oracle` and"
            + " `bin/webindex fluo-worker` without --app follow the served pointer and serve it"
            + " during a cut-over; or `bin/webindex fluo-oracle --app "
            + prefix
            + "` and `bin/webindex fluo-worker --app "
            + prefix
            + "`, see docs/fluo.md), or pass --embedded to run them in this process"
            + " (unavailable for now: run the same again later)\n",
        noOracle.err());

    Run bad = Run.of(tmp, "fluo-init", "--conf", c, "--run", "nope");
    assertEquals(2, bad.status());
  }

  private long goldenLines(String resource) throws IOException {
    try (InputStream in = getClass().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().count();
    }
  }
}
