package io.webindex.core.read;

import io.webindex.core.model.Page;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Opens any supported input: plain or gzip (detected by its magic bytes, multi-member gzip as
 * Common Crawl writes it included), JSON lines or WAT (detected by content: a stream whose first
 * non-blank bytes are {@code WARC/} is WAT). Damaged compression ends the file with a {@code
 * CORRUPT_COMPRESSION} reject instead of an exception: what was decoded before the damage is read,
 * and reading resumes at the next intact gzip member (see {@link GzipDecoder}).
 */
public final class PageReaders {
  private PageReaders() {}

  /** The input formats. */
  public enum Format {
    JSON_LINES,
    WAT
  }

  /**
   * Reads one whole file.
   *
   * @param file the file's name as recorded in page versions and rejects (relative to its batch)
   */
  public static Format read(
      InputStream raw, String file, long batch, ReadLimits limits, ReadStats stats, PageSink sink)
      throws IOException {
    BufferedInputStream buffered = new BufferedInputStream(raw, 1 << 16);
    // damage found by the decoder waits until the records before it have been passed on, so that
    // rejects and pages reach the sink in the order of their offsets
    Deque<Reject> damage = new ArrayDeque<>();
    PageSink ordered =
        new PageSink() {
          private void before(long offset) {
            while (!damage.isEmpty() && damage.peekFirst().offset() <= offset) {
              sink.reject(damage.pollFirst());
            }
          }

          @Override
          public void page(Page page) {
            before(page.version().offset());
            sink.page(page);
          }

          @Override
          public void reject(Reject reject) {
            before(reject.offset());
            sink.reject(reject);
          }
        };
    InputStream in =
        isGzip(buffered)
            ? new BufferedInputStream(
                new GzipDecoder(
                    buffered,
                    (offset, detail) -> {
                      stats.inc(ReadCounter.RECORDS);
                      stats.reject(RejectReason.CORRUPT_COMPRESSION);
                      damage.addLast(
                          new Reject(file, offset, RejectReason.CORRUPT_COMPRESSION, detail, ""));
                    }),
                1 << 16)
            : buffered;
    Format format = sniff(in);
    PageReader reader =
        format == Format.WAT
            ? new WatReader(file, batch, limits, stats)
            : new JsonLinesReader(file, batch, limits, stats);
    reader.read(in, ordered);
    while (!damage.isEmpty()) {
      sink.reject(damage.pollFirst());
    }
    return format;
  }

  private static boolean isGzip(BufferedInputStream in) throws IOException {
    in.mark(2);
    int a = in.read();
    int b = in.read();
    in.reset();
    return a == 0x1f && b == 0x8b;
  }

  private static Format sniff(InputStream in) throws IOException {
    in.mark(1024);
    byte[] head = new byte[1024];
    int n = 0;
    int k;
    while (n < head.length && (k = in.read(head, n, head.length - n)) > 0) {
      n += k;
    }
    in.reset();
    int i = 0;
    while (i < n && (head[i] == ' ' || head[i] == '\r' || head[i] == '\n' || head[i] == '\t')) {
      i++;
    }
    boolean warc =
        n - i >= 5
            && head[i] == 'W'
            && head[i + 1] == 'A'
            && head[i + 2] == 'R'
            && head[i + 3] == 'C'
            && head[i + 4] == '/';
    return warc ? Format.WAT : Format.JSON_LINES;
  }
}
