package io.webindex.testkit;

import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.LocalBatches;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The hand-checked goldens ({@code io/webindex/testkit/goldens/}, explained cell by cell in its
 * README.md): per golden, page JSON input in numbered batches ({@code batch-<n>.jsonl}) and the
 * whole expected dump after the last batch ({@code expected.tsv}). The goldens use disjoint
 * registrable domains, so the union of their inputs has the union of their dumps as its table: one
 * store and one engine run check them all.
 */
public final class Goldens {
  /** Every golden, by name. */
  public static final List<String> NAMES = List.of("keys", "domains", "links", "versions");

  private static final String DIR = "/io/webindex/testkit/goldens/";

  private Goldens() {}

  /** A golden's input: batch number → the content of its one file. */
  public static Map<Long, byte[]> batches(String golden) {
    Map<Long, byte[]> out = new TreeMap<>();
    for (long b = 0; ; b++) {
      byte[] content = resource(golden + "/batch-" + b + ".jsonl");
      if (content == null) {
        return out;
      }
      out.put(b, content);
    }
  }

  /** The last batch number of any golden. */
  public static long lastBatch() {
    long last = 0;
    for (String g : NAMES) {
      last = Math.max(last, batches(g).size() - 1L);
    }
    return last;
  }

  /** A golden's expected dump after its last batch, in table order. */
  public static List<String> expected(String golden) {
    byte[] content = resource(golden + "/expected.tsv");
    if (content == null) {
      throw new IllegalStateException("no expected.tsv for golden " + golden);
    }
    return new String(content, StandardCharsets.UTF_8).lines().toList();
  }

  /** The union of every golden's expected dump (in no particular order). */
  public static List<String> expectedUnion() {
    List<String> all = new ArrayList<>();
    for (String g : NAMES) {
      all.addAll(expected(g));
    }
    return all;
  }

  /**
   * Writes every golden's batches {@code <= upTo} into a raw page store: batch {@code n} of golden
   * {@code g} becomes {@code <root>/batches/<n, 5 digits>/<g>.jsonl}; each batch directory gets its
   * {@code _SUCCESS} marker after all of its files.
   */
  public static void writeStore(Path root, long upTo) throws IOException {
    SortedSet<Path> dirs = new TreeSet<>();
    for (String g : NAMES) {
      for (Map.Entry<Long, byte[]> b : batches(g).entrySet()) {
        if (b.getKey() <= upTo) {
          Path dir =
              Files.createDirectories(
                  root.resolve("batches").resolve(BatchLayout.dirName(b.getKey())));
          Files.write(dir.resolve(g + ".jsonl"), b.getValue());
          dirs.add(dir);
        }
      }
    }
    for (Path dir : dirs) {
      LocalBatches.markComplete(dir);
    }
  }

  private static byte[] resource(String name) {
    try (InputStream in = Goldens.class.getResourceAsStream(DIR + name)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
