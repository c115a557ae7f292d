package io.webindex.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.synth.RandomWeb;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class HistoriesTest {
  /**
   * Property: a URI's history and schedule do not depend on the order versions arrive in, on
   * duplicates, or on stale versions. The random web's batches hold stale versions, deletions and
   * ties in crawl time; each URI's versions are folded one at a time in several shuffled orders
   * with duplicates, and compared with a brute-force history (per millisecond, the greatest
   * version).
   */
  @Test
  void orderDuplicatesAndStaleVersionsDoNotMatter() {
    RandomWeb web = new RandomWeb(23, 40);
    Map<String, List<Page>> byKey = new HashMap<>();
    for (long b = 1; b <= 6; b++) {
      for (Page p : web.batch(b, 120)) {
        byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
      }
    }
    Random rnd = new Random(5);
    int multi = 0;
    for (Map.Entry<String, List<Page>> e : byKey.entrySet()) {
      List<Page> versions = e.getValue();
      // brute force: per ms, the version recorded first (smallest batch, then file, then offset)
      TreeMap<Long, Page> best = new TreeMap<>();
      for (Page p : versions) {
        best.merge(
            p.version().crawled().toEpochMilli(),
            p,
            (a, b) -> {
              PageVersion va = a.version();
              PageVersion vb = b.version();
              int c = Long.compare(va.batch(), vb.batch());
              c = c != 0 ? c : va.file().compareTo(vb.file());
              c = c != 0 ? c : Long.compare(va.offset(), vb.offset());
              return c <= 0 ? a : b;
            });
      }
      List<HistoryEntry> expected = new ArrayList<>();
      best.values().forEach(p -> expected.add(Histories.entryOf(p)));
      multi += expected.size() > 1 ? 1 : 0;
      assertEquals(expected, Histories.of(versions));
      for (int round = 0; round < 5; round++) {
        List<Page> order = new ArrayList<>(versions);
        for (int d = rnd.nextInt(3); d > 0; d--) {
          order.add(versions.get(rnd.nextInt(versions.size())));
        }
        Collections.shuffle(order, rnd);
        List<HistoryEntry> h = List.of();
        for (Page p : order) {
          h = Histories.add(h, p);
        }
        assertEquals(expected, h, e.getKey());
        assertEquals(
            Schedules.of(Histories.crawls(expected), ScheduleConfig.DEFAULT),
            Schedules.of(Histories.crawls(h), ScheduleConfig.DEFAULT));
        // merging two halves in either order
        int cut = rnd.nextInt(order.size() + 1);
        List<HistoryEntry> x = Histories.of(order.subList(0, cut));
        List<HistoryEntry> y = Histories.of(order.subList(cut, order.size()));
        assertEquals(expected, Histories.merge(x, y));
        assertEquals(expected, Histories.merge(y, x));
      }
    }
    assertTrue(multi > 20, "URIs with several crawls: " + multi);
  }

  @Test
  void oneCrawlPerMillisecondTheVersionRecordedFirstWins() {
    Instant t = Instant.parse("2024-01-01T00:00:00.000100Z");
    Page early = Page.of("http://a.com/", "com.a", new PageVersion(t, 5, "z", 9), "x", List.of());
    // a later crawl instant in the same millisecond, but recorded first (batch 1)
    Page laterNs =
        Page.deletion("http://a.com/", "com.a", new PageVersion(t.plusNanos(5), 1, "a", 0));
    Page laterBatch =
        Page.of("http://a.com/", "com.a", new PageVersion(t, 6, "a", 0), "y", List.of());
    List<HistoryEntry> h = Histories.of(List.of(laterBatch, early, laterNs));
    assertEquals(1, h.size());
    assertEquals(CrawlStatus.GONE, h.get(0).crawl().status());
    assertEquals(1_704_067_200_000L, h.get(0).crawl().crawledMillis());
    assertEquals(Histories.entryOf(early), Histories.of(List.of(laterBatch, early)).get(0));
    Page sameBatchEarlierFile =
        Page.of("http://a.com/", "com.a", new PageVersion(t, 5, "a", 99), "w", List.of());
    assertEquals(
        Histories.entryOf(sameBatchEarlierFile),
        Histories.of(List.of(early, sameBatchEarlierFile)).get(0));
  }
}
