package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import java.util.Iterator;

/**
 * Compares two tables by merging their cells in key order: streaming, constant memory, one pass.
 * Both iterators must return cells in Accumulo key order ({@link Cell#ORDER}). Cells are compared
 * on their bytes ({@link RawCell}) and decoded only for a finding or an exclusion.
 */
public final class TableDiff {
  private TableDiff() {}

  public static void diffRaw(
      Iterator<RawCell> expected,
      Iterator<RawCell> actual,
      Exclusions skip,
      CheckListener listener) {
    boolean skipNone = skip.isEmpty();
    RawCell e = next(expected);
    RawCell a = next(actual);
    while (e != null || a != null) {
      int c = e == null ? 1 : a == null ? -1 : RawCell.compare(e, a);
      RawCell here = c <= 0 ? e : a;
      boolean skipped = !skipNone && skip.excludes(here.cell().column());
      listener.compared(here.range(), skipped);
      if (!skipped) {
        if (c < 0) {
          listener.difference(Kind.MISSING, e.cell(), null);
        } else if (c > 0) {
          listener.difference(Kind.EXTRA, null, a.cell());
        } else if (!RawCell.sameValue(e, a)) {
          listener.difference(Kind.DIFFERENT, e.cell(), a.cell());
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

  private static <T> T next(Iterator<T> it) {
    return it.hasNext() ? it.next() : null;
  }
}
