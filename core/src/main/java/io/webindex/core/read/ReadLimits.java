package io.webindex.core.read;

/**
 * Limits that make a record "oversized": more bytes than {@code maxRecordBytes} (a JSON line or a
 * WARC record's content), or more links than {@code maxLinks}. Oversized records are rejected while
 * they stream by: a long line or record is skipped without being buffered, and a links array stops
 * being read at link {@code maxLinks + 1}. Buffers grow with the records actually read, so the
 * limits bound memory without costing it up front.
 */
public record ReadLimits(int maxRecordBytes, int maxLinks) {
  public static final ReadLimits DEFAULT = new ReadLimits(8 << 20, 20_000);

  /** Smallest {@code maxRecordBytes}: a WARC header block alone takes a few hundred bytes. */
  public static final int MIN_RECORD_BYTES = 1024;

  /** Largest {@code maxRecordBytes} (256 MiB): one record is held in memory whole. */
  public static final int MAX_RECORD_BYTES = 256 << 20;

  /** Largest {@code maxLinks}. */
  public static final int MAX_LINKS = 10_000_000;

  public ReadLimits {
    if (maxRecordBytes < MIN_RECORD_BYTES || maxRecordBytes > MAX_RECORD_BYTES) {
      throw new IllegalArgumentException(
          "maxRecordBytes must be between "
              + MIN_RECORD_BYTES
              + " and "
              + MAX_RECORD_BYTES
              + " (256 MiB): "
              + maxRecordBytes);
    }
    if (maxLinks < 1 || maxLinks > MAX_LINKS) {
      throw new IllegalArgumentException(
          "maxLinks must be between 1 and " + MAX_LINKS + ": " + maxLinks);
    }
  }
}
