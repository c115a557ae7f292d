package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.testkit.oracle.Oracle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/webindex demo} with the operator's own pages: batch 0 and a delta, both tables equal
 * to the independent oracle's. The demo on the shipped sample (the worked example's answers, its
 * exact dump, the check, and serving it) runs from the unpacked distribution in module
 * web-browser-test's {@code DistributionIT}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DemoIT {
  @TempDir Path tmp;

  static String resource(String name) throws IOException {
    try (InputStream in = DemoIT.class.getResourceAsStream("/io/webindex/cli/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Both tables of a demo run equal the independent oracle's table of the same batches. */
  static void assertOracle(Oracle oracle, Path out) throws IOException {
    List<String> expected = oracle.dump();
    assertEquals(expected, Files.readAllLines(out.resolve("batch.tsv")), "batch vs oracle");
    assertEquals(
        expected, Files.readAllLines(out.resolve("incremental.tsv")), "incremental vs oracle");
  }

  @Test
  void inputsAndDeltasAreBatchesInOrder() throws IOException {
    Path input = tmp.resolve("pages.jsonl");
    Files.writeString(input, resource("worked-example.jsonl"));
    Path delta = tmp.resolve("delta.jsonl");
    Files.writeString(
        delta,
        "{\"url\":\"d.com\",\"crawled\":\"2026-11-21T00:00:00Z\",\"deleted\":true}\n"
            + "{\"url\":\"c.com/page1\",\"crawled\":\"2020-01-01T00:00:00Z\",\"deleted\":true}\n");
    Path out = tmp.resolve("out");
    Run r =
        Run.of(
            tmp,
            "demo",
            "--input",
            input.toString(),
            "--delta",
            delta.toString(),
            "--out",
            out.toString());
    assertEquals(0, r.status(), r.toString());
    String dump = Files.readString(out.resolve("batch.tsv"));
    assertEquals(
        dump,
        Files.readString(out.resolve("incremental.tsv")),
        "Fluo applied the delta as the recompute did");
    assertTrue(dump.contains("p:com.c\tpage:incount\t2\n"), "d.com deleted by the delta: " + dump);
    assertTrue(
        dump.contains("p:com.c/page1\tpage:incount\t1\n"),
        "a deletion of a page never crawled changes nothing");
    assertTrue(!dump.contains("p:com.d\t"), dump);
    Oracle oracle = new Oracle();
    oracle.addFile(0, "pages.jsonl", Files.readAllBytes(input));
    oracle.addFile(1, "delta.jsonl", Files.readAllBytes(delta));
    assertOracle(oracle, out);

    Run bad = Run.of(tmp, "demo", "--delta", delta.toString());
    assertEquals(2, bad.status());
    assertTrue(bad.err().startsWith("webindex: --delta needs at least one --input"), bad.err());
  }
}
