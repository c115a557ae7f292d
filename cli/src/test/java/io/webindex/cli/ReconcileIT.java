package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.check.CheckReport;
import io.webindex.core.check.CheckReportJson;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.CountCodec;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged live table is reported by check; reconcile cuts over to a batch run, and check is back
 * to zero differences; the served pointer moves atomically and the retention drops old runs only.
 */
class ReconcileIT extends AccumuloITBase {
  @TempDir Path tmp;

  private static void writeBatch(Path store, RandomWeb web, long b) throws IOException {
    Path dir = Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", b)));
    for (Map.Entry<String, String> f : web.batchFiles(b, 150, 2).entrySet()) {
      Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }
  }

  @Test
  void reconcileBringsTheCheckBackToZero() throws Exception {
    Path store = tmp.resolve("store");
    String prefix = newTableName("rec");
    Path conf = writeWebindexConf(tmp, prefix, "webindex.retention.runs=1");
    String c = conf.toString();
    RandomWeb web = new RandomWeb(5, 200);
    writeBatch(store, web, 0);
    assertEquals(
        0, Run.of(tmp, "recompute", "--conf", c, "--run", "r0", "--snapshot", "0").status());
    assertEquals(
        0, Run.of(tmp, "recompute", "--conf", c, "--run", "r0b", "--snapshot", "0").status());
    assertEquals(0, Run.of(tmp, "fluo-init", "--conf", c, "--run", "r0").status());
    // batches 1 and 2 arrive, and are never loaded: a dropped delta
    writeBatch(store, web, 1);
    writeBatch(store, web, 2);
    assertEquals(0, Run.of(tmp, "load", "--conf", c, "--embedded", "--up-to", "0").status());
    String live = prefix + "_r0";

    // the live side goes wrong: it never applied batch 1 (a dropped delta), lost an inlinks column,
    // has a corrupted page and a wrong t: row
    Scanner s = connector().createScanner(live, Authorizations.EMPTY);
    s.setRange(Range.prefix("p:"));
    s.fetchColumnFamily(new Text("inlinks"));
    Key inlink = s.iterator().next().getKey();
    BatchWriter bw = connector().createBatchWriter(live, new BatchWriterConfig());
    Mutation m = new Mutation(inlink.getRow());
    m.putDelete(inlink.getColumnFamily(), inlink.getColumnQualifier());
    bw.addMutation(m);
    Scanner curs = connector().createScanner(live, Authorizations.EMPTY);
    curs.setRange(Range.prefix("p:"));
    curs.fetchColumn(new Text("page"), new Text("cur"));
    Key cur = curs.iterator().next().getKey();
    Mutation corrupt = new Mutation(cur.getRow());
    corrupt.put(
        cur.getColumnFamily(),
        cur.getColumnQualifier(),
        new Value("{corrupted".getBytes(StandardCharsets.UTF_8)));
    bw.addMutation(corrupt);
    Scanner tops = connector().createScanner(live, Authorizations.EMPTY);
    tops.setRange(Range.prefix("t:"));
    String topRow = tops.iterator().next().getKey().getRow().toString();
    Mutation dropTop = new Mutation(topRow);
    dropTop.putDelete("", "");
    bw.addMutation(dropTop);
    Mutation wrongTop =
        new Mutation("t:" + CountCodec.encode(999) + topRow.substring(2 + CountCodec.WIDTH));
    wrongTop.put("", "", "999");
    bw.addMutation(wrongTop);
    bw.close();

    assertEquals(
        0, Run.of(tmp, "recompute", "--conf", c, "--run", "r1", "--snapshot", "1").status());
    Run bad =
        Run.of(
            tmp,
            "check",
            "--conf",
            c,
            "--run",
            "r1",
            "--actual",
            live,
            "--out",
            tmp.resolve("before").toString());
    assertEquals(1, bad.status(), bad.toString());
    assertTrue(bad.out().contains("INCONSISTENT"), bad.out());
    String before = Files.readString(tmp.resolve("before/check.json"));
    for (String kind :
        new String[] {"MISSING", "EXTRA", "DIFFERENT", "INCOUNT_MISMATCH", "TOTAL_MISMATCH"}) {
      assertTrue(before.contains("\"" + kind + "\""), kind + " reported: " + before);
    }

    Run rec = Run.of(tmp, "reconcile", "--conf", c, "--run", "r1", "--embedded");
    assertEquals(0, rec.status(), rec.toString());
    assertTrue(
        rec.out()
            .contains(
                "served table: "
                    + prefix
                    + "_r1 (run r1, Fluo caught up to batch 2); previous: "
                    + live),
        rec.out());
    assertTrue(
        rec.out().contains("dropped " + prefix + "_r0b"),
        "retention drops the old, unserved run: " + rec.out());

    WebindexConfig cfg = WebindexConfig.load(conf, Map.of());
    RunRegistry runs = new RunRegistry(connector(), cfg.metaTable());
    assertEquals(prefix + "_r1", runs.served().orElseThrow().table());
    assertEquals(
        prefix + "_r1", runs.served().orElseThrow().fluoApp(), "one Fluo application per run");
    assertTrue(
        connector().tableOperations().exists(prefix + "_fluo"),
        "the old application's table is untouched");
    assertTrue(connector().tableOperations().exists(live), "the previous served table is kept");
    assertFalse(connector().tableOperations().exists(prefix + "_r0b"));

    // the live table (r1's, now with batch 2 applied by Fluo) against r1: batch 2 is skipped
    Run after =
        Run.of(
            tmp,
            "check",
            "--conf",
            c,
            "--run",
            "r1",
            "--actual",
            prefix + "_r1",
            "--applied",
            "2",
            "--out",
            tmp.resolve("after").toString());
    assertEquals(0, after.status(), after.toString());
    // and against a run of all batches: equal cell for cell
    assertEquals(
        0, Run.of(tmp, "recompute", "--conf", c, "--run", "r2", "--snapshot", "2").status());
    Run all =
        Run.of(
            tmp,
            "check",
            "--conf",
            c,
            "--run",
            "r2",
            "--actual",
            prefix + "_r1",
            "--out",
            tmp.resolve("all").toString());
    assertEquals(0, all.status(), all.toString());
    // a refused cut-over (the run's table is gone) leaves everything as it was
    Run refused = Run.of(tmp, "reconcile", "--conf", c, "--run", "r0b", "--embedded");
    assertEquals(2, refused.status(), refused.toString());
    assertEquals(prefix + "_r1", runs.served().orElseThrow().table());

    // loading goes on through the new application, into the served table
    Path b3 = Files.createDirectories(store.resolve("batches/00003"));
    for (Map.Entry<String, String> f : web.batchFiles(3, 100, 1).entrySet()) {
      Files.writeString(b3.resolve(f.getKey()), f.getValue());
    }
    Run load = Run.of(tmp, "load", "--conf", c, "--embedded");
    assertTrue(load.out().contains("applied batches 3..3"), load.toString());
    assertEquals(
        0, Run.of(tmp, "recompute", "--conf", c, "--run", "r3", "--snapshot", "3").status());
    Run three =
        Run.of(
            tmp,
            "check",
            "--conf",
            c,
            "--run",
            "r3",
            "--actual",
            prefix + "_r1",
            "--fluo",
            "--embedded",
            "--out",
            tmp.resolve("three").toString());
    assertEquals(0, three.status(), three.toString());
    String json = Files.readString(tmp.resolve("three/check.json"));
    CheckReport.SeedComparison seed = CheckReportJson.fromJson(json).fluoSeed();
    assertTrue(
        seed != null && seed.compared() > 100 && seed.differences() == 0,
        "the Fluo table was compared with r3's seed: " + json);

    // query and dump read the served table by default
    Run top = Run.of(tmp, "query", "top", "--conf", c, "--limit", "1");
    assertEquals(0, top.status(), top.toString());
    assertEquals(
        Run.of(tmp, "dump", "--conf", c).out(),
        Run.of(tmp, "dump", "--conf", c, "--table", prefix + "_r1").out());
  }
}
