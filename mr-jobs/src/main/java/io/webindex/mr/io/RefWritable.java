package io.webindex.mr.io;

import io.webindex.core.model.Page;
import io.webindex.core.model.PageCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/**
 * What the URI job receives for one URI: either the URI's own current version ({@link
 * Kind#CURRENT}: a live page or a deletion), or the anchor text of one current page that links to
 * it ({@link Kind#INLINK}; the linking page is named by the shuffle key).
 */
public final class RefWritable implements Writable {
  /** The two kinds of reference. */
  public enum Kind {
    CURRENT,
    INLINK
  }

  private Kind kind;
  private Page page;
  private String anchor;

  public static RefWritable current(Page p) {
    RefWritable r = new RefWritable();
    r.kind = Kind.CURRENT;
    r.page = p;
    return r;
  }

  public RefWritable inlink(String anchorText) {
    kind = Kind.INLINK;
    page = null;
    anchor = anchorText;
    return this;
  }

  public Kind kind() {
    return kind;
  }

  public Page page() {
    return page;
  }

  public String anchor() {
    return anchor;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(kind.ordinal());
    if (kind == Kind.CURRENT) {
      PageCodec.write(out, page);
    } else {
      PageCodec.writeString(out, anchor);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    kind = Kind.values()[in.readByte()];
    if (kind == Kind.CURRENT) {
      page = PageCodec.read(in);
      anchor = null;
    } else {
      page = null;
      anchor = PageCodec.readString(in);
    }
  }
}
