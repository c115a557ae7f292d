package io.webindex.check.report;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.QuerySchema;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code check.html}: the human-readable form of a {@link CheckReport}.
 *
 * <p>One self-contained HTML5 page — inline CSS and an inline SVG chart, no script, no external
 * resource — written as polyglot markup: every element closed, every attribute quoted, only the
 * five XML entities and numeric character references, so the page also parses as XML. All text from
 * the report is escaped; non-ASCII characters are written as character references (the page is pure
 * ASCII and cannot be misread in a wrong encoding), control characters other than tab and newline
 * are shown as their Unicode control pictures (␁, ␍, …) and characters that HTML and XML cannot
 * carry as U+FFFD. Sampled values longer than {@value #VALUE_LIMIT} characters (details {@value
 * #DETAIL_LIMIT}) are cut and end with an ellipsis; {@code check.json} has them in full.
 */
public final class CheckReportHtml {
  /** Sampled rows, columns and values are cut after this many characters (code points). */
  static final int VALUE_LIMIT = 160;

  /** Sample details are cut after this many characters (code points). */
  static final int DETAIL_LIMIT = 300;

  // the chart (SVG user units = CSS pixels)
  private static final int LABEL_W = 96;
  private static final int PLOT_W = 520;
  private static final int NUMBER_W = 124;
  private static final int CHART_W = LABEL_W + PLOT_W + NUMBER_W;
  private static final int BAR_H = 11;
  private static final int BAR_STEP = 14;
  private static final int GROUP_GAP = 14;
  private static final int TOP = 58;

  private static final String[] SERIES = {"compared", "missing", "extra", "different", "skipped"};
  private static final String[] COLORS = {"#4c78a8", "#d62728", "#ff7f0e", "#9467bd", "#a0a0a0"};

  private static final String CSS =
      """
      body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;\
      margin:0 auto;max-width:72rem;padding:1rem 1.5rem 3rem;color:#1f2328;line-height:1.4}
      h1{font-size:1.6rem;margin:.5rem 0}
      h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem}
      h3{font-size:1.05rem;margin:1.4rem 0 .3rem}
      .verdict{padding:.8rem 1.2rem;border-radius:6px;color:#fff;font-size:1.1rem}
      .verdict strong{font-size:1.6rem;letter-spacing:.05em;margin-right:1rem}
      .consistent{background:#1a7f37}
      .inconsistent{background:#cf222e}
      table{border-collapse:collapse;margin:.4rem 0}
      th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
      thead th,tfoot th,tfoot td{background:#f6f8fa}
      table.facts th{background:#f6f8fa;font-weight:600;white-space:nowrap}
      td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
      td.bad{color:#cf222e;font-weight:600}
      table.samples{width:100%;table-layout:fixed}
      table.samples td{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;\
      font-size:.85rem;white-space:pre-wrap;overflow-wrap:anywhere}
      table.samples col.n{width:2.5rem}
      table.samples col.t{width:5.5rem}
      table.samples col.r{width:4rem}
      .none{color:#8c959f;font-style:italic;font-family:system-ui,sans-serif}
      .note,figcaption{color:#57606a;font-size:.9rem}
      figure{margin:.5rem 0}
      svg{max-width:100%;height:auto}
      footer{margin-top:3rem;color:#57606a;font-size:.85rem}
      """;

  private CheckReportHtml() {}

  public static String toHtml(CheckReport r) {
    Page p = new Page();
    String verdict = ReportFormat.verdict(r);
    p.raw("<!DOCTYPE html>\n");
    p.raw("<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">\n");
    p.raw("<head>\n<meta charset=\"utf-8\"/>\n");
    p.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
    p.element(
        "title",
        "webindex check: " + verdict + " \u2014 " + r.expectedTable() + " vs " + r.actualTable());
    p.raw("\n<style>\n").raw(CSS).raw("</style>\n</head>\n<body>\n");

    p.element("h1", "webindex consistency check").nl();
    verdict(p, r);
    facts(p, r);
    ranges(p, r);
    invariants(p, r);
    seed(p, r);
    samples(p, r);

    p.open("footer").text("Written by webindex check. The same facts, with every sampled value in");
    p.text(" full, are in ").element("code", "check.json").text(" (see docs/check.md).");
    p.close("footer").nl();
    p.raw("</body>\n</html>\n");
    return p.toString();
  }

  private static void verdict(Page p, CheckReport r) {
    boolean ok = r.consistent();
    p.open("div", "id", "verdict", "class", "verdict " + (ok ? "consistent" : "inconsistent"));
    p.element("strong", ReportFormat.verdict(r)).text(" ");
    String differences = plural(r.differences(), "difference", "differences");
    String violations =
        plural(r.invariantViolations(), "invariant violation", "invariant violations");
    p.text(ok ? "no differences and no invariant violations" : differences + ", " + violations);
    p.text(" in " + ReportFormat.number(r.compared()) + " cells compared");
    p.close("div").nl();
  }

  private static void facts(Page p, CheckReport r) {
    p.element("h2", "Run").nl();
    p.open("table", "class", "facts", "id", "facts").nl().open("tbody").nl();
    fact(p, "Verdict", ReportFormat.verdict(r));
    fact(p, "Expected table (batch run)", r.expectedTable());
    fact(p, "Actual table (Fluo)", r.actualTable());
    fact(p, "Run", r.runId());
    fact(
        p,
        "Snapshot",
        "batch " + r.snapshot() + " (the run read batches \u2264 " + r.snapshot() + ")");
    String applied;
    if (r.fluoApplied() < 0) {
      applied = "unknown";
    } else if (r.fluoApplied() > r.snapshot()) {
      applied =
          "batch "
              + r.fluoApplied()
              + " (cells of URIs changed by batches "
              + (r.snapshot() + 1)
              + (r.fluoApplied() > r.snapshot() + 1 ? "\u2013" + r.fluoApplied() : "")
              + " are skipped)";
    } else {
      applied = "batch " + r.fluoApplied();
    }
    fact(p, "Fluo applied", applied);
    if (r.live() != null) {
      fact(p, "Live side", ReportFormat.live(r.live(), r.snapshot()));
    }
    fact(p, "Mode", r.mode());
    fact(p, "Started", r.started().toString());
    fact(p, "Finished", r.finished().toString());
    fact(p, "Duration", ReportFormat.duration(r.millis()) + " (" + r.millis() + " ms)");
    fact(
        p,
        "Cells compared",
        ReportFormat.number(r.compared())
            + " ("
            + ReportFormat.rate(ReportFormat.cellsPerSecond(r))
            + " cells/s), "
            + ReportFormat.number(ReportFormat.skipped(r))
            + " skipped");
    Map<Kind, Long> byKind = ReportFormat.differencesByKind(r);
    fact(
        p,
        "Differences",
        ReportFormat.number(r.differences())
            + " (missing "
            + ReportFormat.number(byKind.get(Kind.MISSING))
            + ", extra "
            + ReportFormat.number(byKind.get(Kind.EXTRA))
            + ", different "
            + ReportFormat.number(byKind.get(Kind.DIFFERENT))
            + ")");
    fact(p, "Invariant violations", ReportFormat.number(r.invariantViolations()));
    p.close("tbody").nl().close("table").nl();
  }

  private static void fact(Page p, String name, String value) {
    p.open("tr").element("th", name);
    p.open("td");
    p.value(value, VALUE_LIMIT);
    p.close("td").close("tr").nl();
  }

  private static void ranges(Page p, CheckReport r) {
    p.element("h2", "Per row range").nl();
    if (r.ranges().isEmpty()) {
      p.element("p", "No row range was compared.", "class", "note").nl();
      return;
    }
    chart(p, r.ranges());

    p.open("table", "id", "range-totals").nl();
    p.open("thead").open("tr").element("th", "Range");
    for (String s : SERIES) {
      p.element("th", s, "class", "num");
    }
    p.element("th", "differences", "class", "num").close("tr").close("thead").nl();
    p.open("tbody").nl();
    for (RangeTotals t : r.ranges()) {
      p.open("tr", "data-range", t.range()).element("th", t.range());
      rangeCells(p, t.compared(), t.missing(), t.extra(), t.different(), t.skipped());
      p.close("tr").nl();
    }
    p.close("tbody").nl();
    RangeTotals all = r.ranges().get(0);
    for (RangeTotals t : r.ranges().subList(1, r.ranges().size())) {
      all = all.plus(t);
    }
    p.open("tfoot").open("tr").element("th", "all");
    rangeCells(p, all.compared(), all.missing(), all.extra(), all.different(), all.skipped());
    p.close("tr").close("tfoot").nl().close("table").nl();
    p.element(
            "p",
            "Compared: cells present in either table. Skipped: cells of URIs changed by batches"
                + " newer than the snapshot, not compared.",
            "class",
            "note")
        .nl();
  }

  private static void rangeCells(
      Page p, long compared, long missing, long extra, long different, long skipped) {
    long differences = missing + extra + different;
    p.element("td", ReportFormat.number(compared), "class", "num");
    for (long n : new long[] {missing, extra, different}) {
      p.element("td", ReportFormat.number(n), "class", n == 0 ? "num" : "num bad");
    }
    p.element("td", ReportFormat.number(skipped), "class", "num");
    p.element(
        "td", ReportFormat.number(differences), "class", differences == 0 ? "num" : "num bad");
  }

  /**
   * Horizontal bars, one group per row range, on a logarithmic axis: a bar's length is proportional
   * to log10(1 + n), so that three differences stay visible next to millions of compared cells.
   */
  private static void chart(Page p, List<RangeTotals> ranges) {
    long max = 1;
    for (RangeTotals t : ranges) {
      max = Math.max(max, Math.max(t.compared(), Math.max(t.skipped(), t.differences())));
      max = Math.max(max, Math.max(t.missing(), Math.max(t.extra(), t.different())));
    }
    int decades = Math.max(1, (int) Math.ceil(Math.log10(max)));
    double top = Math.log10(1 + Math.pow(10, decades));
    int groupH = SERIES.length * BAR_STEP + GROUP_GAP;
    int height = TOP + ranges.size() * groupH + 4;

    p.raw("<figure>\n");
    p.open(
            "svg",
            "xmlns",
            "http://www.w3.org/2000/svg",
            "id",
            "range-chart",
            "width",
            Integer.toString(CHART_W),
            "height",
            Integer.toString(height),
            "viewBox",
            "0 0 " + CHART_W + " " + height,
            "role",
            "img",
            "aria-labelledby",
            "range-chart-title",
            "font-family",
            "sans-serif",
            "font-size",
            "11")
        .nl();
    p.element("title", "Cells per row range (logarithmic scale)", "id", "range-chart-title").nl();

    // legend
    p.open("g", "class", "legend").nl();
    int x = LABEL_W;
    for (int i = 0; i < SERIES.length; i++) {
      p.empty("rect", "x", x, "y", 6, "width", 11, "height", 11, "fill", COLORS[i]);
      p.element("text", SERIES[i], "x", Integer.toString(x + 15), "y", "15").nl();
      x += 100;
    }
    p.close("g").nl();

    // axis: a grid line and a label at 0 and at every power of ten
    p.open("g", "class", "axis", "fill", "#57606a", "text-anchor", "middle").nl();
    for (int d = -1; d <= decades; d++) {
      long value = d < 0 ? 0 : pow10(d);
      int gx = LABEL_W + scaled(value, top);
      p.empty(
          "line",
          "x1",
          gx,
          "y1",
          TOP - 8,
          "x2",
          gx,
          "y2",
          height - 4,
          "stroke",
          "#d0d7de",
          "stroke-width",
          1);
      p.element("text", shortNumber(value), "x", Integer.toString(gx), "y", "42").nl();
    }
    p.close("g").nl();

    int y = TOP;
    for (RangeTotals t : ranges) {
      long[] values = {t.compared(), t.missing(), t.extra(), t.different(), t.skipped()};
      p.open("g", "class", "range", "data-range", t.range()).nl();
      p.element(
              "text",
              t.range(),
              "x",
              Integer.toString(LABEL_W - 10),
              "y",
              Integer.toString(y + (SERIES.length * BAR_STEP) / 2 + 4),
              "text-anchor",
              "end",
              "font-size",
              "13",
              "font-weight",
              "bold")
          .nl();
      for (int i = 0; i < SERIES.length; i++) {
        int by = y + i * BAR_STEP;
        int w = scaled(values[i], top);
        p.open(
            "rect",
            "class",
            "bar " + SERIES[i],
            "x",
            Integer.toString(LABEL_W),
            "y",
            Integer.toString(by),
            "width",
            Integer.toString(w),
            "height",
            Integer.toString(BAR_H),
            "fill",
            COLORS[i]);
        p.element("title", t.range() + " " + SERIES[i] + ": " + ReportFormat.number(values[i]));
        p.close("rect");
        p.element(
                "text",
                ReportFormat.number(values[i]),
                "x",
                Integer.toString(LABEL_W + w + 5),
                "y",
                Integer.toString(by + BAR_H - 1),
                "fill",
                i > 0 && i < 4 && values[i] > 0 ? "#cf222e" : "#1f2328")
            .nl();
      }
      p.close("g").nl();
      y += groupH;
      if (y < height - GROUP_GAP) {
        p.empty(
            "line",
            "x1",
            0,
            "y1",
            y - GROUP_GAP / 2,
            "x2",
            CHART_W,
            "y2",
            y - GROUP_GAP / 2,
            "stroke",
            "#eaeef2",
            "stroke-width",
            1);
      }
    }
    p.close("svg").nl();
    p.element(
            "figcaption",
            "Cells per row range. Bar lengths follow a logarithmic scale, log10(1 + n), so that a"
                + " handful of differences stays visible next to millions of compared cells; an"
                + " empty bar is 0. The exact number is written after every bar and in the table"
                + " below.")
        .nl();
    p.raw("</figure>\n");
  }

  /** The bar length of {@code n} on an axis whose right end is {@code top} (a log10 value). */
  private static int scaled(long n, double top) {
    if (n <= 0) {
      return 0;
    }
    return Math.max(1, (int) Math.round(PLOT_W * Math.log10(1 + (double) n) / top));
  }

  private static long pow10(int d) {
    long v = 1;
    for (int i = 0; i < d; i++) {
      v *= 10;
    }
    return v;
  }

  /** {@code 0}, {@code 1}, {@code 10}, {@code 100}, {@code 1k} … {@code 100k}, {@code 1M} … */
  private static String shortNumber(long v) {
    String[] suffixes = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (v >= 1000 && v % 1000 == 0) {
      v /= 1000;
      i++;
    }
    return v + suffixes[i];
  }

  private static void invariants(Page p, CheckReport r) {
    p.element("h2", "Invariant violations").nl();
    List<String> tables = ReportFormat.invariantTables(r);
    if (tables.isEmpty()) {
      p.element("p", "No invariant violations.", "class", "note").nl();
      return;
    }
    p.open("table", "id", "invariants").nl();
    p.open("thead").open("tr").element("th", "Kind");
    for (String table : tables) {
      p.element("th", table, "class", "num");
    }
    p.element("th", "Meaning").close("tr").close("thead").nl();
    p.open("tbody").nl();
    for (Kind k : ReportFormat.invariantKinds()) {
      p.open("tr", "data-kind", k.name()).element("th", k.name());
      for (String table : tables) {
        long n = r.invariants().get(table).getOrDefault(k, 0L);
        p.element("td", ReportFormat.number(n), "class", n == 0 ? "num" : "num bad");
      }
      p.element("td", meaning(k)).close("tr").nl();
    }
    p.close("tbody").nl();
    p.open("tfoot").open("tr").element("th", "all");
    for (String table : tables) {
      long n = r.invariants().get(table).values().stream().mapToLong(Long::longValue).sum();
      p.element("td", ReportFormat.number(n), "class", n == 0 ? "num" : "num bad");
    }
    p.element("td", "").close("tr").close("tfoot").nl().close("table").nl();
    p.element(
            "p",
            "Tables: expected = " + r.expectedTable() + ", actual = " + r.actualTable() + ".",
            "class",
            "note")
        .nl();
  }

  private static void seed(Page p, CheckReport r) {
    p.element("h2", "Fluo table against the run's Fluo seed").nl();
    CheckReport.SeedComparison s = r.fluoSeed();
    if (s == null) {
      p.element("p", "Not compared.", "class", "note", "id", "fluo-seed").nl();
      return;
    }
    p.open("table", "id", "fluo-seed").nl();
    p.open("thead").open("tr").element("th", "Seed");
    for (String name : SERIES) {
      p.element("th", name, "class", "num");
    }
    p.element("th", "differences", "class", "num").close("tr").close("thead").nl();
    p.open("tbody").open("tr").open("td");
    p.value(s.seedDir(), VALUE_LIMIT);
    p.close("td");
    rangeCells(p, s.compared(), s.missing(), s.extra(), s.different(), s.skipped());
    p.close("tr").close("tbody").nl().close("table").nl();
    p.element(
            "p",
            "The Fluo table's p:, um: and dm: entries against the seed the batch run wrote for it.",
            "class",
            "note")
        .nl();
  }

  private static void samples(Page p, CheckReport r) {
    p.element("h2", "Samples").nl();
    Map<Kind, List<Finding>> byKind = new EnumMap<>(Kind.class);
    for (Finding f : r.samples()) {
      byKind.computeIfAbsent(f.kind(), k -> new ArrayList<>()).add(f);
    }
    if (byKind.isEmpty()) {
      p.element(
              "p",
              r.consistent() ? "Nothing to show: the tables agree." : "No samples were recorded.",
              "class",
              "note")
          .nl();
      return;
    }
    p.open("p", "class", "note").text("Kinds: ");
    boolean first = true;
    for (Map.Entry<Kind, List<Finding>> e : byKind.entrySet()) {
      if (!first) {
        p.text(", ");
      }
      first = false;
      p.element("a", e.getKey().name(), "href", "#samples-" + e.getKey().name());
      p.text(" (" + e.getValue().size() + ")");
    }
    p.text(". Values longer than " + VALUE_LIMIT + " characters are cut (\u2026).");
    p.close("p").nl();

    for (Map.Entry<Kind, List<Finding>> e : byKind.entrySet()) {
      Kind k = e.getKey();
      List<Finding> list = e.getValue();
      long total = ReportFormat.count(r, k);
      p.open("section", "class", "kind", "id", "samples-" + k.name()).nl();
      p.element(
              "h3",
              k.name()
                  + " \u2014 "
                  + list.size()
                  + (total >= list.size() ? " of " + ReportFormat.number(total) : "")
                  + " shown")
          .nl();
      p.element("p", meaning(k), "class", "note").nl();
      p.open("table", "class", "samples").nl();
      p.raw("<colgroup><col class=\"n\"/><col class=\"t\"/><col class=\"r\"/><col/><col/><col/>");
      p.raw("<col/><col/></colgroup>\n");
      p.open("thead").open("tr");
      for (String h : new String[] {"#", "table", "range", "row", "column"}) {
        p.element("th", h);
      }
      for (String h : new String[] {"expected", "actual", "detail"}) {
        p.element("th", h);
      }
      p.close("tr").close("thead").nl().open("tbody").nl();
      int i = 0;
      for (Finding f : list) {
        p.open("tr", "class", "sample", "data-kind", k.name());
        p.element("td", Integer.toString(++i));
        cell(p, f.table(), VALUE_LIMIT);
        cell(p, f.range(), VALUE_LIMIT);
        cell(p, DumpFormat.readableRow(f.row()), VALUE_LIMIT);
        cell(p, DumpFormat.readableColumn(f.column()), VALUE_LIMIT);
        cell(p, f.expected(), VALUE_LIMIT);
        cell(p, f.actual(), VALUE_LIMIT);
        cell(p, f.detail(), DETAIL_LIMIT);
        p.close("tr").nl();
      }
      p.close("tbody").nl().close("table").nl().close("section").nl();
    }
  }

  private static void cell(Page p, String value, int limit) {
    p.open("td");
    p.value(value, limit);
    p.close("td");
  }

  private static String meaning(Kind k) {
    return switch (k) {
      case MISSING ->
          "A cell of the expected table (the batch run) is not in the actual one (Fluo).";
      case EXTRA -> "A cell of the actual table (Fluo) is not in the expected one (the batch run).";
      case DIFFERENT -> "A cell is in both tables with different values.";
      case PAGECOUNT_MISMATCH ->
          QuerySchema.PAGECOUNT_COLUMN + " is not the number of rank columns of its row.";
      case INCOUNT_MISMATCH ->
          QuerySchema.INCOUNT_COLUMN + " is not the number of inlinks columns of its row.";
      case INCOUNT_MISSING -> "A row with inlinks or page:cur but without page:incount.";
      case TOTAL_MISSING -> "A seen URI (it has page:incount) without its t: row.";
      case TOTAL_MISMATCH -> "A t: row whose count is not the URI's incount, or a URI with two.";
      case RANK_MISSING -> "A seen URI without its rank column in its domain's row.";
      case RANK_MISMATCH ->
          "A rank column whose count is not the URI's incount, a URI with two, or one in the"
              + " wrong domain's row.";
      case ORPHAN -> "A t: row or rank column of a URI that has no page:incount.";
      case HISTORY_CRAWLS_MISMATCH ->
          "History table: sched: counts other crawls than the crawl: versions kept (under the"
              + " limit), or another first crawl, number of changes or last change than they"
              + " show.";
      case HISTORY_LAST_MISMATCH ->
          "History table: the schedule's last crawl is not the newest crawl: version.";
      case SCHEDULE_MISMATCH ->
          "History table: the schedule breaks its rule (interval bounds, or next fetch other than"
              + " the reference time plus the interval).";
      case SCHEDULE_MISSING ->
          "History table: crawl: versions without a sched: cell, or a sched: cell without them.";
      case FRONTIER_DUPLICATE ->
          "Frontier table: a URI with more than one cell (it has one due time and one priority).";
      case MALFORMED -> "A cell whose row, column or value the schema codec cannot parse.";
    };
  }

  private static String plural(long n, String one, String many) {
    return ReportFormat.number(n) + " " + (n == 1 ? one : many);
  }

  /** The page being written: markup is appended raw, text always through {@link #escape}. */
  private static final class Page {
    private final StringBuilder out = new StringBuilder(32_768);

    Page raw(String markup) {
      out.append(markup);
      return this;
    }

    Page nl() {
      out.append('\n');
      return this;
    }

    Page text(String text) {
      escape(text, false, out);
      return this;
    }

    /** A start tag; {@code attributes} are name, value, name, value, … */
    Page open(String tag, Object... attributes) {
      out.append('<').append(tag);
      for (int i = 0; i < attributes.length; i += 2) {
        out.append(' ').append(attributes[i]).append("=\"");
        escape(String.valueOf(attributes[i + 1]), true, out);
        out.append('"');
      }
      out.append('>');
      return this;
    }

    Page close(String tag) {
      out.append("</").append(tag).append('>');
      return this;
    }

    /** An element with text content. */
    Page element(String tag, String text, Object... attributes) {
      return open(tag, attributes).text(text).close(tag);
    }

    /** An empty SVG element, written self-closed. */
    Page empty(String tag, Object... attributes) {
      open(tag, attributes);
      out.setLength(out.length() - 1);
      out.append("/>");
      return this;
    }

    /** A value of the report: null and empty shown as such, long ones cut with an ellipsis. */
    Page value(String value, int limit) {
      if (value == null) {
        return element("span", "none", "class", "none");
      }
      if (value.isEmpty()) {
        return element("span", "empty", "class", "none");
      }
      int length = value.codePointCount(0, value.length());
      if (length <= limit) {
        return text(value);
      }
      String cut = value.substring(0, value.offsetByCodePoints(0, limit));
      text(cut + "\u2026");
      String more = String.format(Locale.ROOT, " [%,d characters in all]", length);
      return element("span", more, "class", "none");
    }

    @Override
    public String toString() {
      return out.toString();
    }
  }

  /**
   * Appends {@code s} escaped for HTML and XML text or (with {@code attribute}) a double-quoted
   * attribute value.
   */
  static void escape(String s, boolean attribute, StringBuilder out) {
    if (s == null) {
      return;
    }
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        case '\t' -> out.append(attribute ? "&#9;" : "\t");
        case '\n' -> out.append(attribute ? "&#10;" : "\n");
        default -> {
          if (c >= 0x20 && c < 0x7f) {
            out.append((char) c);
          } else if (c < 0x20) {
            out.append("&#x").append(Integer.toHexString(0x2400 + c)).append(';');
          } else if (c == 0x7f) {
            out.append("&#x2421;");
          } else if (c < 0xa0 || (c >= 0xd800 && c <= 0xdfff) || isNonCharacter(c)) {
            out.append("&#xfffd;");
          } else {
            out.append("&#x").append(Integer.toHexString(c)).append(';');
          }
        }
      }
    }
  }

  private static boolean isNonCharacter(int c) {
    return (c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe;
  }
}
