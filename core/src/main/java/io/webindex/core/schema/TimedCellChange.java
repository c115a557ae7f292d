package io.webindex.core.schema;

/**
 * A change to a table that keeps several versions per column: a put of one version, or a delete at
 * a timestamp, which hides every version of the column at or below that timestamp.
 */
public sealed interface TimedCellChange {
  Cell.Column column();

  long timestamp();

  /** Writes one version. */
  record Put(TimedCell cell) implements TimedCellChange {
    @Override
    public Cell.Column column() {
      return cell.column();
    }

    @Override
    public long timestamp() {
      return cell.timestamp();
    }
  }

  /** Deletes every version of {@code column} with a timestamp at or below {@code timestamp}. */
  record Delete(Cell.Column column, long timestamp) implements TimedCellChange {}
}
