package io.webindex.cli.bench;

import io.webindex.cli.Cli;
import io.webindex.cli.EmbeddedAccumulo;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.synth.SyntheticWeb;
import io.webindex.store.RunRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.accumulo.core.client.Connector;

/**
 * What every stage of the bench works with: the embedded instance in the temporary directory, its
 * connection file (the {@code --conf} of every command run), the raw page store's batches and the
 * synthetic web written into it.
 */
record BenchEnv(
    Cli ctx,
    Steps steps,
    BenchOptions options,
    EmbeddedAccumulo accumulo,
    String conf,
    Connector conn,
    RunRegistry runs,
    Path tmp,
    Path batches,
    SyntheticWeb web) {

  static BenchEnv of(
      Cli ctx, Steps steps, BenchOptions options, EmbeddedAccumulo accumulo, Path tmp)
      throws IOException {
    String conf = accumulo.connectionFile().toString();
    Connector conn = accumulo.connector();
    RunRegistry runs = new RunRegistry(conn, accumulo.config().metaTable());
    Path batches = tmp.resolve("store").resolve(BatchLayout.BATCHES_DIR);
    Files.createDirectories(batches);
    SyntheticWeb web =
        new SyntheticWeb(options.seed(), options.pages(), options.deltaPages(), options.domains());
    return new BenchEnv(ctx, steps, options, accumulo, conf, conn, runs, tmp, batches, web);
  }

  /** Where the bench reports its progress. */
  PrintWriter err() {
    return ctx.err();
  }
}
