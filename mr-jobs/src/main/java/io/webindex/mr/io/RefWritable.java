package io.webindex.mr.io;

import io.webindex.core.history.HistoryEntry;
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
import java.util.List;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * What the URI job receives for one URI: the URI's own current version ({@link Kind#CURRENT}: a
 * live page or a deletion) with the crawls of its other versions, the anchor text of one current
 * page that links to it ({@link Kind#INLINK}; the linking page is named by the shuffle key), or the
 * urc points the previous successful run's history table holds for it ({@link Kind#URC_POINTS}). A
 * page and its crawls travel as their {@link PageCodec}/{@link HistoryCodec} bytes behind their
 * length and are decoded only when asked for, so the per-URI job's identity map copies them without
 * building them.
 */
public final class RefWritable implements Writable {
  /** The two kinds of reference. */
  public enum Kind {
    CURRENT,
    INLINK,
    URC_POINTS
  }

  private Kind kind;
  private byte[] pageBytes = new byte[0];
  private int pageLength;
  private Page page;
  private String anchor;
  private List<HistoryEntry> others;
  private long[] points = new long[0];

  /** The current version alone (no other crawls). */
  public static RefWritable current(Page p) {
    return current(p, List.of());
  }

  /** The current version and the crawls of the URL's other milliseconds. */
  public static RefWritable current(Page p, List<HistoryEntry> otherCrawls) {
    RefWritable r = new RefWritable();
    r.kind = Kind.CURRENT;
    r.page = p;
    r.others = otherCrawls;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try {
      DataOutputStream out = new DataOutputStream(bytes);
      PageCodec.write(out, p);
      HistoryCodec.write(out, otherCrawls);
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
    others = null;
    pageLength = 0;
    anchor = anchorText;
    return this;
  }

  /**
   * Urc points of an earlier run: {@code timestampAndUrc} holds pairs (timestamp in ms, urc), kept
   * as given.
   */
  public RefWritable urcPoints(long[] timestampAndUrc) {
    if (timestampAndUrc.length % 2 != 0) {
      throw new IllegalArgumentException("urc points come in (timestamp, urc) pairs");
    }
    kind = Kind.URC_POINTS;
    page = null;
    others = null;
    pageLength = 0;
    anchor = null;
    points = timestampAndUrc;
    return this;
  }

  /** The (timestamp, urc) pairs of a {@link Kind#URC_POINTS} reference. */
  public long[] points() {
    return points;
  }

  public Kind kind() {
    return kind;
  }

  /** The current version (decoded on first use); null for an inlink. */
  public Page page() throws IOException {
    decode();
    return page;
  }

  /** The crawls of the URL's other milliseconds (decoded on first use); null for an inlink. */
  public List<HistoryEntry> others() throws IOException {
    decode();
    return others;
  }

  private void decode() throws IOException {
    if (page == null && kind == Kind.CURRENT) {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(pageBytes, 0, pageLength));
      page = PageCodec.read(in);
      others = HistoryCodec.read(in);
    }
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
    } else if (kind == Kind.INLINK) {
      PageCodec.writeString(out, anchor);
    } else {
      WritableUtils.writeVInt(out, points.length);
      for (long p : points) {
        PageCodec.writeVLong(out, p);
      }
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    kind = Kind.values()[in.readByte()];
    page = null;
    others = null;
    if (kind == Kind.CURRENT) {
      pageLength = WritableUtils.readVInt(in);
      if (pageBytes.length < pageLength) {
        pageBytes = Arrays.copyOf(pageBytes, Math.max(pageLength, pageBytes.length * 2));
      }
      in.readFully(pageBytes, 0, pageLength);
      anchor = null;
    } else if (kind == Kind.INLINK) {
      pageLength = 0;
      anchor = PageCodec.readString(in);
    } else {
      pageLength = 0;
      anchor = null;
      int n = WritableUtils.readVInt(in);
      if (n < 0 || n % 2 != 0) {
        throw new IOException("bad urc point count " + n);
      }
      points = new long[n];
      for (int i = 0; i < n; i++) {
        points[i] = PageCodec.readVLong(in);
      }
    }
  }
}
