package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;

/** Receives what a check finds, as it streams through the tables. */
public interface CheckListener {
  /** A cell present in either table was compared (or skipped, when {@code skipped}). */
  void compared(String range, boolean skipped);

  /** A difference between the expected and the actual table ({@code null} for an absent side). */
  void difference(Kind kind, Cell expected, Cell actual);

  /** An invariant violation inside one table. */
  void violation(String table, Finding finding);

  /** The range of rows that start with none of the schema's row prefixes. */
  String OTHER = "other";

  /**
   * The row range of a row: the schema's row prefix it starts with ({@code d:}, {@code p:}, {@code
   * t:}: {@link QuerySchema#ROW_RANGES}) or {@link #OTHER}.
   */
  static String rangeOf(String row) {
    for (String r : QuerySchema.ROW_RANGES) {
      if (row.startsWith(r)) {
        return r;
      }
    }
    return OTHER;
  }
}
