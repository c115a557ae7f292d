package io.webindex.core.schema;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * One cell of a table: row, family, qualifier, value, all UTF-8 text. Cells sort as Accumulo sorts
 * keys (unsigned bytes of row, then family, then qualifier).
 */
public record Cell(String row, String family, String qualifier, String value) {

  /** Accumulo's key order on (row, family, qualifier). */
  public static final Comparator<Cell> ORDER =
      (a, b) -> {
        int c = compareBytes(a.row, b.row);
        if (c == 0) {
          c = compareBytes(a.family, b.family);
        }
        if (c == 0) {
          c = compareBytes(a.qualifier, b.qualifier);
        }
        return c;
      };

  public Cell {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(qualifier, "qualifier");
    Objects.requireNonNull(value, "value");
  }

  /** The cell's coordinates without the value. */
  public Column column() {
    return new Column(row, family, qualifier);
  }

  /** Row, family and qualifier of a cell. */
  public record Column(String row, String family, String qualifier) implements Comparable<Column> {
    @Override
    public int compareTo(Column o) {
      int c = compareBytes(row, o.row);
      if (c == 0) {
        c = compareBytes(family, o.family);
      }
      if (c == 0) {
        c = compareBytes(qualifier, o.qualifier);
      }
      return c;
    }
  }

  /** Unsigned byte order of the UTF-8 forms; equal to String order for ASCII. */
  public static int compareBytes(String a, String b) {
    if (isAscii(a) && isAscii(b)) {
      return a.compareTo(b);
    }
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }
}
