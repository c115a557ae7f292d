package io.webindex.core.read;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes gzip, multi-member gzip (as Common Crawl writes it: one member per record) included, and
 * survives damage instead of throwing: every byte inflated before the damage is delivered, the
 * damage is reported to a {@link Damage} listener with the decoded offset where it was found, and
 * decoding resumes at the next intact-looking member header (a truncated file simply ends). A
 * {@code '\n'} is delivered where damaged data was cut, so that the record cut short and the first
 * record of the next member are never glued into one line.
 */
final class GzipDecoder extends InputStream {
  /** Receives damage as it is found. */
  interface Damage {
    /**
     * @param decodedOffset how many decoded bytes were delivered before the damage was found
     */
    void found(long decodedOffset, String detail);
  }

  private static final int BUF = 1 << 18;

  /** How far back from a failure the start of the damaged member is kept for resynchronising. */
  private static final int KEEP = 1 << 16;

  private static final int FTEXT_RESERVED = 0xE0;
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int MAX_HEADER_FIELD = 1 << 16;

  private enum State {
    HEADER,
    INFLATE,
    TRAILER,
    DONE
  }

  private final InputStream raw;
  private final Damage damage;
  private final byte[] in = new byte[BUF];
  private int inPos;
  private int inEnd;
  private int mark = -1; // start of the current member in 'in', or -1 once dropped
  private boolean rawEof;
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private long memberOut;
  private long delivered;
  private boolean pendingNewline;
  private boolean firstMember = true;
  private State state = State.HEADER;

  GzipDecoder(InputStream raw, Damage damage) {
    this.raw = raw;
    this.damage = damage;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (true) {
      if (pendingNewline) {
        pendingNewline = false;
        b[off] = '\n';
        delivered++;
        return 1;
      }
      switch (state) {
        case DONE -> {
          return -1;
        }
        case HEADER -> header();
        case TRAILER -> trailer();
        case INFLATE -> {
          int n = inflate(b, off, len);
          if (n > 0) {
            delivered += n;
            return n;
          }
        }
      }
    }
  }

  private void header() throws IOException {
    mark = inPos;
    if (!ensure(1)) {
      state = State.DONE; // clean end after the last member
      return;
    }
    String bad = readHeader();
    if (bad == null) {
      inflater.reset();
      crc.reset();
      memberOut = 0;
      firstMember = false;
      state = State.INFLATE;
      return;
    }
    fail(firstMember ? bad : "not a gzip member after the previous one: " + bad);
  }

  /** Parses a member header at inPos; returns null when it is fine, else what is wrong. */
  private String readHeader() throws IOException {
    if (!ensure(10)) {
      return "truncated gzip header";
    }
    if ((in[inPos] & 0xff) != 0x1f || (in[inPos + 1] & 0xff) != 0x8b) {
      return "bad gzip magic";
    }
    if (in[inPos + 2] != 8) {
      return "unknown gzip compression method";
    }
    int flags = in[inPos + 3] & 0xff;
    if ((flags & FTEXT_RESERVED) != 0) {
      return "reserved gzip flags set";
    }
    inPos += 10;
    if ((flags & FEXTRA) != 0) {
      if (!ensure(2)) {
        return "truncated gzip header";
      }
      int xlen = (in[inPos] & 0xff) | ((in[inPos + 1] & 0xff) << 8);
      inPos += 2;
      if (!ensure(xlen)) {
        return "truncated gzip header";
      }
      inPos += xlen;
    }
    for (int field : new int[] {FNAME, FCOMMENT}) {
      if ((flags & field) != 0) {
        int n = 0;
        while (true) {
          if (!ensure(1)) {
            return "truncated gzip header";
          }
          if (in[inPos++] == 0) {
            break;
          }
          if (++n > MAX_HEADER_FIELD) {
            return "gzip header field too long";
          }
        }
      }
    }
    if ((flags & FHCRC) != 0) {
      if (!ensure(2)) {
        return "truncated gzip header";
      }
      inPos += 2;
    }
    return null;
  }

  private int inflate(byte[] b, int off, int len) throws IOException {
    if (inflater.needsInput()) {
      if (inPos == inEnd && !ensure(1)) {
        damage.found(delivered, "truncated gzip: the input ends inside a member");
        state = State.DONE;
        return 0;
      }
      inflater.setInput(in, inPos, inEnd - inPos);
    }
    int n;
    try {
      n = inflater.inflate(b, off, len);
    } catch (DataFormatException e) {
      inPos = inEnd - inflater.getRemaining();
      fail("damaged gzip data: " + e.getMessage());
      return 0;
    }
    inPos = inEnd - inflater.getRemaining();
    if (n > 0) {
      crc.update(b, off, n);
      memberOut += n;
      return n;
    }
    if (inflater.finished()) {
      state = State.TRAILER;
    } else if (inflater.needsDictionary()) {
      fail("damaged gzip data: a preset dictionary");
    } else if (inflater.needsInput()) {
      inPos = inEnd; // all given input consumed; the next call refills
    }
    return 0;
  }

  private void trailer() throws IOException {
    if (!ensure(8)) {
      damage.found(delivered, "truncated gzip: the input ends in a member trailer");
      state = State.DONE;
      return;
    }
    long crcValue = le32(inPos);
    long size = le32(inPos + 4);
    inPos += 8;
    state = State.HEADER;
    if (crcValue != crc.getValue() || size != (memberOut & 0xffffffffL)) {
      // the data is delivered already; the next member is looked for from this member's start,
      // in case its data ran into the next member's bytes
      fail("gzip member fails its CRC or length check");
    }
  }

  private long le32(int i) {
    return (in[i] & 0xffL)
        | ((in[i + 1] & 0xffL) << 8)
        | ((in[i + 2] & 0xffL) << 16)
        | ((in[i + 3] & 0xffL) << 24);
  }

  /** Reports damage and moves to the next member header after the damaged member's start. */
  private void fail(String detail) throws IOException {
    damage.found(delivered, detail);
    if (delivered > 0 || !firstMember) {
      pendingNewline = true;
    }
    int from = mark >= 0 ? mark + 1 : inPos;
    inPos = from;
    mark = -1;
    while (true) {
      for (int i = inPos; i + 3 < inEnd; i++) {
        if ((in[i] & 0xff) == 0x1f
            && (in[i + 1] & 0xff) == 0x8b
            && in[i + 2] == 8
            && (in[i + 3] & FTEXT_RESERVED) == 0) {
          inPos = i;
          state = State.HEADER;
          return;
        }
      }
      inPos = Math.max(inPos, inEnd - 3); // a header may straddle the refill
      if (!refill()) {
        state = State.DONE;
        return;
      }
    }
  }

  /** Makes {@code n} raw bytes available at inPos; false when the input ends first. */
  private boolean ensure(int n) throws IOException {
    while (inEnd - inPos < n) {
      if (!refill()) {
        return false;
      }
    }
    return true;
  }

  /** Reads more raw bytes, compacting the buffer; false when no more could be read. */
  private boolean refill() throws IOException {
    if (rawEof) {
      return false;
    }
    if (inEnd == in.length) {
      int keepFrom = mark >= 0 && inPos - mark <= KEEP ? mark : inPos;
      if (mark >= 0 && mark < keepFrom) {
        mark = -1;
      }
      int left = inEnd - keepFrom;
      if (left >= in.length) {
        throw new IllegalStateException("gzip header larger than the buffer");
      }
      System.arraycopy(in, keepFrom, in, 0, left);
      inPos -= keepFrom;
      if (mark >= 0) {
        mark -= keepFrom;
      }
      inEnd = left;
    }
    int r;
    do {
      r = raw.read(in, inEnd, in.length - inEnd);
    } while (r == 0);
    if (r < 0) {
      rawEof = true;
      return false;
    }
    inEnd += r;
    return true;
  }

  @Override
  public void close() throws IOException {
    inflater.end();
    raw.close();
  }
}
