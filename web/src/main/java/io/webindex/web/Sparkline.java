package io.webindex.web;

import io.webindex.store.HistoryQuery.UrcPoint;
import java.util.List;
import java.util.Locale;

/**
 * The geometry of a small line chart of a URI's urc series, drawn by the page template as inline
 * SVG (no script): x by the runs' start times, y from the smallest count (bottom) to the largest
 * (top); a series of equal counts is a line across the middle, a single point sits in the middle.
 *
 * @param points the polyline's {@code points} attribute ({@code "x,y x,y …"})
 * @param lastX the newest point's x
 * @param lastY the newest point's y
 * @param min the smallest count
 * @param max the largest count
 */
record Sparkline(String points, String lastX, String lastY, long min, long max) {
  static final int WIDTH = 240;
  static final int HEIGHT = 40;

  /** Room at the edges for the stroke and the newest point's dot. */
  static final int PAD = 4;

  /** The chart of a series ordered oldest first, or null for an empty series. */
  static Sparkline of(List<UrcPoint> series) {
    if (series.isEmpty()) {
      return null;
    }
    long t0 = series.get(0).runMillis();
    long t1 = series.get(series.size() - 1).runMillis();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (UrcPoint p : series) {
      min = Math.min(min, p.urc());
      max = Math.max(max, p.urc());
    }
    StringBuilder sb = new StringBuilder();
    String x = null;
    String y = null;
    for (UrcPoint p : series) {
      double fx =
          t1 == t0
              ? WIDTH / 2.0
              : PAD + (WIDTH - 2.0 * PAD) * (p.runMillis() - t0) / (double) (t1 - t0);
      double fy =
          max == min
              ? HEIGHT / 2.0
              : HEIGHT - PAD - (HEIGHT - 2.0 * PAD) * (p.urc() - min) / (double) (max - min);
      x = format(fx);
      y = format(fy);
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(x).append(',').append(y);
    }
    return new Sparkline(sb.toString(), x, y, min, max);
  }

  /** One decimal, a dot as the separator whatever the locale. */
  private static String format(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
