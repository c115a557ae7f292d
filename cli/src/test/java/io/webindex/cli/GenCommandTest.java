package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.store.RawPageStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/webindex gen}: layout, reproducibility and the shape of what it writes. */
class GenCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant INITIAL_CRAWL = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path tmp;

  private Run gen(Path out, String... more) {
    List<String> args = new ArrayList<>(List.of("gen", "--out", out.toString()));
    args.addAll(List.of(more));
    return Run.of(tmp, args);
  }

  @Test
  void writesCompleteBatchesReproducibly() throws IOException {
    Path a = tmp.resolve("a");
    Run r = gen(a, "--pages", "2000", "--deltas", "2", "--delta-pages", "300", "--seed", "7");
    assertEquals(0, r.status(), r.toString());
    assertTrue(
        r.out().startsWith("generated 2,600 page versions (2,000 pages + 2 deltas of 300)"),
        r.out());
    try (Stream<Path> s = Files.list(a.resolve("batches"))) {
      assertEquals(
          List.of("00000", "00001", "00002"),
          s.map(p -> p.getFileName().toString()).sorted().toList());
    }
    // each batch complete, as the loader and the recompute read them: its _SUCCESS marker is there
    for (int batch = 0; batch <= 2; batch++) {
      assertTrue(Files.isRegularFile(a.resolve("batches/0000" + batch + "/_SUCCESS")));
    }
    assertEquals(
        List.of(0L, 1L, 2L),
        new RawPageStore(a.toUri().toString(), new Configuration(false))
            .batches().stream().map(RawPageStore.Batch::seq).toList());
    assertEquals(2000, lines(a, 0).size());
    assertEquals(300, lines(a, 1).size());
    assertEquals(300, lines(a, 2).size());

    Path b = tmp.resolve("b");
    assertEquals(
        0,
        gen(b, "--pages", "2000", "--deltas", "2", "--delta-pages", "300", "--seed", "7").status());
    Path c = tmp.resolve("c");
    assertEquals(
        0,
        gen(c, "--pages", "2000", "--deltas", "2", "--delta-pages", "300", "--seed", "8").status());
    for (int batch = 0; batch <= 2; batch++) {
      assertArrayEquals(bytes(a, batch), bytes(b, batch), "same seed, same bytes");
      assertFalse(java.util.Arrays.equals(bytes(a, batch), bytes(c, batch)), "another seed");
    }

    Path z = tmp.resolve("z");
    assertEquals(
        0,
        gen(z, "--pages", "2000", "--deltas", "2", "--delta-pages", "300", "--seed", "7", "--gzip")
            .status());
    try (InputStream in =
        new GZIPInputStream(Files.newInputStream(z.resolve("batches/00001/part-00000.jsonl.gz")))) {
      assertArrayEquals(bytes(a, 1), in.readAllBytes(), "--gzip holds the same lines");
    }
  }

  @Test
  void theInitialCrawlHasTheShapeOfAWeb() throws IOException {
    Path out = tmp.resolve("web");
    assertEquals(0, gen(out, "--pages", "3000", "--seed", "11").status());
    Set<String> urls = new HashSet<>();
    Map<String, Integer> inlinks = new HashMap<>();
    int links = 0;
    int selfLinks = 0;
    int duplicates = 0;
    for (JsonNode page : lines(out, 0)) {
      String url = page.get("url").asText();
      assertTrue(urls.add(url), "every page of the initial crawl is another URL: " + url);
      Set<String> targets = new HashSet<>();
      for (JsonNode l : page.get("links")) {
        String t = l.get("url").asText();
        links++;
        selfLinks += t.equals(url) ? 1 : 0;
        duplicates += targets.add(t) ? 0 : 1;
        inlinks.merge(t, 1, Integer::sum);
      }
    }
    assertTrue(links > 3000 * 10 && links < 3000 * 20, "about 14.5 links per page: " + links);
    assertTrue(selfLinks > 0, "self links are written raw");
    assertTrue(duplicates > 0, "duplicate links are written raw");
    int hottest = inlinks.values().stream().max(Integer::compare).orElseThrow();
    assertTrue(
        hottest > links / 50, "a power law: the hottest URI has " + hottest + " of " + links);
    assertTrue(inlinks.size() > 1000, "and a long tail: " + inlinks.size() + " targets");
    assertTrue(urls.stream().anyMatch(u -> u.startsWith("https://")), "https");
    assertTrue(urls.stream().anyMatch(u -> u.contains(":8080/")), "ports");
    assertTrue(urls.stream().anyMatch(u -> u.matches("https?://10\\.[0-9.]+/.*")), "IP hosts");
    assertTrue(urls.stream().anyMatch(u -> u.contains(".co.uk/")), "two-label suffixes");
    assertTrue(urls.stream().anyMatch(u -> u.contains(".github.io/")), "private suffixes");
    assertTrue(
        urls.stream().anyMatch(u -> u.matches("https?://(blog|shop|en|m|docs|news)\\..*")),
        "subdomains");
  }

  @Test
  void deltasMixUpdatesNewPagesDeletionsAndStaleVersions() throws IOException {
    Path out = tmp.resolve("web");
    assertEquals(0, gen(out, "--pages", "2000", "--deltas", "1", "--delta-pages", "1000").status());
    Set<String> initial = new HashSet<>();
    for (JsonNode page : lines(out, 0)) {
      initial.add(page.get("url").asText());
    }
    int deleted = 0;
    int stale = 0;
    int fresh = 0;
    int recrawled = 0;
    for (JsonNode v : lines(out, 1)) {
      Instant crawled = Instant.parse(v.get("crawled").asText());
      boolean known = initial.contains(v.get("url").asText());
      if (v.has("deleted")) {
        deleted++;
        assertTrue(known, "deletions are of crawled pages");
      } else if (crawled.isBefore(INITIAL_CRAWL)) {
        stale++;
      } else if (known) {
        recrawled++;
      } else {
        fresh++;
      }
    }
    // 60 + 5 % re-crawls, 15 % new, 10 % deletions, 10 % stale: within a wide margin of 1,000
    assertTrue(recrawled > 550 && recrawled < 750, "re-crawls " + recrawled);
    assertTrue(fresh > 100 && fresh < 200, "new pages " + fresh);
    assertTrue(deleted > 60 && deleted < 140, "deletions " + deleted);
    assertTrue(stale > 60 && stale < 140, "stale versions " + stale);
  }

  @Test
  void neverOverwritesABatch() throws IOException {
    Path out = tmp.resolve("web");
    assertEquals(0, gen(out, "--pages", "100").status());
    byte[] before = bytes(out, 0);
    Run again = gen(out, "--pages", "200", "--seed", "3");
    assertEquals(2, again.status(), again.toString());
    assertTrue(again.err().contains("exists already"), again.err());
    assertArrayEquals(before, bytes(out, 0));
    assertEquals(2, gen(tmp.resolve("x"), "--pages", "0").status());
    assertEquals(2, gen(tmp.resolve("x"), "--pages", "10", "--seed", "ten").status());
  }

  @Test
  void outTakesAFileUriAsTheStoreRootIsWrittenAndRefusesAnotherFileSystem() throws IOException {
    Path out = tmp.resolve("store");
    Run r = Run.of(tmp, "gen", "--out", out.toUri().toString(), "--pages", "100");
    assertEquals(0, r.status(), r.toString());
    assertEquals(100, lines(out, 0).size(), "file:///… is the directory it names");
    r = Run.of(tmp, "gen", "--out", "file:" + tmp.resolve("store2"), "--pages", "100");
    assertEquals(0, r.status(), r.toString());
    assertEquals(100, lines(tmp.resolve("store2"), 0).size(), "file:/… too");
    try (Stream<Path> s = Files.list(tmp)) {
      assertFalse(
          s.anyMatch(p -> p.getFileName().toString().startsWith("file:")),
          "never a directory named after the URI");
    }
    r = Run.of(tmp, "gen", "--out", "hdfs://nn:8020/webindex/store", "--pages", "100");
    assertEquals(2, r.status(), r.toString());
    assertTrue(r.err().contains("not a hdfs: URI"), r.err());
    assertFalse(r.err().contains("Exception"), r.err());
    r = Run.of(tmp, "gen", "--out", "file://otherhost/store", "--pages", "100");
    assertEquals(2, r.status(), r.toString());
    assertTrue(r.err().contains("file:///dir"), r.err());
  }

  private static byte[] bytes(Path out, int batch) throws IOException {
    return Files.readAllBytes(out.resolve(String.format("batches/%05d/part-00000.jsonl", batch)));
  }

  private static List<JsonNode> lines(Path out, int batch) throws IOException {
    List<JsonNode> nodes = new ArrayList<>();
    for (String l :
        new String(bytes(out, batch), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
      nodes.add(JSON.readTree(l));
    }
    return nodes;
  }
}
