package io.webindex.check.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.engine.CheckListener;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.UriFact;
import io.webindex.check.engine.UriFacts;
import io.webindex.core.schema.Cell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The facts joined in sorted runs on disk give the findings that joining them in a map gives (the
 * oracle: a plain map from URI to its facts, checked with {@link UriFacts#check}).
 */
class FactJoinTest {

  /**
   * The join's order keeps a host's URIs together: sorted by the part of {@link FactJoin#hash} the
   * join sorts and groups by, 6,000 URI keys of about 120 hosts go from one host to the next once
   * per host.
   */
  @Test
  void aHostsUrisComeTogether() {
    Random rnd = new Random(5L);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 6_000; i++) {
      int host = rnd.nextInt(60);
      keys.add(
          "com.site"
              + host
              + (rnd.nextBoolean() ? ".www" : "")
              + "/p"
              + rnd.nextInt(100_000)
              + (rnd.nextInt(3) == 0 ? "?q=" + i : ""));
    }
    long groupBits = -1L << 20; // what FactJoin keeps of a hash for its order
    keys.sort(
        (a, b) ->
            Long.compare(
                FactJoin.hash(a.getBytes(java.nio.charset.StandardCharsets.UTF_8)) & groupBits,
                FactJoin.hash(b.getBytes(java.nio.charset.StandardCharsets.UTF_8)) & groupBits));
    int changes = 0;
    java.util.Set<String> hosts = new java.util.HashSet<>();
    String last = null;
    for (String k : keys) {
      String host = k.substring(0, k.indexOf('/'));
      hosts.add(host);
      if (last != null && !last.equals(host)) {
        changes++;
      }
      last = host;
    }
    assertEquals(hosts.size() - 1, changes, "host changes in the join's order");
    assertTrue(hosts.size() > 100, "hosts: " + hosts.size());
  }

  @TempDir Path tmp;

  /** Facts of URIs with every kind of cross-row damage, in a random order. */
  static List<UriFact> facts(long seed, int uris) {
    Random r = new Random(seed);
    List<UriFact> out = new ArrayList<>();
    for (int i = 0; i < uris; i++) {
      String domain = "com.site" + (i % 7);
      String uri = domain + "/p" + i;
      if (i % 97 == 0) {
        uri = "not a key " + i; // MALFORMED once joined
      }
      long c = r.nextInt(5);
      int shape = r.nextInt(10);
      if (shape != 0) {
        out.add(new UriFact(uri, UriFact.Type.INCOUNT, c, ""));
      }
      if (shape != 1) {
        out.add(new UriFact(uri, UriFact.Type.TOTAL, shape == 2 ? c + 1 : c, ""));
      }
      if (shape == 3) {
        out.add(new UriFact(uri, UriFact.Type.TOTAL, c, ""));
      }
      if (shape != 4) {
        out.add(new UriFact(uri, UriFact.Type.RANK, c, shape == 5 ? "org.other" : domain));
      }
      if (shape == 6) {
        out.add(new UriFact(uri, UriFact.Type.RANK, shape == 6 ? c + 2 : c, domain));
      }
    }
    Collections.shuffle(out, r);
    return out;
  }

  static List<String> oracle(String table, List<UriFact> facts) {
    Map<String, List<UriFact>> byUri = new LinkedHashMap<>();
    for (UriFact f : facts) {
      byUri.computeIfAbsent(f.uri(), u -> new ArrayList<>()).add(f);
    }
    List<String> out = new ArrayList<>();
    byUri.forEach((uri, fs) -> UriFacts.check(table, uri, fs).forEach(f -> out.add(f.toString())));
    Collections.sort(out);
    return out;
  }

  static List<String> joined(FactJoin join, List<UriFact> facts) {
    facts.forEach(join);
    List<String> out = new ArrayList<>();
    join.check(
        new CheckListener() {
          @Override
          public void compared(String range, boolean skipped) {}

          @Override
          public void difference(Kind kind, Cell expected, Cell actual) {}

          @Override
          public void violation(String table, Finding finding) {
            out.add(finding.toString());
          }
        });
    Collections.sort(out);
    return out;
  }

  @Test
  void manySortedRunsGiveTheFindingsOfAMap() throws Exception {
    List<UriFact> facts = facts(7, 3000);
    List<String> want = oracle("actual", facts);
    assertTrue(want.size() > 100, "the facts hold damage of every kind");
    FactJoin join = new FactJoin("actual", tmp.resolve("runs"), 1 << 20, 500, FactJoin::hash);
    List<String> got = joined(join, facts);
    assertEquals(want, got);
    assertTrue(join.runs() >= facts.size() / 500 - 1, "spilled to sorted runs");
    try (var files = Files.list(tmp.resolve("runs"))) {
      assertEquals(0, files.count(), "runs deleted after the check");
    }
  }

  @Test
  void byteBudgetSpillsToo() {
    List<UriFact> facts = facts(8, 2000);
    FactJoin join = new FactJoin("expected", tmp.resolve("b"), 4096, 1 << 20, FactJoin::hash);
    assertEquals(oracle("expected", facts), joined(join, facts));
  }

  @Test
  void aHashCollisionNeverJoinsTwoUris() {
    List<UriFact> facts = facts(9, 400);
    // every URI has the same hash: one group, split by the exact URI
    FactJoin join = new FactJoin("actual", tmp.resolve("c"), 1 << 20, 100, b -> 42L);
    assertEquals(oracle("actual", facts), joined(join, facts));
  }

  @Test
  void inMemoryWithoutRuns() {
    List<UriFact> facts = facts(10, 500);
    FactJoin join = new FactJoin("actual", tmp.resolve("d"));
    assertEquals(oracle("actual", facts), joined(join, facts));
    assertEquals(0, join.runs());
  }
}
