package io.webindex.testkit;

import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The worked example of docs/tables.md from its one copy, {@code core}'s test resources: the pages
 * ({@code core/src/test/resources/io/webindex/core/worked-example.jsonl}) and the hand-written dump
 * of their query table ({@code worked-example.tsv}), on every IT's class path through {@code
 * core}'s test jar, a dependency of this module.
 */
public final class WorkedExample {
  private WorkedExample() {}

  /** The class-path resource of the pages, in JSON lines. */
  public static final String JSONL = "/io/webindex/core/worked-example.jsonl";

  /** The class-path resource of the hand-written dump, in the dump format. */
  public static final String TSV = "/io/webindex/core/worked-example.tsv";

  /** The pages, read as the engines read them. */
  public static List<Page> pages() {
    return JsonLinesFixtures.read(WorkedExample.class, JSONL);
  }

  /** A fresh reference index of the pages (core's, the functions the engines call). */
  public static ReferenceIndex index() {
    ReferenceIndex index = new ReferenceIndex();
    index.applyAll(pages());
    return index;
  }

  /** The pages' file, as written. */
  public static String jsonl() {
    return text(JSONL);
  }

  /** The hand-written dump of the pages' query table. */
  public static String dump() {
    return text(TSV);
  }

  private static String text(String resource) {
    try (InputStream in = WorkedExample.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("no resource " + resource + " (core's test jar)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
