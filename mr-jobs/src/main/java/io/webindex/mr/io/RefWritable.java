package io.webindex.mr.io;

import io.webindex.core.model.Page;
import io.webindex.core.model.PageCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * What the URI job receives for one URI: either the URI's own current version ({@link
 * Kind#CURRENT}: a live page or a deletion), or the anchor text of one current page that links to
 * it ({@link Kind#INLINK}; the linking page is named by the shuffle key). A page travels as its
 * {@link PageCodec} bytes behind their length and is decoded only when asked for, so the per-URI
 * job's identity map copies it without building it.
 */
public final class RefWritable implements Writable {
  /** The two kinds of reference. */
  public enum Kind {
    CURRENT,
    INLINK
  }

  private Kind kind;
  private byte[] pageBytes = new byte[0];
  private int pageLength;
  private Page page;
  private String anchor;

  public static RefWritable current(Page p) {
    RefWritable r = new RefWritable();
    r.kind = Kind.CURRENT;
    r.page = p;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try {
      PageCodec.write(new DataOutputStream(bytes), p);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array stream does not fail
    }
    r.pageBytes = bytes.toByteArray();
    r.pageLength = r.pageBytes.length;
    return r;
  }

  public RefWritable inlink(String anchorText) {
    kind = Kind.INLINK;
    page = null;
    pageLength = 0;
    anchor = anchorText;
    return this;
  }

  public Kind kind() {
    return kind;
  }

  /** The current version (decoded on first use); null for an inlink. */
  public Page page() throws IOException {
    if (page == null && kind == Kind.CURRENT) {
      page =
          PageCodec.read(new DataInputStream(new ByteArrayInputStream(pageBytes, 0, pageLength)));
    }
    return page;
  }

  public String anchor() {
    return anchor;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(kind.ordinal());
    if (kind == Kind.CURRENT) {
      WritableUtils.writeVInt(out, pageLength);
      out.write(pageBytes, 0, pageLength);
    } else {
      PageCodec.writeString(out, anchor);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    kind = Kind.values()[in.readByte()];
    page = null;
    if (kind == Kind.CURRENT) {
      pageLength = WritableUtils.readVInt(in);
      if (pageBytes.length < pageLength) {
        pageBytes = Arrays.copyOf(pageBytes, Math.max(pageLength, pageBytes.length * 2));
      }
      in.readFully(pageBytes, 0, pageLength);
      anchor = null;
    } else {
      pageLength = 0;
      anchor = PageCodec.readString(in);
    }
  }
}
