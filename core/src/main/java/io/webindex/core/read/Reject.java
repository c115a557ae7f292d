package io.webindex.core.read;

/**
 * A rejected input record: where it was (file and byte offset in the uncompressed stream), why, a
 * detail message and a short printable excerpt of the record.
 */
public record Reject(String file, long offset, RejectReason reason, String detail, String excerpt) {
  /** Longest excerpt kept, in chars. */
  public static final int MAX_EXCERPT = 200;

  public static Reject of(
      String file, long offset, RejectReason reason, String detail, byte[] raw, int len) {
    return new Reject(file, offset, reason, detail, excerpt(raw, len));
  }

  /** A printable excerpt: non-printable bytes as '?', at most {@link #MAX_EXCERPT} chars. */
  public static String excerpt(byte[] raw, int len) {
    if (raw == null) {
      return "";
    }
    int n = Math.min(len, MAX_EXCERPT);
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      int b = raw[i] & 0xff;
      sb.append(b >= 0x20 && b < 0x7f ? (char) b : '?');
    }
    return sb.toString();
  }

  /** One tab-separated line for a rejects file: file, offset, reason, detail, excerpt. */
  public String toLine() {
    return String.join(
        "\t", file, Long.toString(offset), reason.name(), clean(detail), clean(excerpt));
  }

  private static String clean(String s) {
    return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }
}
