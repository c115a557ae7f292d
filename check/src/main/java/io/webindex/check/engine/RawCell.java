package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One cell as the table stores it: the bytes of its row, family, qualifier and value. The check
 * streams these and decodes a cell into a {@link Cell} only where it needs the text (a finding, an
 * exclusion, a count to parse), so the common case costs no string per cell.
 *
 * <p>Every decision on bytes is the one the text would give: equal bytes are equal texts, and
 * different bytes decide an order or a difference only when they are ASCII (where bytes and UTF-8
 * text agree one for one); otherwise the decoded texts decide, as before.
 */
public final class RawCell {
  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;
  private final byte[] value;
  private byte asciiKey; // 0 not known yet, 1 ASCII, 2 not
  private Cell cell;

  /** A cell of these bytes; the arrays are kept, not copied (the caller must not change them). */
  public RawCell(byte[] row, byte[] family, byte[] qualifier, byte[] value) {
    this.row = row;
    this.family = family;
    this.qualifier = qualifier;
    this.value = value;
  }

  /** The bytes of a cell (UTF-8). */
  public static RawCell of(Cell c) {
    RawCell r =
        new RawCell(
            c.row().getBytes(StandardCharsets.UTF_8),
            c.family().getBytes(StandardCharsets.UTF_8),
            c.qualifier().getBytes(StandardCharsets.UTF_8),
            c.value().getBytes(StandardCharsets.UTF_8));
    r.cell = c;
    return r;
  }

  /** The cell as text (decoded once, on first use). */
  public Cell cell() {
    Cell c = cell;
    if (c == null) {
      c =
          new Cell(
              new String(row, StandardCharsets.UTF_8),
              new String(family, StandardCharsets.UTF_8),
              new String(qualifier, StandardCharsets.UTF_8),
              new String(value, StandardCharsets.UTF_8));
      cell = c;
    }
    return c;
  }

  /** The row as text (the whole cell is decoded only when it is not ASCII). */
  public String rowText() {
    Cell c = cell;
    if (c != null) {
      return c.row();
    }
    return asciiKey() ? new String(row, StandardCharsets.ISO_8859_1) : cell().row();
  }

  byte[] row() {
    return row;
  }

  /** Accumulo's key order on (row, family, qualifier), as {@link Cell#ORDER} orders the texts. */
  static int compare(RawCell a, RawCell b) {
    int c = Arrays.compareUnsigned(a.row, b.row);
    if (c == 0) {
      c = Arrays.compareUnsigned(a.family, b.family);
    }
    if (c == 0) {
      c = Arrays.compareUnsigned(a.qualifier, b.qualifier);
    }
    if (c == 0 || a.asciiKey() && b.asciiKey()) {
      return c; // equal bytes are equal texts; ASCII bytes order as their texts
    }
    return Cell.ORDER.compare(a.cell(), b.cell());
  }

  private boolean asciiKey() {
    if (asciiKey == 0) {
      asciiKey = ascii(row) && ascii(family) && ascii(qualifier) ? (byte) 1 : (byte) 2;
    }
    return asciiKey == 1;
  }

  /** True when both cells hold the same value text. */
  static boolean sameValue(RawCell a, RawCell b) {
    if (Arrays.equals(a.value, b.value)) {
      return true;
    }
    if (ascii(a.value) && ascii(b.value)) {
      return false;
    }
    return a.cell().value().equals(b.cell().value());
  }

  /** True when both cells are in the same row (as text). */
  static boolean sameRow(RawCell a, RawCell b) {
    if (Arrays.equals(a.row, b.row)) {
      return true;
    }
    if (a.asciiKey() && b.asciiKey()) {
      return false;
    }
    return a.cell().row().equals(b.cell().row());
  }

  /** True when the family is exactly {@code ascii} (an ASCII constant of the schema). */
  boolean familyIs(byte[] asciiName) {
    return Arrays.equals(family, asciiName);
  }

  /** The row ranges of the schema ({@link QuerySchema#ROW_RANGES}) as bytes, in their order. */
  private static final byte[][] RANGES =
      QuerySchema.ROW_RANGES.stream()
          .map(r -> r.getBytes(StandardCharsets.UTF_8))
          .toArray(byte[][]::new);

  /**
   * The row range of the cell's row: the schema's row prefix it starts with ({@code d:}, {@code
   * p:}, {@code t:}) or {@link CheckListener#OTHER}. The same answer as {@link
   * CheckListener#rangeOf} on the row's text: a prefix of UTF-8 bytes is a prefix of the text.
   */
  String range() {
    for (int i = 0; i < RANGES.length; i++) {
      if (Arrays.equals(
          row, 0, Math.min(row.length, RANGES[i].length), RANGES[i], 0, RANGES[i].length)) {
        return QuerySchema.ROW_RANGES.get(i);
      }
    }
    return CheckListener.OTHER;
  }

  private static boolean ascii(byte[] b) {
    for (byte x : b) {
      if (x < 0) {
        return false;
      }
    }
    return true;
  }
}
