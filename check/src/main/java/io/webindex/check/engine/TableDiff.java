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

  /**
   * Merges the two tables' cells, reporting each compared cell and each difference to {@code
   * listener}.
   *
   * @return whether the two tables hold the same cells (keys and values as text), skipped cells
   *     included: then everything found inside one table is found, the same, inside the other
   */
  public static boolean diffRaw(
      Iterator<RawCell> expected,
      Iterator<RawCell> actual,
      Exclusions skip,
      CheckListener listener) {
    boolean skipNone = skip.isEmpty();
    boolean same = true;
    RawCell e = next(expected);
    RawCell a = next(actual);
    while (e != null || a != null) {
      int c = e == null ? 1 : a == null ? -1 : RawCell.compare(e, a);
      RawCell here = c <= 0 ? e : a;
      boolean skipped = !skipNone && skip.excludes(here.cell().column());
      listener.compared(here.range(), skipped);
      if (c < 0) {
        same = false;
        if (!skipped) {
          listener.difference(Kind.MISSING, e.cell(), null);
        }
      } else if (c > 0) {
        same = false;
        if (!skipped) {
          listener.difference(Kind.EXTRA, null, a.cell());
        }
      } else if (!RawCell.sameValue(e, a)) {
        same = false;
        if (!skipped) {
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
    return same;
  }

  private static <T> T next(Iterator<T> it) {
    return it.hasNext() ? it.next() : null;
  }
}
