package io.webindex.mr.io;

import io.webindex.core.model.Page;
import io.webindex.core.model.PageCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/**
 * What the URI job receives for one URI: either the URI's own current page ({@link Kind#CRAWLED}),
 * or one current page that links to it, with the anchor text ({@link Kind#INLINK}).
 */
public final class RefWritable implements Writable {
  /** The two kinds of reference. */
  public enum Kind {
    CRAWLED,
    INLINK
  }

  private Kind kind;
  private Page page;
  private String source;
  private String anchor;

  public static RefWritable crawled(Page p) {
    RefWritable r = new RefWritable();
    r.kind = Kind.CRAWLED;
    r.page = p;
    return r;
  }

  public RefWritable inlink(String sourceKey, String anchorText) {
    kind = Kind.INLINK;
    page = null;
    source = sourceKey;
    anchor = anchorText;
    return this;
  }

  public Kind kind() {
    return kind;
  }

  public Page page() {
    return page;
  }

  public String source() {
    return source;
  }

  public String anchor() {
    return anchor;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(kind.ordinal());
    if (kind == Kind.CRAWLED) {
      PageCodec.write(out, page);
    } else {
      PageCodec.writeString(out, source);
      PageCodec.writeString(out, anchor);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    kind = Kind.values()[in.readByte()];
    if (kind == Kind.CRAWLED) {
      page = PageCodec.read(in);
      source = null;
      anchor = null;
    } else {
      page = null;
      source = PageCodec.readString(in);
      anchor = PageCodec.readString(in);
    }
  }
}
