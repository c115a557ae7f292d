package io.webindex.cli;

import io.webindex.core.args.Args;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.LocalBatches;
import io.webindex.store.StopOnSignal;
import io.webindex.web.WebOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code demo}: the whole cycle on one machine with no setup. Starts an embedded Accumulo in a temp
 * directory, stores the {@code --input} paths as batch 0 and each {@code --delta} as the next
 * batch, recomputes over all of them, writes the dump to {@code DIR/batch.tsv} and prints the three
 * answers. Without inputs it uses the shipped sample (the worked example of docs/tables.md).
 *
 * <p>This class parses the command line and stores the batches; {@link DemoCycle} runs the cycle
 * step by step.
 */
final class DemoCommand implements Command {
  static final String SAMPLE = "/io/webindex/cli/demo/pages-00000.jsonl";
  static final int DEFAULT_CRAWL = 10;
  static final int MAX_CRAWL = 1000;

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String summary() {
    return "run the whole cycle embedded, on sample data or --input/--delta paths";
  }

  @Override
  public String usage() {
    return """
        usage: bin/webindex demo [--input PATH]... [--delta PATH]... [--out DIR] [--keep]
                                 [--crawl N] [--serve [--port P]]

        Starts an embedded Accumulo in a temporary directory and treats the --input paths as
        batch 0 and each --delta as the next batch (1, 2, ...). Then the whole cycle:
          1. a MapReduce recompute of batch 0 into a fresh table, with the Fluo seed;
          2. the Fluo application, started from that run, applies the deltas to that table
             (the live table), waits until idle, and DIR/incremental.tsv gets its dump;
          3. a MapReduce recompute of all batches: DIR/batch.tsv gets its dump;
          4. the consistency check of the two tables, and of the Fluo table against the
             batch run's seed: DIR/check.json, DIR/check.html and the verdict;
          5. the crawl loop on the live table: the frontier's first URLs due (one per host),
             then a crawler takes up to N of them through the URLFrontier operations (one per
             host), reports each back, and its pages (each as the index knows it, a page
             never crawled without links) form the next batch, DIR/crawl.jsonl, which the
             Fluo application applies: each URL is then due at its schedule's next fetch.
        It prints the three answers from the live table (the most referenced pages, the pages
        of the top page's domain, the pages that link to the top page), the verdict, the
        first URLs due and when the crawled ones are due again; exit status 0 iff
        consistent. With no --input it uses the shipped sample data (the worked example of
        docs/tables.md).

          --input PATH   a page file (JSON lines or WAT, plain or gzip) or a directory of them;
                         repeatable; all of them form batch 0
          --delta PATH   a file or directory forming the next batch; repeatable, in order
          --out DIR      where batch.tsv, incremental.tsv, check.json and check.html go
                         (default: ./demo-out)
          --keep         keep the temporary directory (Accumulo logs, run files) and say where
          --crawl N      URLs the crawl loop fetches (default 10; 0: only show the first due)
          --serve        then serve the live table and the check report with the web
                         application (bin/webindex serve) on 127.0.0.1, print its URL and
                         keep the embedded instance up until Ctrl-C
          --port P       the port of --serve (default 8080; 0 picks a free one)
        """;
  }

  @Override
  public int run(List<String> raw, Cli ctx) throws Exception {
    Args args =
        Args.parse(
            raw,
            Set.of("input", "delta", "out", "port", "crawl"),
            Set.of("keep", "serve"),
            Set.of("input", "delta"));
    if (args.helpRequested()) {
      ctx.out().print(usage());
      return ExitCodes.OK;
    }
    DemoCycle.Options options = options(args, ctx);
    Files.createDirectories(options.out());

    Path tmp = Files.createTempDirectory("webindex-demo-");
    StopOnSignal signal = options.serve() ? new StopOnSignal(ctx::requestStop) : null;
    try (EmbeddedAccumulo accumulo = EmbeddedAccumulo.start(tmp, ctx.embeddedNativeMap())) {
      Path batches = storeBatches(tmp, options, ctx);
      return new DemoCycle(accumulo, options, batches, ctx).run();
    } catch (DemoCycle.DemoFailed e) {
      ctx.err().println("demo: " + e.getMessage());
      return e.status;
    } finally {
      ScratchDirs.release(tmp, options.keep(), ctx.err(), "demo");
      if (signal != null) {
        signal.close();
      }
    }
  }

  private static DemoCycle.Options options(Args args, Cli ctx) {
    args.noPositionals();
    List<Path> inputs = existingPaths(args.values("input"), ctx);
    List<Path> deltas = existingPaths(args.values("delta"), ctx);
    Path out = ctx.userPath(args.value("out").orElse("demo-out"));
    boolean keep = args.has("keep");
    boolean serve = args.has("serve");
    int port = args.intValue("port", WebOptions.DEFAULT_PORT);
    if (port < 0 || port > 65535) {
      throw new UsageException("--port must be between 0 and 65535");
    }
    if (args.has("port") && !serve) {
      throw new UsageException("--port goes with --serve");
    }
    if (inputs.isEmpty() && !deltas.isEmpty()) {
      throw new UsageException("--delta needs at least one --input (batch 0)");
    }
    int crawl = args.intValue("crawl", DEFAULT_CRAWL);
    if (crawl < 0 || crawl > MAX_CRAWL) {
      throw new UsageException("--crawl must be between 0 and " + MAX_CRAWL);
    }
    return new DemoCycle.Options(inputs, deltas, out, keep, serve, port, crawl);
  }

  /**
   * Stores the inputs as batch 0 (the shipped sample without any) and each delta as the next batch,
   * each as docs/input.md says: its files under a temporary name, then its _SUCCESS marker, then
   * the rename to its number.
   */
  private static Path storeBatches(Path tmp, DemoCycle.Options options, Cli ctx)
      throws IOException {
    Path batches = tmp.resolve("store").resolve(BatchLayout.BATCHES_DIR);
    Path batch0 = LocalBatches.begin(batches, 0);
    if (options.inputs().isEmpty()) {
      try (InputStream in = DemoCommand.class.getResourceAsStream(SAMPLE)) {
        Files.copy(in, batch0.resolve("pages-00000.jsonl"));
      }
      ctx.err().println("demo: no --input given, using the shipped sample (the worked example)");
    } else {
      copyInto(options.inputs(), batch0);
    }
    LocalBatches.publish(batches, 0);
    List<Path> deltas = options.deltas();
    for (int d = 0; d < deltas.size(); d++) {
      copyInto(List.of(deltas.get(d)), LocalBatches.begin(batches, d + 1));
      LocalBatches.publish(batches, d + 1);
    }
    return batches;
  }

  /**
   * Copies files (as {@code NNN-name}) and directories (as {@code NNN-name/…}) into a batch, so
   * that files from different arguments never collide and their order is the arguments' order.
   */
  static void copyInto(List<Path> sources, Path batchDir) throws IOException {
    for (int i = 0; i < sources.size(); i++) {
      Path src = sources.get(i);
      String prefix = String.format("%03d-", i);
      Path target = batchDir.resolve(prefix + src.getFileName());
      if (Files.isDirectory(src)) {
        try (Stream<Path> files = Files.walk(src)) {
          for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
            Path to = target.resolve(src.relativize(f).toString());
            Files.createDirectories(to.getParent());
            Files.copy(f, to);
          }
        }
      } else {
        Files.copy(src, target);
      }
    }
  }

  /** The paths of {@code --input} or {@code --delta}, each of which must exist. */
  private static List<Path> existingPaths(List<String> given, Cli ctx) {
    List<Path> paths = new ArrayList<>();
    for (String g : given) {
      Path p = ctx.userPath(g);
      if (!Files.exists(p)) {
        throw new UsageException("no such file or directory: " + p);
      }
      paths.add(p);
    }
    return paths;
  }
}
