package io.webindex.check;

import io.webindex.check.engine.CheckListener;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.core.schema.Cell;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Passes a scanner check's findings on and tells the operator how far it got: cells compared and
 * their rate, on one line rewritten in place on a terminal, else a line every 10 seconds.
 */
final class CheckProgress implements CheckListener {
  private static final long PERIOD_NANOS = 10_000_000_000L;
  private static final long LIVE_NANOS = 1_000_000_000L;

  private final CheckListener next;
  private final PrintStream out;
  private final boolean live;
  private final long start = System.nanoTime();
  private long last = start;
  private long compared;
  private int width;

  CheckProgress(CheckListener next, PrintStream out, boolean live) {
    this.next = next;
    this.out = out;
    this.live = live;
  }

  static CheckProgress stderr(CheckListener next) {
    return new CheckProgress(next, System.err, System.console() != null);
  }

  @Override
  public void compared(String range, boolean skipped) {
    next.compared(range, skipped);
    if ((++compared & 0xffff) == 0) {
      long now = System.nanoTime();
      if (now - last >= (live ? LIVE_NANOS : PERIOD_NANOS)) {
        last = now;
        String line = line(compared, now - start);
        if (live) {
          out.print('\r' + line + " ".repeat(Math.max(0, width - line.length())));
          width = line.length();
        } else {
          out.println(line);
        }
        out.flush();
      }
    }
  }

  /** Clears the live line once the check is done. */
  void done() {
    if (live && width > 0) {
      out.print('\r' + " ".repeat(width) + '\r');
      out.flush();
    }
  }

  static String line(long compared, long nanos) {
    double secs = Math.max(nanos, 1) / 1e9;
    return String.format(
        Locale.ROOT, "check: %,d cells compared (%,.0f cells/s)", compared, compared / secs);
  }

  @Override
  public void difference(Kind kind, Cell expected, Cell actual) {
    next.difference(kind, expected, actual);
  }

  @Override
  public void violation(String table, Finding finding) {
    next.violation(table, finding);
  }
}
