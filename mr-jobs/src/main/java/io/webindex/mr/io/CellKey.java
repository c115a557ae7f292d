package io.webindex.mr.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;

/**
 * The key of one output cell: the table it belongs to ({@link #QUERY}, {@link #FLUO} or {@link
 * #FRONTIER}), then row, family and qualifier as bytes. Sorts by table, then like Accumulo keys
 * (unsigned bytes of row, family, qualifier), with a raw comparator that never deserializes.
 */
public final class CellKey implements WritableComparable<CellKey> {
  public static final byte QUERY = 'q';
  public static final byte FLUO = 'f';
  public static final byte FRONTIER = 'n';

  private byte table;
  private byte[] row = new byte[0];
  private byte[] family = new byte[0];
  private byte[] qualifier = new byte[0];

  public CellKey() {}

  public CellKey(byte table, byte[] row, byte[] family, byte[] qualifier) {
    this.table = table;
    this.row = row;
    this.family = family;
    this.qualifier = qualifier;
  }

  public static CellKey of(byte table, String row, String family, String qualifier) {
    return new CellKey(
        table,
        row.getBytes(StandardCharsets.UTF_8),
        family.getBytes(StandardCharsets.UTF_8),
        qualifier.getBytes(StandardCharsets.UTF_8));
  }

  public byte table() {
    return table;
  }

  public byte[] row() {
    return row;
  }

  public byte[] family() {
    return family;
  }

  public byte[] qualifier() {
    return qualifier;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(table);
    WritableUtils.writeVInt(out, row.length);
    out.write(row);
    WritableUtils.writeVInt(out, family.length);
    out.write(family);
    WritableUtils.writeVInt(out, qualifier.length);
    out.write(qualifier);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    table = in.readByte();
    row = readBytes(in);
    family = readBytes(in);
    qualifier = readBytes(in);
  }

  private static byte[] readBytes(DataInput in) throws IOException {
    byte[] b = new byte[WritableUtils.readVInt(in)];
    in.readFully(b);
    return b;
  }

  @Override
  public int compareTo(CellKey o) {
    int c = Byte.compare(table, o.table);
    if (c == 0) {
      c = WritableComparator.compareBytes(row, 0, row.length, o.row, 0, o.row.length);
    }
    if (c == 0) {
      c = WritableComparator.compareBytes(family, 0, family.length, o.family, 0, o.family.length);
    }
    if (c == 0) {
      c =
          WritableComparator.compareBytes(
              qualifier, 0, qualifier.length, o.qualifier, 0, o.qualifier.length);
    }
    return c;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CellKey k && compareTo(k) == 0;
  }

  @Override
  public int hashCode() {
    return WritableComparator.hashBytes(row, row.length) * 31 + table;
  }

  @Override
  public String toString() {
    return (char) table
        + " "
        + new String(row, StandardCharsets.UTF_8)
        + " "
        + new String(family, StandardCharsets.UTF_8)
        + ":"
        + new String(qualifier, StandardCharsets.UTF_8);
  }

  /** Compares serialized keys field by field without deserializing them. */
  public static final class Comparator extends WritableComparator {
    public Comparator() {
      super(CellKey.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int c = Byte.compare(b1[s1], b2[s2]);
      int p1 = s1 + 1;
      int p2 = s2 + 1;
      try {
        for (int field = 0; field < 3 && c == 0; field++) {
          int n1 = readVInt(b1, p1);
          int n2 = readVInt(b2, p2);
          p1 += WritableUtils.decodeVIntSize(b1[p1]);
          p2 += WritableUtils.decodeVIntSize(b2[p2]);
          c = compareBytes(b1, p1, n1, b2, p2, n2);
          p1 += n1;
          p2 += n2;
        }
      } catch (IOException e) {
        throw new IllegalArgumentException("corrupt CellKey", e);
      }
      return c;
    }
  }

  static {
    WritableComparator.define(CellKey.class, new Comparator());
  }
}
