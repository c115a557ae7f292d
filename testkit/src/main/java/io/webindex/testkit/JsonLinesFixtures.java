package io.webindex.testkit;

import io.webindex.core.model.Page;
import io.webindex.core.read.PageReaders;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Page fixtures in JSON lines, read the way the engines read them. */
public final class JsonLinesFixtures {
  private JsonLinesFixtures() {}

  /**
   * The pages of class-path resource {@code resource} (relative to {@code owner}'s class loader,
   * e.g. {@code /io/webindex/core/worked-example.jsonl}), read as batch 0 file {@code
   * part-0.jsonl}.
   *
   * @throws AssertionError when the resource is missing or any line is rejected
   */
  public static List<Page> read(Class<?> owner, String resource) {
    List<Page> pages = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("no resource " + resource);
      }
      PageReaders.read(
          in,
          "part-0.jsonl",
          0,
          ReadLimits.DEFAULT,
          new ReadStats(),
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
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!rejects.isEmpty()) {
      throw new AssertionError("rejected lines in " + resource + ": " + rejects);
    }
    return pages;
  }
}
