package io.webindex.core;

import io.webindex.core.model.Page;
import io.webindex.core.read.PageReaders;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: resources and reading whole inputs into lists. */
public final class TestData {
  private TestData() {}

  public static byte[] resource(String name) {
    try (InputStream in = TestData.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String resourceText(String name) {
    return new String(resource(name), StandardCharsets.UTF_8);
  }

  /** What one read produced. */
  public record Read(
      List<Page> pages, List<Reject> rejects, ReadStats stats, PageReaders.Format format) {}

  public static Read read(byte[] input, String file, long batch) {
    return read(input, file, batch, ReadLimits.DEFAULT);
  }

  public static Read read(byte[] input, String file, long batch, ReadLimits limits) {
    List<Page> pages = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    ReadStats stats = new ReadStats();
    try {
      PageReaders.Format f =
          PageReaders.read(
              new ByteArrayInputStream(input),
              file,
              batch,
              limits,
              stats,
              new PageSink() {
                @Override
                public void page(Page page) {
                  pages.add(page);
                }

                @Override
                public void reject(Reject reject) {
                  rejects.add(reject);
                }
              });
      return new Read(pages, rejects, stats, f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
