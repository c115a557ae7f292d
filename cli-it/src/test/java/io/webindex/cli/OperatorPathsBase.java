package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the operator-path ITs ({@link OperatorPathsIT}, {@link OperatorGuardsIT}) share: a
 * configuration on the class's cluster, a random web written batch by batch, in-process runs of the
 * CLI, and the proof that the served table is the truth. Two classes so that the two failsafe forks
 * share the work evenly.
 */
@SharedCluster
abstract class OperatorPathsBase extends AccumuloITBase {
  @TempDir Path tmp;

  Path store;
  String c;
  String prefix;
  RandomWeb web;

  void setUp(String hint, int pages, String... extraConf) {
    store = tmp.resolve("store");
    prefix = newTableName(hint);
    c = writeWebindexConf(tmp, prefix, extraConf).toString();
    web = new RandomWeb(hint.hashCode(), pages);
  }

  void writeBatch(long b, int pages) throws IOException {
    Path dir = Files.createDirectories(store.resolve(BatchLayout.relativeDir(b)));
    for (Map.Entry<String, String> f : web.batchFiles(b, pages, 2).entrySet()) {
      Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }
    LocalBatches.markComplete(dir);
  }

  Run ok(String... args) {
    Run r = Run.of(tmp, withConf(args));
    assertEquals(0, r.status(), String.join(" ", args) + ": " + r);
    return r;
  }

  Run status(int expected, String... args) {
    Run r = Run.of(tmp, withConf(args));
    assertEquals(expected, r.status(), String.join(" ", args) + ": " + r);
    return r;
  }

  String[] withConf(String... args) {
    String[] out = new String[args.length + 2];
    out[0] = args[0];
    out[1] = "--conf";
    out[2] = c;
    System.arraycopy(args, 1, out, 3, args.length - 1);
    return out;
  }

  Path workDir() {
    String w = WebindexConfig.load(Path.of(c), Map.of()).workDir();
    return Path.of(java.net.URI.create(w.startsWith("file:") ? w : "file://" + w));
  }

  RunRegistry registry() {
    return new RunRegistry(connector(), prefix + "_meta");
  }

  /**
   * The served table equals a fresh recompute of every batch (dump, cell for cell), and the check
   * of the two says CONSISTENT.
   */
  void assertServedIsTheTruth(String truthRun, long snapshot) {
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
}
