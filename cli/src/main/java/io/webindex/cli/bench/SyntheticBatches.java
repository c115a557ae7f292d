package io.webindex.cli.bench;

import io.webindex.cli.ScratchDirs;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.SyntheticWeb;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPOutputStream;

/**
 * Writes batches of a {@link SyntheticWeb} into a raw page store on the local file system, as
 * {@code gen} and the bench do: each batch under its temporary name, one thread per core, then its
 * marker and the rename to its number.
 */
final class SyntheticBatches {
  /** Versions per part file: one map task each when the recompute reads them. */
  static final int FILE_PAGES = 100_000;

  /** What one batch holds: its links and the bytes of its files. */
  record Written(long links, long bytes) {}

  private SyntheticBatches() {}

  /** A pool of one thread per core, for writing the part files of batches. */
  static ExecutorService pool() {
    return Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
  }

  /** Writes one batch with a pool of its own. */
  static Written write(SyntheticWeb web, int batch, Path batches, boolean gzip)
      throws IOException, InterruptedException {
    ExecutorService pool = pool();
    try {
      return write(web, batch, batches, gzip, pool);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Writes one batch under its temporary name, its part files on {@code pool}, then renames it. */
  static Written write(
      SyntheticWeb web, int batch, Path batches, boolean gzip, ExecutorService pool)
      throws IOException, InterruptedException {
    return write(web, batch, batch, batches, gzip, pool);
  }

  /**
   * Writes the versions of the web's batch {@code content} as batch number {@code batch} of the
   * store, with a pool of its own: a delta written after other batches took the numbers it would
   * have had.
   */
  static Written write(SyntheticWeb web, int content, int batch, Path batches, boolean gzip)
      throws IOException, InterruptedException {
    ExecutorService pool = pool();
    try {
      return write(web, content, batch, batches, gzip, pool);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Written write(
      SyntheticWeb web, int content, int batch, Path batches, boolean gzip, ExecutorService pool)
      throws IOException, InterruptedException {
    Path tmp = LocalBatches.begin(batches, batch); // removes one left by an interrupted gen
    int size = web.batchSize(content);
    List<Future<Written>> parts = new ArrayList<>();
    for (int from = 0, part = 0; from < size; from += FILE_PAGES, part++) {
      int lo = from;
      int hi = Math.min(size, from + FILE_PAGES);
      Path file =
          tmp.resolve(String.format(Locale.ROOT, "part-%05d.jsonl%s", part, gzip ? ".gz" : ""));
      parts.add(pool.submit(() -> writePart(web, content, lo, hi, file, gzip)));
    }
    long links = 0;
    long bytes = 0;
    for (Future<Written> f : parts) {
      try {
        Written w = f.get();
        links += w.links();
        bytes += w.bytes();
      } catch (ExecutionException e) {
        ScratchDirs.delete(tmp);
        if (e.getCause() instanceof IOException io) {
          throw io;
        }
        throw new IOException("gen: writing batch " + batch + " failed: " + e.getCause(), e);
      }
    }
    LocalBatches.publish(batches, batch); // its _SUCCESS marker, then the rename
    return new Written(links, bytes);
  }

  private static Written writePart(
      SyntheticWeb web, int content, int from, int to, Path file, boolean gzip) throws IOException {
    long links = 0;
    try (OutputStream raw = Files.newOutputStream(file);
        OutputStream os = gzip ? new GZIPOutputStream(raw, 1 << 16) : raw;
        OutputStream buffered = new BufferedOutputStream(os, 1 << 16)) {
      StringBuilder line = new StringBuilder(4096);
      for (int n = from; n < to; n++) {
        line.setLength(0);
        links += web.writeVersion(content, n, line);
        buffered.write(line.toString().getBytes(StandardCharsets.US_ASCII));
      }
    }
    return new Written(links, Files.size(file));
  }
}
