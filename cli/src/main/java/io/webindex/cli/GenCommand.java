package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.schema.BatchLayout;
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
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPOutputStream;

/** {@code bin/webindex gen}: a reproducible synthetic web as raw-store batches. */
final class GenCommand implements Command {
  /** Versions per part file: one map task each when the recompute reads them. */
  static final int FILE_PAGES = 100_000;

  @Override
  public String name() {
    return "gen";
  }

  @Override
  public String summary() {
    return "generate a reproducible synthetic web as page batches";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex gen --pages N --out DIR [--seed S] [--deltas K]
                                [--delta-pages M] [--gzip]

        Writes a synthetic web in the raw page store layout: DIR/batches/00000 holds the
        initial crawl of N pages (page JSON lines, 100,000 pages per part file), and
        DIR/batches/00001 to 0000K hold K delta batches of M page versions each: re-crawls
        with new links, new pages, deletions, stale versions (crawled before the initial
        crawl) and unchanged re-crawls. Link targets follow a power law (a few front pages
        hold a large share of all inlinks), hosts include subdomains, multi-label public
        suffixes, IP hosts, ports and https; links come raw, with a few duplicates and self
        links. The same N, S and M always give the same bytes. Every batch is written under
        a temporary name, gets its _SUCCESS marker last and is then renamed to its number, so
        a running loader never reads half of one; existing batches are never overwritten. Point --out at a store root (e.g.
        work/dev/store of bin/webindex dev) to load or recompute the pages directly.

        options:
          --pages N        pages of the initial crawl (batch 0)
          --out DIR        the store root to write DIR/batches/... into
          --seed S         the seed (default 1)
          --deltas K       delta batches after batch 0 (default 0)
          --delta-pages M  page versions per delta batch (default N/20, at least 1)
          --gzip           write .jsonl.gz files instead of .jsonl
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(raw, Set.of("pages", "out", "seed", "deltas", "delta-pages"), Set.of("gzip"));
    args.expectPositionals(0, "");
    int pages = args.intValue("pages", -1);
    if (pages < 1) {
      throw new UsageException("--pages N (at least 1) is required");
    }
    Path out = ctx.userPath(args.required("out", "the store root to write into"));
    long seed;
    try {
      seed = Long.parseLong(args.value("seed").orElse("1"));
    } catch (NumberFormatException e) {
      throw new UsageException("--seed must be a whole number: " + args.value("seed").get());
    }
    int deltas = args.intValue("deltas", 0);
    if (deltas < 0) {
      throw new UsageException("--deltas must not be negative");
    }
    int deltaPages = args.intValue("delta-pages", Math.max(1, pages / 20));
    if (deltaPages < 1) {
      throw new UsageException("--delta-pages must be at least 1");
    }
    boolean gzip = args.has("gzip");
    SyntheticWeb web = new SyntheticWeb(seed, pages, deltaPages);

    Path batches = out.resolve(BatchLayout.BATCHES_DIR);
    for (int b = 0; b <= deltas; b++) {
      Path dir = batches.resolve(BatchLayout.dirName(b));
      if (Files.exists(dir)) {
        throw new UsageException(
            "batch "
                + dir
                + " exists already: gen never overwrites a batch (choose another --out)");
      }
    }
    Files.createDirectories(batches);
    long start = System.nanoTime();
    long links = 0;
    long bytes = 0;
    long versions = 0;
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int b = 0; b <= deltas; b++) {
        long t = System.nanoTime();
        long[] batch = writeBatch(web, b, batches, gzip, pool);
        links += batch[0];
        bytes += batch[1];
        versions += web.batchSize(b);
        ctx.err()
            .printf(
                Locale.ROOT,
                "gen: batch %s: %,d versions, %,d links, %,d bytes in %.1f s%n",
                BatchLayout.dirName(b),
                web.batchSize(b),
                batch[0],
                batch[1],
                (System.nanoTime() - t) / 1e9);
      }
    } finally {
      pool.shutdownNow();
    }
    double secs = (System.nanoTime() - start) / 1e9;
    ctx.out()
        .printf(
            Locale.ROOT,
            "generated %,d page versions (%,d pages + %d deltas of %,d), %,d links, %,d bytes in"
                + " %.1f s (%,.0f versions/s), seed %d, into %s%n",
            versions,
            pages,
            deltas,
            deltaPages,
            links,
            bytes,
            secs,
            versions / Math.max(secs, 1e-9),
            seed,
            batches);
    return 0;
  }

  /**
   * Writes one batch under its temporary name with one thread per core, then renames it; returns
   * {links, bytes}.
   */
  static long[] writeBatch(SyntheticWeb web, int batch, Path batches, boolean gzip)
      throws IOException, InterruptedException {
    ExecutorService pool =
        Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
    try {
      return writeBatch(web, batch, batches, gzip, pool);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Writes one batch under its temporary name, then renames it; returns {links, bytes}. */
  private static long[] writeBatch(
      SyntheticWeb web, int batch, Path batches, boolean gzip, ExecutorService pool)
      throws IOException, InterruptedException {
    Path tmp = LocalBatches.begin(batches, batch); // removes one left by an interrupted gen
    int size = web.batchSize(batch);
    List<Future<long[]>> parts = new ArrayList<>();
    for (int from = 0, part = 0; from < size; from += FILE_PAGES, part++) {
      int lo = from;
      int hi = Math.min(size, from + FILE_PAGES);
      Path file =
          tmp.resolve(String.format(Locale.ROOT, "part-%05d.jsonl%s", part, gzip ? ".gz" : ""));
      parts.add(pool.submit(() -> writePart(web, batch, lo, hi, file, gzip)));
    }
    long[] total = new long[2];
    for (Future<long[]> f : parts) {
      try {
        long[] r = f.get();
        total[0] += r[0];
        total[1] += r[1];
      } catch (ExecutionException e) {
        EmbeddedAccumulo.deleteRecursively(tmp);
        if (e.getCause() instanceof IOException io) {
          throw io;
        }
        throw new IOException("gen: writing batch " + batch + " failed: " + e.getCause(), e);
      }
    }
    LocalBatches.publish(batches, batch); // its _SUCCESS marker, then the rename
    return total;
  }

  private static long[] writePart(
      SyntheticWeb web, int batch, int from, int to, Path file, boolean gzip) throws IOException {
    long links = 0;
    try (OutputStream raw = Files.newOutputStream(file);
        OutputStream os = gzip ? new GZIPOutputStream(raw, 1 << 16) : raw;
        OutputStream buffered = new BufferedOutputStream(os, 1 << 16)) {
      StringBuilder line = new StringBuilder(4096);
      for (int n = from; n < to; n++) {
        line.setLength(0);
        links += web.writeVersion(batch, n, line);
        buffered.write(line.toString().getBytes(StandardCharsets.US_ASCII));
      }
    }
    return new long[] {links, Files.size(file)};
  }
}
