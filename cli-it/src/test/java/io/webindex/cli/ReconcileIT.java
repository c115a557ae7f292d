package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.check.engine.CheckReport;
import io.webindex.check.report.CheckReportJson;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.CountCodec;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.client.rfile.RFileWriter;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.fluo.accumulo.util.ColumnConstants;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged live table is reported by check; reconcile cuts over to a batch run, and check is back
 * to zero differences; the served pointer moves atomically and the retention drops old runs only.
 */
@SharedCluster
class ReconcileIT extends AccumuloITBase {
  @TempDir Path tmp;

  private static void writeBatch(Path store, RandomWeb web, long b) throws IOException {
    Path dir = Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", b)));
    for (Map.Entry<String, String> f : web.batchFiles(b, 150, 2).entrySet()) {
      Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }
    LocalBatches.markComplete(dir);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** {@code range -> [missing, extra, different]} of the ranges with a difference. */
  private static Map<String, List<Long>> nonZeroRanges(JsonNode report) {
    Map<String, List<Long>> out = new TreeMap<>();
    for (JsonNode r : report.path("ranges")) {
      List<Long> med =
          List.of(
              r.path("missing").asLong(), r.path("extra").asLong(), r.path("different").asLong());
      if (!med.equals(List.of(0L, 0L, 0L))) {
        out.put(r.path("range").asText(), med);
      }
    }
    return out;
  }

  /** The sampled differences as {@code KIND range row column -> actual}, sorted. */
  private static List<String> differenceSamples(JsonNode report) {
    List<String> out = new ArrayList<>();
    for (JsonNode s : report.path("samples")) {
      String kind = s.path("kind").asText();
      if (kind.equals("MISSING") || kind.equals("EXTRA") || kind.equals("DIFFERENT")) {
        out.add(
            kind
                + " "
                + s.path("range").asText()
                + " "
                + s.path("row").asText()
                + " "
                + s.path("column").asText()
                + " -> "
                + s.path("actual").asText());
      }
    }
    out.sort(null);
    return out;
  }

  private static Map<String, Long> counts(JsonNode object) {
    Map<String, Long> out = new TreeMap<>();
    object.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
    return out;
  }

  private static JsonNode sampleOf(JsonNode report, String kind) {
    for (JsonNode s : report.path("samples")) {
      if (s.path("kind").asText().equals(kind)) {
        return s;
      }
    }
    throw new AssertionError("no " + kind + " sample in " + report);
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

    // against r0b (the same snapshot 0 as the live side): exactly the four injected faults
    Run faults =
        Run.of(
            tmp,
            "check",
            "--conf",
            c,
            "--run",
            "r0b",
            "--actual",
            live,
            "--out",
            tmp.resolve("faults").toString());
    assertEquals(1, faults.status(), faults.toString());
    JsonNode fr = JSON.readTree(tmp.resolve("faults/check.json").toFile());
    String curRow = cur.getRow().toString();
    String inlinkRow = inlink.getRow().toString();
    String wrongTopRow = "t:" + CountCodec.encode(999) + topRow.substring(2 + CountCodec.WIDTH);
    long topUrc = CountCodec.decode(topRow, 2);
    String topUri = topRow.substring(2 + CountCodec.WIDTH + 1);
    assertEquals(
        Map.of("p:", List.of(1L, 0L, 1L), "t:", List.of(1L, 1L, 0L)),
        nonZeroRanges(fr),
        "missing, extra, different per range: " + fr);
    assertEquals(4, fr.path("totals").path("differences").asLong());
    assertEquals(
        List.of(
            "DIFFERENT p: " + curRow + " page:cur -> {corrupted",
            // reports speak the dump format: t: rows with their counts decoded
            "EXTRA t: t:999:" + topUri + " : -> 999",
            "MISSING p: " + inlinkRow + " inlinks:" + inlink.getColumnQualifier() + " -> ",
            "MISSING t: t:" + topUrc + ":" + topUri + " : -> "),
        differenceSamples(fr));
    // and keep the stored form beside the readable one
    assertEquals(wrongTopRow, sampleOf(fr, "EXTRA").path("rowEncoded").asText());
    assertEquals(
        Map.of("INCOUNT_MISMATCH", 1L, "TOTAL_MISMATCH", 1L),
        counts(fr.path("invariants").path("actual")));
    assertEquals(Map.of(), counts(fr.path("invariants").path("expected")));
    JsonNode total = sampleOf(fr, "TOTAL_MISMATCH");
    assertEquals(
        List.of(topUri, Long.toString(topUrc), "999"),
        List.of(
            total.path("row").asText(),
            total.path("expected").asText(),
            total.path("actual").asText()));
    assertEquals(inlinkRow, sampleOf(fr, "INCOUNT_MISMATCH").path("row").asText());

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
    // with the missed batch too: more differences, the same faults in the live table itself
    JsonNode before = JSON.readTree(tmp.resolve("before/check.json").toFile());
    assertTrue(
        before.path("totals").path("differences").asLong() > 4,
        "batch 1 adds differences to the four faults: " + before);
    assertEquals(
        Map.of("INCOUNT_MISMATCH", 1L, "TOTAL_MISMATCH", 1L),
        counts(before.path("invariants").path("actual")));

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
    LocalBatches.markComplete(b3);
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

    // the seed comparison finds a real difference: r3's seed rewritten with one value changed, one
    // entry dropped and one added is exactly one different, one extra (only Fluo has it) and one
    // missing (only the seed has it) away from the Fluo table
    org.apache.hadoop.fs.Path seedDir =
        new org.apache.hadoop.fs.Path(runs.get("r3").orElseThrow().seedDir());
    FileSystem fs = seedDir.getFileSystem(new Configuration());
    org.apache.hadoop.fs.Path aside =
        new org.apache.hadoop.fs.Path(tmp.resolve("seed-aside").toUri());
    fs.mkdirs(aside);
    List<String> originals = new ArrayList<>();
    for (FileStatus st : fs.listStatus(seedDir, p -> p.getName().endsWith(".rf"))) {
      originals.add(st.getPath().toString());
    }
    List<Map.Entry<Key, Value>> entries = new ArrayList<>();
    org.apache.accumulo.core.client.Scanner seedScan =
        RFile.newScanner().from(originals.toArray(new String[0])).withFileSystem(fs).build();
    for (Map.Entry<Key, Value> e : seedScan) {
      entries.add(new AbstractMap.SimpleEntry<>(new Key(e.getKey()), new Value(e.getValue())));
    }
    seedScan.close();
    for (String o : originals) {
      org.apache.hadoop.fs.Path from = new org.apache.hadoop.fs.Path(o);
      assertTrue(fs.rename(from, new org.apache.hadoop.fs.Path(aside, from.getName())));
    }
    String changed = null;
    String dropped = null;
    try (RFileWriter w =
        RFile.newWriter()
            .to(new org.apache.hadoop.fs.Path(seedDir, "faults-0.rf").toString())
            .withFileSystem(fs)
            .build()) {
      for (Map.Entry<Key, Value> e : entries) {
        Key k = e.getKey();
        boolean data =
            (k.getTimestamp() & ColumnConstants.PREFIX_MASK) == ColumnConstants.DATA_PREFIX;
        String row = k.getRow().toString();
        if (data && changed == null && row.startsWith("um:")) {
          changed = row;
          w.append(k, new Value(("changed " + e.getValue()).getBytes(StandardCharsets.UTF_8)));
        } else if (data && dropped == null && row.startsWith("dm:")) {
          dropped = row;
        } else {
          w.append(k, e.getValue());
        }
      }
    }
    assertTrue(changed != null && dropped != null, "the seed has um: and dm: entries");
    try (RFileWriter w =
        RFile.newWriter()
            .to(new org.apache.hadoop.fs.Path(seedDir, "faults-1.rf").toString())
            .withFileSystem(fs)
            .build()) {
      w.append(
          new Key("p:zz.injected", "page", "cur", ColumnConstants.DATA_PREFIX | 1L),
          new Value("{}".getBytes(StandardCharsets.UTF_8)));
    }
    Run seedFaults =
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
            tmp.resolve("seed-faults").toString());
    JsonNode sf = JSON.readTree(tmp.resolve("seed-faults/check.json").toFile()).path("fluoSeed");
    assertEquals(
        List.of(seed.compared() + 1, 1L, 1L, 1L, 3L),
        List.of(
            sf.path("compared").asLong(),
            sf.path("missing").asLong(),
            sf.path("extra").asLong(),
            sf.path("different").asLong(),
            sf.path("differences").asLong()),
        "changed " + changed + ", dropped " + dropped + ": " + seedFaults);
    fs.delete(new org.apache.hadoop.fs.Path(seedDir, "faults-0.rf"), false);
    fs.delete(new org.apache.hadoop.fs.Path(seedDir, "faults-1.rf"), false);
    for (String o : originals) {
      org.apache.hadoop.fs.Path to = new org.apache.hadoop.fs.Path(o);
      assertTrue(fs.rename(new org.apache.hadoop.fs.Path(aside, to.getName()), to));
    }

    // query and dump read the served table by default
    Run top = Run.of(tmp, "query", "top", "--conf", c, "--limit", "1");
    assertEquals(0, top.status(), top.toString());
    assertEquals(
        Run.of(tmp, "dump", "--conf", c).out(),
        Run.of(tmp, "dump", "--conf", c, "--table", prefix + "_r1").out());
  }
}
