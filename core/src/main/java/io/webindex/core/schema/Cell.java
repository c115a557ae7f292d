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

  /**
   * Unsigned byte order of the UTF-8 forms, without encoding them: up to the first char that
   * differs the forms are equal, and where neither of the two differing chars is a surrogate, UTF-8
   * orders them as their code points (a string that is a prefix of the other comes first). Only a
   * surrogate at the first difference (a char beyond U+FFFF, or a lone one, which UTF-8 replaces)
   * compares the encoded forms.
   */
  public static int compareBytes(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (Character.isSurrogate(x) || Character.isSurrogate(y)) {
          return Arrays.compareUnsigned(
              a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }
}
