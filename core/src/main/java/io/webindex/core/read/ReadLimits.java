package io.webindex.core.read;

/**
 * Limits that make a record "oversized": more bytes than {@code maxRecordBytes} (a JSON line or a
 * WARC record's content), or more links than {@code maxLinks}. Oversized records are rejected and
 * skipped without being held in memory.
 */
public record ReadLimits(int maxRecordBytes, int maxLinks) {
  public static final ReadLimits DEFAULT = new ReadLimits(8 << 20, 20_000);

  public ReadLimits {
    if (maxRecordBytes < 1024 || maxLinks < 1) {
      throw new IllegalArgumentException("limits too small: " + maxRecordBytes + ", " + maxLinks);
    }
  }
}
