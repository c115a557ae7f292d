package io.webindex.core.read;

import java.io.IOException;
import java.io.InputStream;

/** Reads every page version of one input file into a sink. */
public interface PageReader {
  /**
   * Reads {@code in} (already decompressed) to its end. Nothing the stream contains makes this
   * throw; only an I/O failure of the stream itself does.
   */
  void read(InputStream in, PageSink sink) throws IOException;
}
