package io.webindex.core.schema;

import java.util.Comparator;
import java.util.Objects;

/**
 * One version of a cell of a table that keeps several versions per column (the history table): row,
 * family, qualifier, Accumulo timestamp, value. Cells sort as Accumulo sorts keys: row, family,
 * qualifier in unsigned byte order, then the newest timestamp first.
 */
public record TimedCell(String row, String family, String qualifier, long timestamp, String value) {

  /** Accumulo's key order: (row, family, qualifier), then timestamp descending. */
  public static final Comparator<TimedCell> ORDER =
      Comparator.comparing(TimedCell::column)
          .thenComparing(TimedCell::timestamp, (a, b) -> Long.compare(b, a));

  public TimedCell {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(qualifier, "qualifier");
    Objects.requireNonNull(value, "value");
  }

  /** The cell's coordinates without timestamp and value. */
  public Cell.Column column() {
    return new Cell.Column(row, family, qualifier);
  }

  /** The cell without its timestamp. */
  public Cell cell() {
    return new Cell(row, family, qualifier, value);
  }
}
