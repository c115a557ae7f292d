package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import java.util.Iterator;

/** Cells as {@link RawCell}s. */
final class RawCells {
  private RawCells() {}

  static Iterator<RawCell> of(Iterator<Cell> cells) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return cells.hasNext();
      }

      @Override
      public RawCell next() {
        return RawCell.of(cells.next());
      }
    };
  }
}
