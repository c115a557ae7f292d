package io.webindex.core.read;

import java.io.IOException;
import java.io.InputStream;

/** Reads a page JSON-lines stream (docs/input.md) line by line; offsets are line starts. */
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
    // an oversized line is skipped to its end as it streams by: only its head is kept
    while (lines.nextLine(limits.maxRecordBytes())) {
      if (lines.lineTooLong()) {
        parser.oversized(
            lines.line(), lines.lineLength(), lines.lineBytes(), lines.lineStart(), sink);
      } else {
        parser.parse(lines.line(), 0, lines.lineLength(), lines.lineStart(), sink);
      }
    }
  }
}
