package io.webindex.core.read;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads '\n'-terminated lines of bytes with their start offsets, and exact byte counts, from a
 * stream. A line longer than the limit is skipped to its end without being buffered: only its head
 * (an excerpt) is kept, and its full length is counted. A trailing '\r' is dropped from lines. The
 * line buffer starts small and grows with the lines actually read, never to the limit up front.
 */
final class ByteLineReader {
  private static final int BUF = 1 << 16;

  private final InputStream in;
  private byte[] buf = new byte[BUF];
  private int pos;
  private int end;
  private long consumed; // stream offset of buf[0]
  private boolean eof;
  private byte[] line = new byte[1024];
  private byte[] data = new byte[0];
  private int lineLen;
  private long lineStart;
  private long lineBytes;
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
    if (eof) {
      return false;
    }
    consumed += end;
    pos = 0;
    end = 0;
    if (buf.length != BUF) {
      buf = new byte[BUF]; // back to the normal size after bytes pushed back were read
    }
    int n;
    do {
      n = in.read(buf, 0, buf.length);
    } while (n == 0);
    if (n < 0) {
      eof = true;
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
    lineBytes = 0;
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
    lineBytes += len;
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
      line =
          Arrays.copyOf(
              line, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(cap, 2L * line.length)));
    }
  }

  /** The bytes of the current line: all of it, or only its head when it is too long. */
  byte[] line() {
    return line;
  }

  int lineLength() {
    return lineLen;
  }

  long lineStart() {
    return lineStart;
  }

  /** The length of the current line in the stream, without its '\n' (with any '\r'). */
  long lineBytes() {
    return lineBytes;
  }

  boolean lineTooLong() {
    return lineTooLong;
  }

  /**
   * Reads up to {@code n} bytes into {@link #data()} (grown as the bytes arrive, so a record that
   * claims more bytes than the stream holds costs no more memory than the stream holds).
   *
   * @return how many bytes were read: {@code n}, or fewer when the stream ends first
   */
  int readData(int n) throws IOException {
    int got = 0;
    while (got < n) {
      if (!fill()) {
        break;
      }
      int k = Math.min(n - got, end - pos);
      if (got + k > data.length) {
        data = Arrays.copyOf(data, (int) Math.min(n, Math.max(got + k, 2L * data.length)));
      }
      System.arraycopy(buf, pos, data, got, k);
      pos += k;
      got += k;
    }
    return got;
  }

  /** The bytes of the last {@link #readData}. */
  byte[] data() {
    return data;
  }

  /**
   * Skips bytes up to the next {@code b}, which is left unread.
   *
   * @return false when the stream ends first
   */
  boolean skipUntil(byte b) throws IOException {
    while (fill()) {
      for (int i = pos; i < end; i++) {
        if (buf[i] == b) {
          pos = i;
          return true;
        }
      }
      pos = end;
    }
    return false;
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

  /**
   * Makes up to {@code n} (at most {@value #BUF} / 2) bytes readable without consuming them.
   *
   * @return how many bytes are available from {@link #peekByte}, less than {@code n} only at the
   *     end of the stream
   */
  int peek(int n) throws IOException {
    int want = Math.min(n, BUF / 2);
    if (end - pos >= want || eof) {
      return Math.min(want, end - pos);
    }
    if (buf.length - pos < want) {
      // compact: keep the unread bytes at the start of the buffer
      int left = end - pos;
      byte[] to = buf.length >= BUF ? buf : new byte[BUF];
      System.arraycopy(buf, pos, to, 0, left);
      buf = to;
      consumed += pos;
      pos = 0;
      end = left;
    }
    while (end - pos < want) {
      int r = in.read(buf, end, buf.length - end);
      if (r < 0) {
        eof = true;
        break;
      }
      end += r;
    }
    return Math.min(want, end - pos);
  }

  /** The byte {@code i} positions ahead of the read position ({@code i < peek(...)}). */
  int peekByte(int i) {
    return buf[pos + i] & 0xff;
  }

  /**
   * Puts back the last {@code len} bytes read, held by the caller at {@code b[off, off + len)}:
   * they are read again, with the same stream offsets.
   */
  void unread(byte[] b, int off, int len) {
    if (len <= 0) {
      return;
    }
    if (len > position()) {
      throw new IllegalArgumentException("cannot put back more than was read");
    }
    int left = end - pos;
    byte[] to = new byte[len + left];
    System.arraycopy(b, off, to, 0, len);
    System.arraycopy(buf, pos, to, len, left);
    consumed = position() - len;
    buf = to;
    pos = 0;
    end = to.length;
  }
}
