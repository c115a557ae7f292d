package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.LocalBatches;
import io.webindex.testkit.AccumuloITBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.fluo.api.client.FluoAdmin;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the loader's cluster tests share: a fresh application (no resume point: it loads from batch
 * 0) exporting to a fresh table, on MiniAccumulo with the webindex application, and batches of
 * pages unique to their batch. {@link BatchLoadingIT} loads them once; {@link WatchingLoaderIT}
 * watches for them. Two classes so that the module's forks share the work.
 */
abstract class LoaderITBase extends AccumuloITBase {
  @TempDir Path tmp;
  WebindexConfig cfg;
  Path confFile;
  Path batches;

  /** A fresh application (no resume point: it loads from batch 0) exporting to a fresh table. */
  @BeforeEach
  void setUp() throws Exception {
    String prefix = newTableName("bl");
    confFile = writeWebindexConf(tmp, prefix);
    cfg = WebindexConfig.load(confFile, Map.of());
    batches = tmp.resolve("store").resolve("batches");
    Files.createDirectories(batches);
    FluoConfiguration fc = WebindexApp.connection(cfg, cfg.fluoApp());
    WebindexApp.configure(fc, cfg, createTable(prefix + "_q"), 1);
    try (FluoAdmin admin = WebindexApp.admin(fc)) {
      admin.initialize(
          new FluoAdmin.InitializationOptions().setClearTable(true).setClearZookeeper(true));
    }
  }

  /** {@code pages} page JSON lines, one page each, unique to batch {@code batch}. */
  static byte[] pages(long batch, int pages) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < pages; i++) {
      sb.append("{\"url\":\"http://b")
          .append(batch)
          .append(".example.com/p")
          .append(i)
          .append(
              "\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[\"http://hub.example.com/\"]}\n");
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Batch {@code batch} with {@code pages} pages, written as docs/input.md says. */
  void batch(long batch, int pages) throws Exception {
    LocalBatches.write(batches, batch, Map.of("part-0.jsonl", pages(batch, pages)));
  }

  BatchApplier applier(FluoClient client, StringWriter progress) {
    return new BatchApplier(client, cfg, new Configuration(), new PrintWriter(progress, true));
  }
}
