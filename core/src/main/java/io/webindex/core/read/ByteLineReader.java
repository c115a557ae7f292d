package io.webindex.core.read;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads '\n'-terminated lines of bytes with their start offsets, and exact byte counts, from a
 * stream. A line longer than the limit is skipped to its end without being buffered. A trailing
 * '\r' is dropped from lines.
 */
final class ByteLineReader {
  private final InputStream in;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int end;
  private long consumed; // stream offset of buf[0]
  private byte[] line = new byte[1024];
  private int lineLen;
  private long lineStart;
  private boolean lineTooLong;

  ByteLineReader(InputStream in) {
    this.in = in;
  }

  /** Offset of the next unread byte. */
  long position() {
    return consumed + pos;
  }

  private boolean fill() throws IOException {
    if (pos < end) {
      return true;
    }
    consumed += end;
    pos = 0;
    end = 0;
    int n;
    do {
      n = in.read(buf, 0, buf.length);
    } while (n == 0);
    if (n < 0) {
      return false;
    }
    end = n;
    return true;
  }

  /**
   * Reads the next line, keeping at most {@code max} bytes.
   *
   * @return false at the end of the stream
   */
  boolean nextLine(int max) throws IOException {
    lineLen = 0;
    lineTooLong = false;
    if (!fill()) {
      return false;
    }
    lineStart = position();
    while (true) {
      if (!fill()) {
        break;
      }
      int nl = -1;
      for (int i = pos; i < end; i++) {
        if (buf[i] == '\n') {
          nl = i;
          break;
        }
      }
      int stop = nl < 0 ? end : nl;
      append(pos, stop - pos, max);
      pos = nl < 0 ? end : nl + 1;
      if (nl >= 0) {
        break;
      }
    }
    if (!lineTooLong && lineLen > 0 && line[lineLen - 1] == '\r') {
      lineLen--;
    }
    return true;
  }

  private void append(int from, int len, int max) {
    if (lineTooLong) {
      return;
    }
    if (lineLen + len > max) {
      lineTooLong = true;
      int keep = Math.max(0, Math.min(len, Reject.MAX_EXCERPT - lineLen));
      ensure(lineLen + keep);
      System.arraycopy(buf, from, line, lineLen, keep);
      lineLen += keep;
      return;
    }
    ensure(lineLen + len);
    System.arraycopy(buf, from, line, lineLen, len);
    lineLen += len;
  }

  private void ensure(int cap) {
    if (cap > line.length) {
      line = Arrays.copyOf(line, Math.max(cap, line.length * 2));
    }
  }

  byte[] line() {
    return line;
  }

  int lineLength() {
    return lineLen;
  }

  long lineStart() {
    return lineStart;
  }

  boolean lineTooLong() {
    return lineTooLong;
  }

  /**
   * Reads exactly {@code n} bytes into a new array.
   *
   * @return null when the stream ends first
   */
  byte[] readExactly(int n) throws IOException {
    byte[] out = new byte[n];
    int got = 0;
    while (got < n) {
      if (!fill()) {
        return null;
      }
      int k = Math.min(n - got, end - pos);
      System.arraycopy(buf, pos, out, got, k);
      pos += k;
      got += k;
    }
    return out;
  }

  /**
   * Skips {@code n} bytes.
   *
   * @return false when the stream ends first
   */
  boolean skip(long n) throws IOException {
    long left = n;
    while (left > 0) {
      if (!fill()) {
        return false;
      }
      int k = (int) Math.min(left, end - pos);
      pos += k;
      left -= k;
    }
    return true;
  }
}
