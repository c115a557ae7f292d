package io.webindex.check.engine;

import io.webindex.core.schema.Cell;

/** Receives what a check finds, as it streams through the tables. */
public interface CheckListener {
  /** A cell present in either table was compared (or skipped, when {@code skipped}). */
  void compared(String range, boolean skipped);

  /** A difference between the expected and the actual table ({@code null} for an absent side). */
  void difference(Kind kind, Cell expected, Cell actual);

  /** An invariant violation inside one table. */
  void violation(String table, Finding finding);

  /** The row range of a row: {@code d:}, {@code p:}, {@code t:} or {@code other}. */
  static String rangeOf(String row) {
    if (row.length() >= 2 && row.charAt(1) == ':') {
      char c = row.charAt(0);
      if (c == 'd' || c == 'p' || c == 't') {
        return row.substring(0, 2);
      }
    }
    return "other";
  }
}
