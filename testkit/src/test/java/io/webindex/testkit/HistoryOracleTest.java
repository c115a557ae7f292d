package io.webindex.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.frontier.Frontiers;
import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.Schedule;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.index.HistoryCells;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.TimedCell;
import io.webindex.testkit.oracle.HistoryOracle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's history (Histories, Signatures, Schedules, HistoryCells, the urc series over
 * ReferenceIndex) and the independent {@link HistoryOracle} agree on random raw stores with several
 * crawls per page: same-millisecond ties, stale and duplicated versions, deletions, record digests
 * in every accepted spelling and invalid ones, and content that repeats so that unchanged runs grow
 * the interval.
 */
class HistoryOracleTest {
  @TempDir Path tmp;

  /** The raw store of the current seed: a fresh directory under {@link #tmp} per seed. */
  private Path store;

  static final String[] DIGESTS = {
    "sha1:F6TCAM4VXWWB2JTQFQ427CGKBT273C7B",
    "SHA-1:2fa6203395bdac1d26702c39af88ca0cf5fd8be1",
    "f6tcam4vxwwb2jtqfq427cgkbt273c7b",
    "sha1:3XLT4X6EBBBAKGG67Z7M5LAIAWTPYXX5",
    "md5:c5ac9bd18e5a107bc3bf8fcd2aa20aab",
    "sha1:not-a-digest",
    "md5:YWWJXUMOLIIHXQ57R7GSVIQKVN"
  };

  /** Writes batches 1..n of random JSON lines; returns the lines per batch per file. */
  private Map<Long, Map<String, String>> writeStore(long seed, int batches, int perBatch)
      throws IOException {
    Random rnd = new Random(seed);
    String[] urls = new String[12];
    for (int i = 0; i < urls.length; i++) {
      urls[i] =
          (i == 8 ? "https://" : "http://")
              + (i % 3 == 0 ? "a.com" : i % 3 == 1 ? "www.b.co.uk" : i == 5 ? "10.1.2.3" : "c.org")
              + (i == 11 ? ":8080" : "")
              + (i == 2 ? "/" : "/p" + i);
    }
    Map<Long, Map<String, String>> out = new TreeMap<>();
    long clock = 1_700_000_000_000L;
    List<String> written = new ArrayList<>();
    for (long b = 1; b <= batches; b++) {
      Map<String, StringBuilder> files = new TreeMap<>();
      for (int i = 0; i < perBatch; i++) {
        String line;
        if (!written.isEmpty() && rnd.nextInt(10) == 0) {
          line = written.get(rnd.nextInt(written.size())); // a duplicate, maybe across batches
        } else {
          String url = urls[rnd.nextInt(urls.length)];
          long t =
              switch (rnd.nextInt(6)) {
                case 0 -> clock - rnd.nextInt(50_000_000); // stale
                case 1 -> clock - clock % 1000 + rnd.nextInt(3); // a tie within a few ms
                default -> clock += rnd.nextInt(3) * 40_000_000L + 1;
              };
          String when = Instant.ofEpochMilli(t).plusNanos(rnd.nextInt(3) * 1000L).toString();
          StringBuilder sb =
              new StringBuilder("{\"url\":\"").append(url).append("\",\"crawled\":\"");
          sb.append(when).append('"');
          if (rnd.nextInt(7) == 0) {
            sb.append(",\"deleted\":true");
          } else {
            sb.append(",\"title\":\"T").append(rnd.nextInt(2)).append("\",\"links\":[");
            int n = rnd.nextInt(3);
            for (int k = 0; k < n; k++) {
              sb.append(k > 0 ? "," : "")
                  .append("\"")
                  .append(
                      k == 1
                          ? "https://D.net:8443/only?x=" + rnd.nextInt(3)
                          : urls[k * 5 % urls.length])
                  .append('"');
            }
            sb.append(']');
            int d = rnd.nextInt(DIGESTS.length * 2);
            if (d < DIGESTS.length) {
              sb.append(",\"digest\":\"").append(DIGESTS[d]).append('"');
            } else if (d == DIGESTS.length) {
              sb.append(",\"digest\":17");
            }
          }
          line = sb.append('}').toString();
          written.add(line);
        }
        files
            .computeIfAbsent("part-" + rnd.nextInt(2) + ".jsonl", k -> new StringBuilder())
            .append(line)
            .append('\n');
      }
      Map<String, String> texts = new TreeMap<>();
      Path dir = store.resolve("batches").resolve(Long.toString(b));
      Files.createDirectories(dir);
      for (Map.Entry<String, StringBuilder> f : files.entrySet()) {
        Files.writeString(dir.resolve(f.getKey()), f.getValue());
        texts.put(f.getKey(), f.getValue().toString());
      }
      out.put(b, texts);
    }
    return out;
  }

  private static List<String> core(
      Map<Long, Map<String, String>> batches,
      long snapshot,
      List<HistoryOracle.Run> runs,
      int versions,
      ScheduleConfig cfg)
      throws IOException {
    Map<String, List<Page>> byKey = new TreeMap<>();
    for (Map.Entry<Long, Map<String, String>> b : batches.entrySet()) {
      if (b.getKey() > snapshot) {
        continue;
      }
      for (Map.Entry<String, String> f : b.getValue().entrySet()) {
        for (Page p :
            GoldensTest.read(
                b.getKey(), f.getKey(), f.getValue().getBytes(StandardCharsets.UTF_8))) {
          byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
        }
      }
    }
    List<TimedCell> cells = new ArrayList<>();
    for (Map.Entry<String, List<Page>> e : byKey.entrySet()) {
      List<HistoryEntry> h = Histories.of(e.getValue());
      cells.addAll(HistoryCells.of(e.getKey(), h, cfg, versions));
    }
    for (HistoryOracle.Run r : runs) {
      ReferenceIndex ref = new ReferenceIndex();
      byKey
          .values()
          .forEach(
              ps ->
                  ps.stream().filter(p -> p.version().batch() <= r.snapshot()).forEach(ref::apply));
      for (Map.Entry<String, UriState> s : ref.uriStates().entrySet()) {
        if (s.getValue().seen()) {
          cells.add(
              HistorySchema.urcCell(s.getKey(), r.started().toEpochMilli(), s.getValue().urc()));
        }
      }
    }
    cells.sort(TimedCell.ORDER);
    // the table's versioning iterator: the newest `versions` of every column
    List<String> lines = new ArrayList<>();
    Map<Object, Integer> kept = new HashMap<>();
    for (TimedCell c : cells) {
      if (kept.merge(c.column(), 1, Integer::sum) <= versions) {
        lines.add(DumpFormat.line(c));
      }
    }
    return lines;
  }

  @Test
  void coreAndTheOracleAgreeOnRandomHistories() throws IOException {
    ScheduleConfig cfg = new ScheduleConfig(86_400, 60, 40 * 86_400, 0.4, 0.2, true, 0.3);
    HistoryOracle.Rule rule = new HistoryOracle.Rule(86_400, 60, 40 * 86_400, 0.4, 0.2, true, 0.3);
    ScheduleConfig noSync = new ScheduleConfig(3600, 600, 7200, 0.5, 0.25, false, 0.3);
    HistoryOracle.Rule noSyncRule = new HistoryOracle.Rule(3600, 600, 7200, 0.5, 0.25, false, 0.3);
    int lines = 0;
    for (long seed = 1; seed <= 4; seed++) {
      store = Files.createTempDirectory(tmp, "store");
      Map<Long, Map<String, String>> batches = writeStore(seed, 5, 60);
      List<HistoryOracle.Run> runs =
          List.of(
              new HistoryOracle.Run(Instant.parse("2024-01-02T00:00:00Z"), 2),
              new HistoryOracle.Run(Instant.parse("2024-01-03T00:00:00Z"), 3),
              new HistoryOracle.Run(Instant.parse("2024-01-05T00:00:00Z"), 5));
      for (int versions : new int[] {1, 2, 16}) {
        List<String> expected = HistoryOracle.dump(store, 5, runs, versions, rule);
        assertEquals(
            expected, core(batches, 5, runs, versions, cfg), "seed " + seed + " N " + versions);
        assertEquals(
            HistoryOracle.dump(store, 4, runs.subList(0, 2), versions, noSyncRule),
            core(batches, 4, runs.subList(0, 2), versions, noSync));
        lines += expected.size();
      }
      List<String> all = HistoryOracle.dump(store, 5, runs, 16, rule);
      assertTrue(all.stream().anyMatch(l -> l.contains("\tgone - 0")), "a deletion");
      assertTrue(all.stream().anyMatch(l -> l.contains("ok sha1:F6TCAM4V")), "a record digest");
      assertTrue(all.stream().anyMatch(l -> l.contains("ok idx:")), "a content signature");
      assertTrue(all.stream().anyMatch(l -> l.contains("ok md5:YWWJ")), "an md5 digest");
      assertTrue(
          all.stream().anyMatch(l -> l.matches(".*crawls=([3-9]|[1-9][0-9]+) .*")),
          "several crawls");
    }
    assertTrue(lines > 300, "history lines compared: " + lines);
  }

  /** Core's frontier (Frontiers, FrontierSchema) at a snapshot, as dump lines in table order. */
  private static List<String> coreFrontier(
      Map<Long, Map<String, String>> batches, long snapshot, ScheduleConfig cfg)
      throws IOException {
    Map<String, List<Page>> byKey = new TreeMap<>();
    ReferenceIndex ref = new ReferenceIndex();
    for (Map.Entry<Long, Map<String, String>> b : batches.entrySet()) {
      if (b.getKey() > snapshot) {
        continue;
      }
      for (Map.Entry<String, String> f : b.getValue().entrySet()) {
        for (Page p :
            GoldensTest.read(
                b.getKey(), f.getKey(), f.getValue().getBytes(StandardCharsets.UTF_8))) {
          byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
          ref.apply(p);
        }
      }
    }
    Map<String, UriState> states = ref.uriStates();
    java.util.Set<String> uris = new java.util.TreeSet<>(byKey.keySet());
    uris.addAll(states.keySet());
    List<Cell> cells = new ArrayList<>();
    for (String uri : uris) {
      List<Page> pages = byKey.get(uri);
      Schedule s = pages == null ? null : HistoryCells.schedule(Histories.of(pages), cfg);
      UriState st = states.get(uri);
      Frontiers.entry(uri, st == null ? 0 : st.urc(), s)
          .ifPresent(e -> cells.add(FrontierSchema.cell(e)));
    }
    cells.sort(Cell.ORDER);
    return DumpFormat.lines(cells);
  }

  @Test
  void coreAndTheOracleAgreeOnRandomFrontiers() throws IOException {
    ScheduleConfig cfg = new ScheduleConfig(86_400, 60, 40 * 86_400, 0.4, 0.2, true, 0.3);
    HistoryOracle.Rule rule = new HistoryOracle.Rule(86_400, 60, 40 * 86_400, 0.4, 0.2, true, 0.3);
    int lines = 0;
    for (long seed = 1; seed <= 6; seed++) {
      store = Files.createTempDirectory(tmp, "store");
      Map<Long, Map<String, String>> batches = writeStore(seed, 5, 60);
      for (long snapshot : new long[] {1, 3, 5}) {
        List<String> expected = HistoryOracle.frontier(store, snapshot, rule);
        assertEquals(expected, coreFrontier(batches, snapshot, cfg), "seed " + seed);
        lines += expected.size();
        if (snapshot == 5) {
          assertTrue(expected.stream().anyMatch(l -> l.contains("due:0000000000000000:")), "due 0");
          assertTrue(expected.stream().anyMatch(l -> !l.contains("due:0000000000000000:")), "due");
          assertTrue(expected.stream().anyMatch(l -> l.endsWith("\thttps://c.org/p8")), "https");
          assertTrue(
              expected.stream().anyMatch(l -> l.startsWith("q:d.net\tdue:0000000000000000:")),
              "a URI only linked to");
        }
      }
    }
    assertTrue(lines > 50, "frontier lines compared: " + lines);
  }
}
