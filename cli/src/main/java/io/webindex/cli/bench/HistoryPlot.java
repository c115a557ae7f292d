package io.webindex.cli.bench;

import io.webindex.cli.bench.BenchFigures.Figure;
import io.webindex.cli.bench.BenchHistory.Run;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The bench's history drawn: a self-contained HTML page (inline SVG, no script, nothing fetched)
 * with a table of the runs and one chart per figure any run measured. The runs go along x in the
 * order they were appended (labelled with the date and the short commit), the figure along y from
 * zero; one line per input size; a point whose stage's guard failed is a red ring with a cross, and
 * a run that failed with an error has a dashed red line across every chart (its figures from the
 * stages before are drawn).
 *
 * <p>The page is well-formed XML (XHTML), so a test can read it as such.
 */
final class HistoryPlot {
  static final int WIDTH = 720;
  static final int HEIGHT = 260;
  private static final int LEFT = 72;
  private static final int RIGHT = 16;
  private static final int TOP = 24;
  private static final int BOTTOM = 46;

  /** The inset of the first and last run from the plot's sides: half a label. */
  private static final int INSET = 40;

  /** The room a label needs along x. */
  private static final int LABEL_WIDTH = 86;

  private static final String[] COLOURS = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#7f7f7f", "#bcbd22"
  };
  private static final String FAIL = "#d62728";

  private HistoryPlot() {}

  /** The page for these runs, in their order. */
  static String html(List<Run> runs) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
        .append("<meta charset=\"utf-8\"/>\n<title>webindex bench history</title>\n<style>\n")
        .append("body{font-family:sans-serif;margin:1em 2em;color:#222}")
        .append("table{border-collapse:collapse;font-size:12px}")
        .append("td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}")
        .append("section{display:inline-block;margin:0 1em 1em 0;vertical-align:top}")
        .append("h2{font-size:15px;margin:0.6em 0 0.1em}")
        .append("p.what{font-size:12px;margin:0 0 0.3em;color:#555}")
        .append(".failed{color:" + FAIL + "}")
        .append("svg text{font-size:11px;font-family:sans-serif}\n")
        .append("</style>\n</head>\n<body>\n<h1>webindex bench history</h1>\n");
    h.append("<p>")
        .append(runs.size())
        .append(runs.size() == 1 ? " run" : " runs")
        .append(", oldest first. One chart per figure; one line per input size. ")
        .append("A red ring with a cross: that stage's guard failed in that run. ")
        .append("A dashed red line: the run failed with an error (figures of the stages before")
        .append(" it are drawn). Hover a point for its run and value.</p>\n");
    runTable(h, runs);
    Map<String, Integer> series = series(runs);
    for (Figure f : BenchFigures.FIGURES) {
      if (runs.stream().anyMatch(r -> r.figures().containsKey(f.name()))) {
        chart(h, f, runs, series);
      }
    }
    h.append("</body>\n</html>\n");
    return h.toString();
  }

  private static void runTable(StringBuilder h, List<Run> runs) {
    h.append("<table class=\"runs\">\n<tr><th>#</th><th>when</th><th>commit</th><th>command</th>")
        .append("<th>input</th><th>machine</th><th>result</th></tr>\n");
    for (int i = 0; i < runs.size(); i++) {
      Run r = runs.get(i);
      h.append("<tr data-run=\"")
          .append(i + 1)
          .append("\"><td>")
          .append(i + 1)
          .append("</td><td>")
          .append(esc(r.when()))
          .append("</td><td>")
          .append(esc(r.commit()))
          .append("</td><td>")
          .append(esc(r.command()))
          .append("</td><td>")
          .append(esc(r.input()))
          .append("</td><td>")
          .append(esc(r.machine()))
          .append("</td><td")
          .append(r.failed() ? " class=\"failed\">" : ">")
          .append(esc(result(r)))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  /** What a run came to, in words. */
  static String result(Run r) {
    List<String> parts = new ArrayList<>();
    if (r.failure() != null) {
      parts.add("failed in " + r.failure().stage() + ": " + r.failure().message());
    }
    if (!r.failedGuards().isEmpty()) {
      parts.add("guard failed: " + String.join(", ", r.failedGuards()));
    }
    if (parts.isEmpty()) {
      return r.failed() ? "failed" : "passed";
    }
    return String.join("; ", parts);
  }

  /** The input sizes in the order they first appear, each with its colour's index. */
  private static Map<String, Integer> series(List<Run> runs) {
    Map<String, Integer> s = new LinkedHashMap<>();
    for (Run r : runs) {
      s.putIfAbsent(r.input(), s.size());
    }
    return s;
  }

  private static void chart(StringBuilder h, Figure f, List<Run> runs, Map<String, Integer> all) {
    double max = 0;
    for (Run r : runs) {
      max = Math.max(max, r.figures().getOrDefault(f.name(), 0.0));
    }
    double step = niceStep(max <= 0 ? 1 : max * 1.05 / 4);
    double top = Math.max(step, Math.ceil(max * 1.05 / step) * step);
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    h.append("<section class=\"figure\" id=\"")
        .append(esc(f.name()))
        .append("\">\n<h2>")
        .append(esc(f.name()))
        .append(" (")
        .append(esc(f.unit()))
        .append(") — ")
        .append(f.better() == BenchFigures.Better.HIGHER ? "↑ " : "↓ ")
        .append(f.better().words)
        .append("</h2>\n<p class=\"what\">")
        .append(esc(f.what()))
        .append("</p>\n");
    h.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" role=\"img\">\n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    // y axis: ticks from zero
    for (double v = 0; v <= top + step / 2; v += step) {
      double y = TOP + plotH - v / top * plotH;
      h.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
                  + "<text class=\"y-tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
              LEFT,
              y,
              LEFT + plotW,
              y,
              LEFT - 6,
              y + 4,
              number(v)));
    }
    h.append(
        String.format(
            Locale.ROOT,
            "<text class=\"y-unit\" x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\""
                + " text-anchor=\"middle\">%s</text>\n",
            TOP + plotH / 2,
            TOP + plotH / 2,
            esc(f.unit())));
    h.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>"
                + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n",
            LEFT,
            TOP,
            LEFT,
            TOP + plotH,
            LEFT,
            TOP + plotH,
            LEFT + plotW,
            TOP + plotH));
    // x axis: every run, labelled (every k-th when there are more than fit), failed runs marked
    int fit = Math.max(1, (plotW - 2 * INSET) / LABEL_WIDTH + 1);
    int every = Math.max(1, (runs.size() + fit - 1) / fit);
    for (int i = 0; i < runs.size(); i++) {
      Run r = runs.get(i);
      double x = x(i, runs.size(), plotW);
      if (r.failure() != null) {
        h.append(
            String.format(
                Locale.ROOT,
                "<line class=\"run-failed\" data-run=\"%d\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\""
                    + " y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"4 3\"><title>%s</title></line>\n",
                i + 1,
                x,
                TOP,
                x,
                TOP + plotH,
                FAIL,
                esc("run " + (i + 1) + ": " + result(r))));
      }
      if (i % every == 0) {
        int ly = TOP + plotH + 16;
        String[] label = label(r);
        h.append(
            String.format(
                Locale.ROOT,
                "<text class=\"x-label\" data-run=\"%d\" x=\"%.1f\" y=\"%d\""
                    + " text-anchor=\"middle\"%s><tspan x=\"%.1f\">%s</tspan>"
                    + "<tspan x=\"%.1f\" dy=\"13\">%s</tspan></text>\n",
                i + 1,
                x,
                ly,
                r.failed() ? " fill=\"" + FAIL + "\"" : "",
                x,
                esc(label[0]),
                x,
                esc(label[1])));
      }
    }
    // one line per input size, through the runs that measured the figure
    for (Map.Entry<String, Integer> s : all.entrySet()) {
      List<int[]> idx = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        if (runs.get(i).input().equals(s.getKey()) && runs.get(i).figures().containsKey(f.name())) {
          idx.add(new int[] {i});
        }
      }
      if (idx.isEmpty()) {
        continue;
      }
      String colour = COLOURS[s.getValue() % COLOURS.length];
      h.append("<g class=\"series\" data-series=\"").append(esc(s.getKey())).append("\">\n");
      StringBuilder pts = new StringBuilder();
      for (int[] i : idx) {
        double v = runs.get(i[0]).figures().get(f.name());
        pts.append(
            String.format(
                Locale.ROOT,
                "%s%.1f,%.1f",
                pts.length() == 0 ? "" : " ",
                x(i[0], runs.size(), plotW),
                y(v, top, plotH)));
      }
      h.append("<polyline fill=\"none\" stroke=\"")
          .append(colour)
          .append("\" stroke-width=\"1.5\" points=\"")
          .append(pts)
          .append("\"/>\n");
      for (int[] i : idx) {
        Run r = runs.get(i[0]);
        double v = r.figures().get(f.name());
        boolean guardFailed =
            r.failedGuards().stream()
                .anyMatch(g -> g.equals(f.stage()) || g.startsWith(f.stage() + "."));
        double px = x(i[0], runs.size(), plotW);
        double py = y(v, top, plotH);
        String title =
            esc(
                "run "
                    + (i[0] + 1)
                    + ", "
                    + String.join(" ", label(r))
                    + ", "
                    + r.input()
                    + ": "
                    + number(v)
                    + " "
                    + f.unit()
                    + (guardFailed
                        ? " (guard failed: " + String.join(", ", r.failedGuards()) + ")"
                        : ""));
        h.append(
            String.format(
                Locale.ROOT,
                "<circle class=\"%s\" data-run=\"%d\" data-value=\"%s\" cx=\"%.1f\" cy=\"%.1f\""
                    + " r=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"><title>%s</title>"
                    + "</circle>\n",
                guardFailed ? "point guard-failed" : "point",
                i[0] + 1,
                number(v),
                px,
                py,
                guardFailed ? "6" : "3.5",
                guardFailed ? "none" : colour,
                guardFailed ? FAIL : colour,
                guardFailed ? "2" : "1",
                title));
        if (guardFailed) {
          h.append(
              String.format(
                  Locale.ROOT,
                  "<path d=\"M%.1f,%.1f l8,8 m0,-8 l-8,8\" stroke=\"%s\" stroke-width=\"2\"/>\n",
                  px - 4,
                  py - 4,
                  FAIL));
        }
      }
      h.append("</g>\n");
    }
    // the legend: the input sizes drawn in this chart
    int lx = LEFT + 8;
    for (Map.Entry<String, Integer> s : all.entrySet()) {
      boolean drawn =
          runs.stream()
              .anyMatch(r -> r.input().equals(s.getKey()) && r.figures().containsKey(f.name()));
      if (!drawn) {
        continue;
      }
      String colour = COLOURS[s.getValue() % COLOURS.length];
      h.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  + "<text class=\"legend\" x=\"%d\" y=\"%d\">%s</text>\n",
              lx,
              4,
              colour,
              lx + 14,
              13,
              esc(s.getKey())));
      lx += 24 + 7 * s.getKey().length();
    }
    h.append("</svg>\n</section>\n");
  }

  /** A run's x label, two lines: the day it started, then the time (UTC) and its short commit. */
  static String[] label(Run r) {
    String when = r.when();
    String commit = r.commit().length() > 7 ? r.commit().substring(0, 7) : r.commit();
    if (when.length() >= 16 && when.charAt(10) == 'T') {
      return new String[] {when.substring(0, 10), when.substring(11, 16) + " " + commit};
    }
    return new String[] {when, commit};
  }

  private static double x(int i, int n, int plotW) {
    return n == 1 ? LEFT + plotW / 2.0 : LEFT + INSET + i * (plotW - 2.0 * INSET) / (n - 1);
  }

  private static double y(double v, double top, int plotH) {
    return TOP + plotH - v / top * plotH;
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  static double niceStep(double raw) {
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= raw * (1 - 1e-9)) {
        return m * p;
      }
    }
    return 10 * p;
  }

  /** A number as the page shows it: whole numbers without decimals, others with up to three. */
  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%,d", (long) v);
    }
    String s = String.format(Locale.ROOT, "%,.3f", v);
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  /** Text for XHTML: the five characters XML reserves, escaped. */
  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t') {
            b.append(' ');
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
