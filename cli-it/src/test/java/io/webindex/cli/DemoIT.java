package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.LocalBatches;
import io.webindex.testkit.WorkedExample;
import io.webindex.testkit.oracle.HistoryOracle;
import io.webindex.testkit.oracle.Oracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
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
    Files.writeString(input, WorkedExample.jsonl());
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

    // the crawl loop: c.com/ heads its host's queue (never crawled, urc 2; c.com/page1 was found
    // gone in 2020 and waits behind it); once the sample's crawls are 30 days old their hosts'
    // URLs are due too, one per host. The crawler fetched them, its pages went in as batch 2 and
    // the Fluo application applied them: each is due again when the independent oracle's
    // schedule of the three batches says
    assertTrue(r.out().contains("   now               urc 2   http://c.com/\n"), r.out());
    List<String> crawled = Files.readAllLines(out.resolve("crawl.jsonl"));
    assertTrue(
        crawled.stream().anyMatch(l -> l.startsWith("{\"url\":\"http://c.com/\"")),
        crawled.toString());
    int n = crawled.size();
    assertTrue(
        r.out()
            .contains(
                "fetched "
                    + n
                    + (n == 1 ? " URL" : " URLs")
                    + " (batch 2, "
                    + n
                    + (n == 1 ? " page version" : " page versions")
                    + " applied"),
        r.out());
    Path batches = tmp.resolve("store").resolve(BatchLayout.BATCHES_DIR);
    LocalBatches.write(batches, 0, Map.of("pages.jsonl", Files.readAllBytes(input)));
    LocalBatches.write(batches, 1, Map.of("delta.jsonl", Files.readAllBytes(delta)));
    LocalBatches.write(
        batches, 2, Map.of("crawl.jsonl", Files.readAllBytes(out.resolve("crawl.jsonl"))));
    List<String> frontier =
        HistoryOracle.frontier(
            tmp.resolve("store"),
            2,
            new HistoryOracle.Rule(30 * 86_400L, 60, 365 * 86_400L, 0.4, 0.2, true, 0.3));
    DateTimeFormatter minute =
        DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC);
    for (String page : crawled) {
      String url = new ObjectMapper().readTree(page).path("url").asText();
      // q:<host>  due:<16 hex digits of the due millisecond>:<urc>:<key>  <URL>
      String line = frontier.stream().filter(l -> l.endsWith("\t" + url)).findFirst().orElseThrow();
      long due = Long.parseLong(line.split("\t")[1].substring("due:".length(), 20), 16);
      String expected = minute.format(Instant.ofEpochMilli(due));
      assertTrue(r.out().contains("   " + expected + " " + url + "\n"), line + "\n" + r.out());
    }

    Run bad = Run.of(tmp, "demo", "--delta", delta.toString());
    assertEquals(2, bad.status());
    assertTrue(bad.err().startsWith("webindex: --delta needs at least one --input"), bad.err());
  }
}
