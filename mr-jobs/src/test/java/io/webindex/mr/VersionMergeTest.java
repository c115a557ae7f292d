package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.history.HistoryEntry;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.TimedCell;
import io.webindex.mr.io.PageWritable;
import io.webindex.mr.io.RefWritable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.Writable;
import org.junit.jupiter.api.Test;

/**
 * The latest-version job's merge keeps the full crawl history however Hadoop splits the versions of
 * a URL over combiner runs, and the per-URI job's urc series. Expected histories are computed here
 * with the rule written out (one crawl per millisecond; in a millisecond the version recorded
 * first: batch, file, offset), not with core's {@code Histories}.
 */
class VersionMergeTest {
  private static final String URL = "http://a.com/x";
  private static final String KEY = "com.a/x";

  private static <W extends Writable> W roundTrip(W w, W fresh) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    w.write(new DataOutputStream(bytes));
    fresh.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    return fresh;
  }

  /**
   * A random version: crawl times over a few ms with sub-ms parts, so ms collide often; (batch,
   * file, offset) names one record, so the offset is unique per version.
   */
  private static Page version(Random rnd, int i) {
    Instant at =
        Instant.ofEpochMilli(1_700_000_000_000L + rnd.nextInt(6)).plusNanos(rnd.nextInt(3) * 1000);
    PageVersion v =
        new PageVersion(at, rnd.nextInt(3), "part-" + rnd.nextInt(2), i * 10L + rnd.nextInt(2));
    if (rnd.nextInt(4) == 0) {
      return Page.deletion(URL, KEY, v);
    }
    List<Link> links = new ArrayList<>();
    for (int k = 0; k < rnd.nextInt(4); k++) {
      links.add(new Link("http://b.com/" + k, "com.b/" + k, "a" + k));
    }
    return Page.of(URL, KEY, v, "t" + i, links, "sha1:V" + i);
  }

  /** -1, 0, 1 by crawl instant, batch, file, offset: written out here. */
  private static int order(PageVersion a, PageVersion b) {
    int c = a.crawled().compareTo(b.crawled());
    if (c == 0) {
      c = Long.compare(a.batch(), b.batch());
    }
    if (c == 0) {
      c = a.file().compareTo(b.file());
    }
    if (c == 0) {
      c = Long.compare(a.offset(), b.offset());
    }
    return c;
  }

  /** -1, 0, 1 by where the version was recorded: batch, file, offset (the crawl ms's winner). */
  private static int recorded(PageVersion a, PageVersion b) {
    int c = Long.compare(a.batch(), b.batch());
    if (c == 0) {
      c = a.file().compareTo(b.file());
    }
    if (c == 0) {
      c = Long.compare(a.offset(), b.offset());
    }
    return c;
  }

  /** The expected history as {@code ms status signature outlinks batch file offset} lines. */
  private static List<String> expected(List<Page> versions) {
    java.util.TreeMap<Long, Page> best = new java.util.TreeMap<>();
    for (Page p : versions) {
      long ms = p.version().crawled().toEpochMilli();
      Page held = best.get(ms);
      if (held == null || recorded(p.version(), held.version()) < 0) {
        best.put(ms, p);
      }
    }
    List<String> out = new ArrayList<>();
    best.forEach(
        (ms, p) ->
            out.add(
                ms
                    + " "
                    + (p.deleted() ? "gone" : "ok")
                    + " "
                    + p.signature()
                    + " "
                    + p.links().size()
                    + " "
                    + p.version()));
    return out;
  }

  private static List<String> lines(List<HistoryEntry> history) {
    List<String> out = new ArrayList<>();
    for (HistoryEntry e : history) {
      out.add(
          e.crawl().crawledMillis()
              + " "
              + e.crawl().status().code()
              + " "
              + e.crawl().signature()
              + " "
              + e.crawl().outlinks()
              + " "
              + e.version());
    }
    return out;
  }

  @Test
  void anySplitOverCombinerRunsGivesTheFullHistory() throws IOException {
    Random rnd = new Random(23);
    for (int round = 0; round < 300; round++) {
      int n = 1 + rnd.nextInt(12);
      List<Page> versions = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        versions.add(version(rnd, i));
      }
      List<PageWritable> values = new ArrayList<>();
      for (Page p : versions) {
        values.add(new PageWritable(p));
      }
      // combiner runs over random groups of values, each result serialized as the shuffle does
      while (values.size() > 1 && rnd.nextBoolean()) {
        Collections.shuffle(values, rnd);
        int k = 1 + rnd.nextInt(values.size());
        VersionMerge.Result part = VersionMerge.of(values.subList(0, k));
        List<PageWritable> next = new ArrayList<>(values.subList(k, values.size()));
        next.add(roundTrip(new PageWritable(part.latest(), part.others()), new PageWritable()));
        values = next;
      }
      Collections.shuffle(values, rnd);
      VersionMerge.Result r = VersionMerge.of(values);
      Page latest = versions.get(0);
      for (Page p : versions) {
        if (order(p.version(), latest.version()) > 0) {
          latest = p;
        }
      }
      assertEquals(latest.version(), r.latest().version());
      List<String> want = expected(versions);
      assertEquals(want, lines(r.full()), "round " + round);
      // the latest's own crawl travels with it unless a version recorded before it won its ms
      boolean latestWonItsMs =
          r.full().stream().anyMatch(e -> e.version().equals(r.latest().version()));
      assertEquals(want.size() - (latestWonItsMs ? 1 : 0), r.others().size());
      // through the per-URI job's reference, as job 1 writes it
      RefWritable ref = roundTrip(RefWritable.current(r.latest(), r.others()), new RefWritable());
      assertEquals(r.latest().version(), ref.page().version());
      assertEquals(lines(r.others()), lines(ref.others()));
    }
  }

  @Test
  void urcSeriesKeepsTheNewestPointsAndThisRunsPointWins() {
    long[] old = {3000, 7, 1000, 5, 2000, 6};
    List<String> four =
        UriJob.urcSeries(KEY, old, true, 4000, 9, 4).stream().map(DumpFormat::line).toList();
    assertEquals(
        List.of(
            KEY + "\turc:\t@1970-01-01T00:00:04.000Z\t9",
            KEY + "\turc:\t@1970-01-01T00:00:03.000Z\t7",
            KEY + "\turc:\t@1970-01-01T00:00:02.000Z\t6",
            KEY + "\turc:\t@1970-01-01T00:00:01.000Z\t5"),
        four);
    List<TimedCell> two = UriJob.urcSeries(KEY, old, true, 3000, 8, 2);
    assertEquals(List.of(3000L, 2000L), two.stream().map(TimedCell::timestamp).toList());
    assertEquals("8", two.get(0).value(), "this run's point replaces one at the same time");
    List<TimedCell> unseen = UriJob.urcSeries(KEY, old, false, 4000, 0, 16);
    assertEquals(List.of(3000L, 2000L, 1000L), unseen.stream().map(TimedCell::timestamp).toList());
    assertEquals(List.of(), UriJob.urcSeries(KEY, new long[0], false, 4000, 0, 16));
  }

  @Test
  void urcPointsTravelAndOddPointsAreRefused() throws IOException {
    RefWritable r =
        roundTrip(new RefWritable().urcPoints(new long[] {5, 1, -3, 0}), new RefWritable());
    assertEquals(RefWritable.Kind.URC_POINTS, r.kind());
    assertArrayEquals(new long[] {5, 1, -3, 0}, r.points());
    assertThrows(IllegalArgumentException.class, () -> new RefWritable().urcPoints(new long[] {1}));
  }

  @Test
  void scheduleConstantsSurviveTheJobConfiguration() {
    io.webindex.core.history.ScheduleConfig s =
        new io.webindex.core.history.ScheduleConfig(
            3600, 60, 86_400, 0.1, 0.30000000000000004, false, 0.7);
    assertEquals(s, UriJob.decodeSchedule(UriJob.encodeSchedule(s)));
  }
}
