package io.webindex.core.read;

import java.io.IOException;
import java.io.InputStream;

/** Reads a page JSON-lines stream (SPEC §2) line by line; offsets are line starts. */
public final class JsonLinesReader implements PageReader {
  private final JsonLinesParser parser;
  private final ReadLimits limits;

  public JsonLinesReader(String file, long batch, ReadLimits limits, ReadStats stats) {
    this.parser = new JsonLinesParser(file, batch, limits, stats);
    this.limits = limits;
  }

  @Override
  public void read(InputStream in, PageSink sink) throws IOException {
    ByteLineReader lines = new ByteLineReader(in);
    // keep one byte past the limit so an oversized line is seen as such
    while (lines.nextLine(limits.maxRecordBytes() + 1)) {
      int len = lines.lineTooLong() ? limits.maxRecordBytes() + 1 : lines.lineLength();
      if (lines.lineTooLong()) {
        parser.parse(padTo(lines.line(), lines.lineLength(), len), 0, len, lines.lineStart(), sink);
      } else {
        parser.parse(lines.line(), 0, len, lines.lineStart(), sink);
      }
    }
  }

  /** An oversized line keeps only its head; the parser sees its length and rejects it unread. */
  private static byte[] padTo(byte[] head, int headLen, int len) {
    byte[] out = new byte[len];
    System.arraycopy(head, 0, out, 0, Math.min(headLen, len));
    return out;
  }
}
