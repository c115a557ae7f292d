package io.webindex.check.report;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Check reports for the report tests and the example in docs/. */
final class CheckReportFixtures {
  static final String RUN = "20261121030000";

  private CheckReportFixtures() {}

  /**
   * A realistic inconsistent check: the Fluo table lost a few updates of batches ≤ 41 (a missing
   * inlink and its counts, a stale page), one page of a later batch is skipped, two domain page
   * counts lag behind.
   */
  static CheckReport inconsistent() {
    List<RangeTotals> ranges =
        List.of(
            new RangeTotals("d:", 48_213, 0, 0, 2, 3),
            new RangeTotals("p:", 9_876_543, 3, 1, 5, 1_204),
            new RangeTotals("t:", 1_309_811, 1, 1, 0, 407),
            new RangeTotals("other", 0, 0, 0, 0, 0));
    Map<Kind, Long> actual = new EnumMap<>(Kind.class);
    actual.put(Kind.PAGECOUNT_MISMATCH, 2L);
    actual.put(Kind.TOTAL_MISMATCH, 1L);
    String newPage =
        "{\"url\":\"http://www.example.com/\",\"crawled\":\"2026-11-19T08:15:00Z\","
            + "\"title\":\"Example \u2013 \u00dcber uns & \\\"Kontakt\\\"\",\"outlinkcount\":3,"
            + "\"outlinks\":[{\"url\":\"http://www.example.com/about\",\"anchor\":\"About\"},"
            + "{\"url\":\"http://shop.example.com/\",\"anchor\":\"Shop <new>\"},"
            + "{\"url\":\"http://en.wikipedia.org/wiki/Accumulo\",\"anchor\":\"Accumulo\"}]}";
    String oldPage =
        "{\"url\":\"http://www.example.com/\",\"crawled\":\"2026-11-12T22:03:10Z\","
            + "\"title\":\"Example \u2013 \u00dcber uns\",\"outlinkcount\":2,"
            + "\"outlinks\":[{\"url\":\"http://www.example.com/about\",\"anchor\":\"About\"},"
            + "{\"url\":\"http://en.wikipedia.org/wiki/Accumulo\",\"anchor\":\"Accumulo\"}]}";
    List<Finding> samples =
        List.of(
            new Finding(
                Kind.MISSING,
                "both",
                "p:",
                "p:org.wikipedia.en/wiki/Accumulo",
                "inlinks:com.example.www",
                "Accumulo",
                null,
                null),
            new Finding(
                Kind.MISSING,
                "both",
                "p:",
                "p:com.example.shop",
                "inlinks:com.example.www",
                "Shop <new>",
                null,
                null),
            new Finding(
                Kind.MISSING,
                "both",
                "t:",
                "t:7fffffffffffffed:org.wikipedia.en/wiki/Accumulo",
                ":",
                "18",
                null,
                null),
            new Finding(
                Kind.EXTRA,
                "both",
                "t:",
                "t:7fffffffffffffee:org.wikipedia.en/wiki/Accumulo",
                ":",
                null,
                "17",
                null),
            new Finding(
                Kind.EXTRA,
                "both",
                "p:",
                "p:com.example.shop/cart?id=9",
                "page:incount",
                null,
                "0",
                "URI not seen by the batch run"),
            new Finding(
                Kind.DIFFERENT,
                "both",
                "p:",
                "p:com.example.www",
                "page:cur",
                newPage,
                oldPage,
                "crawled 2026-11-19T08:15:00Z (batch 40) vs 2026-11-12T22:03:10Z (batch 37)"),
            new Finding(
                Kind.DIFFERENT,
                "both",
                "p:",
                "p:org.wikipedia.en/wiki/Accumulo",
                "page:incount",
                "18",
                "17",
                null),
            new Finding(
                Kind.DIFFERENT,
                "both",
                "d:",
                "d:org.wikipedia.en",
                "domain:pagecount",
                "18402",
                "18400",
                null),
            new Finding(
                Kind.PAGECOUNT_MISMATCH,
                "actual",
                "d:",
                "d:org.wikipedia.en",
                "domain:pagecount",
                "18402",
                "18400",
                "18402 rank columns"),
            new Finding(
                Kind.TOTAL_MISMATCH,
                "actual",
                "t:",
                "t:7fffffffffffffee:org.wikipedia.en/wiki/Accumulo",
                ":",
                "18",
                "17",
                "page:incount of org.wikipedia.en/wiki/Accumulo is 18"));
    return new CheckReport(
        "webindex_" + RUN,
        "webindex",
        RUN,
        41,
        43,
        "mapreduce",
        Instant.parse("2026-11-21T03:20:00Z"),
        Instant.parse("2026-11-21T03:32:03.456Z"),
        ranges,
        Map.of("expected", Map.of(), "actual", actual),
        new CheckReport.SeedComparison(
            "hdfs://nn:8020/webindex/runs/" + RUN + "/sorted/fluo", 3_456_789, 0, 1, 2, 611),
        samples);
  }

  /** A consistent check of a small table, one process, no seed comparison. */
  static CheckReport consistent() {
    return new CheckReport(
        "webindex_20261121040000",
        "webindex",
        "20261121040000",
        7,
        7,
        "scanner",
        Instant.parse("2026-11-21T04:10:00Z"),
        Instant.parse("2026-11-21T04:10:02.500Z"),
        List.of(
            new RangeTotals("d:", 9, 0, 0, 0, 0),
            new RangeTotals("p:", 23, 0, 0, 0, 0),
            new RangeTotals("t:", 6, 0, 0, 0, 0)),
        Map.of("expected", Map.of(), "actual", Map.of()),
        null,
        List.of());
  }

  /** Text meant to break a page: markup, entities, quotes, whitespace, controls, non-ASCII. */
  static final String HOSTILE =
      "<script>alert(\"x&y\")</script>\t'quoted' & \"double\"\nline 2\r\n"
          + "caf\u00e9 \u65e5\u672c \ud83d\ude00 \u0001\u007f\u0085 </td></tr></table>]]>";

  /** A report whose every free-text field is hostile. */
  static CheckReport hostile() {
    String longValue = "x<&>\"".repeat(200);
    return new CheckReport(
        "exp<&>\"'table",
        "act</title><script>alert(1)</script>",
        "run\"1",
        3,
        -1,
        "<b>mode</b>",
        Instant.parse("2026-11-21T05:00:00Z"),
        Instant.parse("2026-11-21T05:00:00Z"),
        List.of(new RangeTotals("<g>&amp;", 10, 1, 0, 0, 0)),
        Map.of("<table>", Map.of(Kind.MALFORMED, 1L)),
        new CheckReport.SeedComparison(HOSTILE, 1, 0, 0, 0, 0),
        List.of(
            new Finding(Kind.MISSING, "both", "<g>&amp;", HOSTILE, HOSTILE, HOSTILE, null, HOSTILE),
            new Finding(Kind.MALFORMED, "<table>", "p:", "p:x", "", longValue, "", HOSTILE)));
  }
}
