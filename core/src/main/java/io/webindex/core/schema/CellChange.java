package io.webindex.core.schema;

/** A change to one cell of the query table: a put or a delete. */
public sealed interface CellChange {
  Cell.Column column();

  /** Set the cell to a value. */
  record Put(Cell cell) implements CellChange {
    @Override
    public Cell.Column column() {
      return cell.column();
    }
  }

  /** Remove the cell. */
  record Delete(Cell.Column column) implements CellChange {}

  static CellChange put(Cell c) {
    return new Put(c);
  }

  static CellChange delete(String row, String family, String qualifier) {
    return new Delete(new Cell.Column(row, family, qualifier));
  }
}
