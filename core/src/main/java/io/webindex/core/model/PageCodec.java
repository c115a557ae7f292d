package io.webindex.core.model;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The compact binary form of a page version, used for MapReduce shuffles (smaller and faster than
 * JSON). Format: flags byte (bit 0 = deleted), url, key, crawled (seconds, nanos), batch, file,
 * offset, then for a live page its signature, title, link count and (url, key, anchor) per link.
 * Strings are a varint byte length plus UTF-8.
 */
public final class PageCodec {
  private PageCodec() {}

  public static void write(DataOutput out, Page p) throws IOException {
    out.writeByte(p.deleted() ? 1 : 0);
    writeString(out, p.url());
    writeString(out, p.key());
    PageVersion v = p.version();
    writeVLong(out, v.crawled().getEpochSecond());
    writeVLong(out, v.crawled().getNano());
    writeVLong(out, v.batch());
    writeString(out, v.file());
    writeVLong(out, v.offset());
    if (!p.deleted()) {
      writeString(out, p.signature());
      writeString(out, p.title());
      writeVLong(out, p.links().size());
      for (Link l : p.links()) {
        writeString(out, l.url());
        writeString(out, l.key());
        writeString(out, l.anchor());
      }
    }
  }

  public static Page read(DataInput in) throws IOException {
    boolean deleted = (in.readByte() & 1) != 0;
    String url = readString(in);
    String key = readString(in);
    long secs = readVLong(in);
    long nanos = readVLong(in);
    long batch = readVLong(in);
    String file = readString(in);
    long offset = readVLong(in);
    PageVersion v = new PageVersion(Instant.ofEpochSecond(secs, nanos), batch, file, offset);
    if (deleted) {
      return Page.deletion(url, key, v);
    }
    String signature = readString(in);
    String title = readString(in);
    int n = (int) readVLong(in);
    List<Link> links = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      links.add(new Link(readString(in), readString(in), readString(in)));
    }
    return new Page(url, key, v, title, links, false, signature);
  }

  public static void writeString(DataOutput out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    writeVLong(out, b.length);
    out.write(b);
  }

  public static String readString(DataInput in) throws IOException {
    int n = (int) readVLong(in);
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Zig-zag varint, so small negative numbers stay small too. */
  public static void writeVLong(DataOutput out, long v) throws IOException {
    long z = (v << 1) ^ (v >> 63);
    while ((z & ~0x7FL) != 0) {
      out.writeByte((int) ((z & 0x7F) | 0x80));
      z >>>= 7;
    }
    out.writeByte((int) z);
  }

  public static long readVLong(DataInput in) throws IOException {
    long z = 0;
    int shift = 0;
    while (true) {
      int b = in.readByte() & 0xff;
      z |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
      shift += 7;
      if (shift > 63) {
        throw new IOException("varint too long");
      }
    }
    return (z >>> 1) ^ -(z & 1);
  }
}
