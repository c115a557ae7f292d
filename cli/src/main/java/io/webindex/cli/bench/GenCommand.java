package io.webindex.cli.bench;

import io.webindex.cli.Cli;
import io.webindex.cli.Command;
import io.webindex.cli.ExitCodes;
import io.webindex.cli.UsageException;
import io.webindex.core.args.Args;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.synth.SyntheticWeb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/** {@code bin/webindex gen}: a reproducible synthetic web as raw-store batches. */
public final class GenCommand implements Command {
  /** The command line of {@code gen}, checked. */
  private record Options(
      int pages, Path out, long seed, int deltas, int deltaPages, int domains, boolean gzip) {}

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
                                [--delta-pages M] [--domains D] [--gzip]

        Writes a synthetic web in the raw page store layout: DIR/batches/00000 holds the
        initial crawl of N pages (page JSON lines, 100,000 pages per part file), and
        DIR/batches/00001 to 0000K hold K delta batches of M page versions each: re-crawls
        with new links, new pages, deletions, stale versions (crawled before the initial
        crawl) and unchanged re-crawls. URLs spread over D registrable domains (default N/40)
        of up to four hosts each (the bare host, www. and two subdomains). Link targets follow a power law (a few front pages
        hold a large share of all inlinks), hosts include subdomains, multi-label public
        suffixes, IP hosts, ports and https; links come raw, with a few duplicates and self
        links. The same N, S, M and D always give the same bytes. Every batch is written under
        a temporary name, gets its _SUCCESS marker last and is then renamed to its number, so
        a running loader never reads half of one; existing batches are never overwritten. Point --out at a store root (e.g.
        work/dev/store of bin/webindex dev, or the file: URI webindex.properties names) to load
        or recompute the pages directly; for HDFS, write locally and copy it up with hadoop fs -put.

        options:
          --pages N        pages of the initial crawl (batch 0)
          --out DIR        the store root to write DIR/batches/... into
          --seed S         the seed (default 1)
          --deltas K       delta batches after batch 0 (default 0)
          --delta-pages M  page versions per delta batch (default N/20, at least 1)
          --domains D      registrable domains (default N/40, at least 4; 1,000,000 pages
                           over 2,500 domains have about 10,000 hosts)
          --gzip           write .jsonl.gz files instead of .jsonl
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Options o = options(raw, ctx);
    SyntheticWeb web = new SyntheticWeb(o.seed(), o.pages(), o.deltaPages(), o.domains());
    Path batches = o.out().resolve(BatchLayout.BATCHES_DIR);
    requireNew(batches, o.deltas());
    Files.createDirectories(batches);
    long start = System.nanoTime();
    SyntheticBatches.Written total = writeAll(web, batches, o, ctx);
    long versions = 0;
    for (int b = 0; b <= o.deltas(); b++) {
      versions += web.batchSize(b);
    }
    double secs = (System.nanoTime() - start) / 1e9;
    ctx.out()
        .printf(
            Locale.ROOT,
            "generated %,d page versions (%,d pages + %d deltas of %,d), %,d links, %,d bytes in"
                + " %.1f s (%,.0f versions/s), seed %d, into %s%n",
            versions,
            o.pages(),
            o.deltas(),
            o.deltaPages(),
            total.links(),
            total.bytes(),
            secs,
            versions / Math.max(secs, 1e-9),
            o.seed(),
            batches);
    return ExitCodes.OK;
  }

  private static Options options(List<String> raw, Cli ctx) {
    Args args =
        Args.parse(
            raw,
            Set.of("pages", "out", "seed", "deltas", "delta-pages", "domains"),
            Set.of("gzip"));
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
    int domains = domains(args, pages);
    return new Options(pages, out, seed, deltas, deltaPages, domains, args.has("gzip"));
  }

  /**
   * {@code --domains D}: the synthetic web's registrable domains (default {@link
   * SyntheticWeb#defaultDomains}), as gen and bench take it.
   */
  static int domains(Args args, int pages) {
    int domains = args.intValue("domains", SyntheticWeb.defaultDomains(pages));
    if (domains < 4) {
      throw new UsageException("--domains must be at least 4");
    }
    return domains;
  }

  /** gen never overwrites a batch: none of those it would write may exist. */
  private static void requireNew(Path batches, int deltas) {
    for (int b = 0; b <= deltas; b++) {
      Path dir = batches.resolve(BatchLayout.dirName(b));
      if (Files.exists(dir)) {
        throw new UsageException(
            "batch "
                + dir
                + " exists already: gen never overwrites a batch (choose another --out)");
      }
    }
  }

  /** Writes batches 0 to {@code deltas}, each reported on stderr; returns their sum. */
  private static SyntheticBatches.Written writeAll(
      SyntheticWeb web, Path batches, Options o, Cli ctx) throws IOException, InterruptedException {
    long links = 0;
    long bytes = 0;
    ExecutorService pool = SyntheticBatches.pool();
    try {
      for (int b = 0; b <= o.deltas(); b++) {
        long t = System.nanoTime();
        SyntheticBatches.Written batch = SyntheticBatches.write(web, b, batches, o.gzip(), pool);
        links += batch.links();
        bytes += batch.bytes();
        ctx.err()
            .printf(
                Locale.ROOT,
                "gen: batch %s: %,d versions, %,d links, %,d bytes in %.1f s%n",
                BatchLayout.dirName(b),
                web.batchSize(b),
                batch.links(),
                batch.bytes(),
                (System.nanoTime() - t) / 1e9);
      }
    } finally {
      pool.shutdownNow();
    }
    return new SyntheticBatches.Written(links, bytes);
  }
}
