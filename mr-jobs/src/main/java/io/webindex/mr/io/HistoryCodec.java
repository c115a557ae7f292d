package io.webindex.mr.io;

import io.webindex.core.history.Crawl;
import io.webindex.core.history.CrawlStatus;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.model.PageCodec;
import io.webindex.core.model.PageVersion;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The compact binary form of crawl-history entries between the recompute's jobs: a count, then per
 * entry its crawl millisecond, the nanoseconds of the winning version within it, status, signature,
 * outlinks, and the winning version's batch, offset and file (varints as {@link PageCodec} writes
 * them).
 */
public final class HistoryCodec {
  private static final CrawlStatus[] STATUSES = CrawlStatus.values();

  private HistoryCodec() {}

  public static void write(DataOutput out, List<HistoryEntry> entries) throws IOException {
    PageCodec.writeVLong(out, entries.size());
    for (HistoryEntry e : entries) {
      Crawl c = e.crawl();
      PageVersion v = e.version();
      PageCodec.writeVLong(out, c.crawledMillis());
      PageCodec.writeVLong(out, v.crawled().getNano() % 1_000_000);
      out.writeByte(c.status().ordinal());
      PageCodec.writeString(out, c.signature());
      PageCodec.writeVLong(out, c.outlinks());
      PageCodec.writeVLong(out, v.batch());
      PageCodec.writeVLong(out, v.offset());
      PageCodec.writeString(out, v.file());
    }
  }

  public static List<HistoryEntry> read(DataInput in) throws IOException {
    long n = PageCodec.readVLong(in);
    if (n < 0 || n > Integer.MAX_VALUE) {
      throw new IOException("bad history length " + n);
    }
    List<HistoryEntry> out = new ArrayList<>((int) Math.min(n, 1024));
    for (long i = 0; i < n; i++) {
      long ms = PageCodec.readVLong(in);
      long ns = PageCodec.readVLong(in);
      int status = in.readByte();
      if (status < 0 || status >= STATUSES.length) {
        throw new IOException("bad crawl status " + status);
      }
      String signature = PageCodec.readString(in);
      int outlinks = (int) PageCodec.readVLong(in);
      long batch = PageCodec.readVLong(in);
      long offset = PageCodec.readVLong(in);
      String file = PageCodec.readString(in);
      Crawl c = new Crawl(ms, STATUSES[status], signature, outlinks);
      out.add(
          new HistoryEntry(
              c, new PageVersion(Instant.ofEpochMilli(ms).plusNanos(ns), batch, file, offset)));
    }
    return out;
  }
}
