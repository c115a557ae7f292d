package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import java.util.Iterator;

/**
 * Compares two tables by merging their cells in key order: streaming, constant memory, one pass.
 * Both iterators must return cells in Accumulo key order ({@link Cell#ORDER}).
 */
public final class TableDiff {
  private TableDiff() {}

  public static void diff(
      Iterator<Cell> expected, Iterator<Cell> actual, Exclusions skip, CheckListener listener) {
    Cell e = next(expected);
    Cell a = next(actual);
    while (e != null || a != null) {
      int c = e == null ? 1 : a == null ? -1 : e.column().compareTo(a.column());
      Cell here = c <= 0 ? e : a;
      String range = CheckListener.rangeOf(here.row());
      boolean skipped = skip.excludes(here.column());
      listener.compared(range, skipped);
      if (!skipped) {
        if (c < 0) {
          listener.difference(Kind.MISSING, e, null);
        } else if (c > 0) {
          listener.difference(Kind.EXTRA, null, a);
        } else if (!e.value().equals(a.value())) {
          listener.difference(Kind.DIFFERENT, e, a);
        }
      }
      if (c <= 0) {
        e = next(expected);
      }
      if (c >= 0) {
        a = next(actual);
      }
    }
  }

  private static Cell next(Iterator<Cell> it) {
    return it.hasNext() ? it.next() : null;
  }
}
