package io.webindex.core.schema;

/**
 * The order-inverting, fixed-width encoding of a non-negative count used in {@code t:} rows and
 * {@code rank} qualifiers: 16 lower-case hex digits of {@code Long.MAX_VALUE - n}, so that a plain
 * byte-order scan returns the highest count first. Golden values are pinned by tests; never change
 * them without a table migration.
 */
public final class CountCodec {
  /** Length of every encoded count. */
  public static final int WIDTH = 16;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private CountCodec() {}

  public static String encode(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("negative count " + n);
    }
    return hex16(Long.MAX_VALUE - n);
  }

  /** 16 lower-case hex digits of a non-negative {@code v}: byte order is numeric order. */
  static String hex16(long v) {
    char[] out = new char[WIDTH];
    for (int i = WIDTH - 1; i >= 0; i--) {
      out[i] = HEX[(int) (v & 15)];
      v >>>= 4;
    }
    return new String(out);
  }

  /** Decodes {@code s.substring(from, from + WIDTH)}. */
  public static long decode(CharSequence s, int from) {
    return Long.MAX_VALUE - parseHex16(s, from, "encoded count");
  }

  /**
   * The non-negative value of the 16 lower-case hex digits at {@code from} ({@link #hex16}).
   *
   * @throws IllegalArgumentException naming {@code what} when they are not
   */
  static long parseHex16(CharSequence s, int from, String what) {
    if (s.length() < from + WIDTH) {
      throw new IllegalArgumentException(what + " too short: " + s);
    }
    long v = 0;
    for (int i = from; i < from + WIDTH; i++) {
      char c = s.charAt(i);
      int d;
      if (c >= '0' && c <= '9') {
        d = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        d = c - 'a' + 10;
      } else {
        throw new IllegalArgumentException("not an " + what + ": " + s);
      }
      v = (v << 4) | d;
    }
    if (v < 0) {
      throw new IllegalArgumentException("not an " + what + ": " + s);
    }
    return v;
  }

  public static long decode(CharSequence s) {
    if (s.length() != WIDTH) {
      throw new IllegalArgumentException("encoded count has the wrong width: " + s);
    }
    return decode(s, 0);
  }
}
