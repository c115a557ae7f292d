package io.webindex.mr.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * The value of one output cell: either final bytes, or a partial count still to be summed (a
 * domain's page count, from every seen URI of the domain). A partial count says how its total
 * becomes the value ({@link #COUNT}: decimal; {@link #DOMAIN_SEED}: the Fluo {@code dm:} value of
 * the domain named in {@link #name()}).
 */
public final class CellValue implements Writable {
  public static final byte FINAL = 0;
  public static final byte COUNT = 1;
  public static final byte DOMAIN_SEED = 2;

  private byte kind;
  private byte[] bytes = new byte[0];
  private long count;

  public static CellValue ofFinal(byte[] b) {
    CellValue v = new CellValue();
    v.kind = FINAL;
    v.bytes = b;
    return v;
  }

  public static CellValue ofFinal(String s) {
    return ofFinal(s.getBytes(StandardCharsets.UTF_8));
  }

  /** A partial count; {@code name} is what the finisher needs besides the total (may be empty). */
  public static CellValue partial(byte kind, long count, String name) {
    CellValue v = new CellValue();
    v.kind = kind;
    v.count = count;
    v.bytes = name.getBytes(StandardCharsets.UTF_8);
    return v;
  }

  public byte kind() {
    return kind;
  }

  public boolean isFinal() {
    return kind == FINAL;
  }

  public byte[] bytes() {
    return bytes;
  }

  public long count() {
    return count;
  }

  public String name() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(kind);
    if (kind != FINAL) {
      WritableUtils.writeVLong(out, count);
    }
    WritableUtils.writeVInt(out, bytes.length);
    out.write(bytes);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    kind = in.readByte();
    count = kind != FINAL ? WritableUtils.readVLong(in) : 0;
    bytes = new byte[WritableUtils.readVInt(in)];
    in.readFully(bytes);
  }
}
