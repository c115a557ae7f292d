package io.webindex.cli.bench;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageReaders;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The batch of one latency sample: one new page, its URL unique to the sample, on the host of a
 * crawled page and linking to it, written as gen writes batches (under its temporary name, then
 * renamed).
 */
final class ProbeBatch {
  private static final String FILE = "part-00000.jsonl";

  private ProbeBatch() {}

  /**
   * Writes batch {@code batch} of the raw page store for sample {@code sample}, linking to {@code
   * target}. Returns the page as the loader reads it.
   */
  static Page write(WebindexConfig cfg, Path batches, int batch, String target, int sample)
      throws IOException {
    return write(cfg, batches, batch, target, "sample-" + sample, "latency sample " + sample);
  }

  /**
   * Writes batch {@code batch} for a sample whose page is {@code /webindex-bench-latency/<name>} on
   * the target's host, with {@code title} as its title and its link's anchor. Returns the page as
   * the loader reads it.
   */
  static Page write(
      WebindexConfig cfg, Path batches, int batch, String target, String name, String title)
      throws IOException {
    Path tmp = LocalBatches.begin(batches, batch);
    Path file = tmp.resolve(FILE);
    String line = inputLine(target, name, title);
    Files.writeString(file, line + "\n", StandardCharsets.UTF_8);
    Page page = readBack(cfg, file, batch, line);
    LocalBatches.publish(batches, batch); // its _SUCCESS marker, then the rename
    return page;
  }

  /** The sample's page in the input format (docs/input.md). */
  private static String inputLine(String target, String name, String title) {
    WebUrl to;
    WebUrl url;
    try {
      to = WebUrl.parse(target);
      url = WebUrl.parse("/webindex-bench-latency/" + name, to);
    } catch (InvalidUrlException e) {
      throw new IllegalStateException("the synthetic web made an invalid URL: " + target, e);
    }
    return PageJson.toInputLine(
        url.toString(),
        Instant.now().truncatedTo(ChronoUnit.SECONDS),
        title,
        List.of(new Link(to.toString(), to.key(), title)));
  }

  /** The file read as the loader reads it: exactly one page with one link. */
  private static Page readBack(WebindexConfig cfg, Path file, int batch, String line)
      throws IOException {
    List<Page> read = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      PageReaders.read(
          in,
          FILE,
          batch,
          cfg.readLimits(),
          new ReadStats(),
          new PageSink() {
            @Override
            public void page(Page page) {
              read.add(page);
            }

            @Override
            public void reject(Reject reject) {
              rejects.add(reject);
            }
          });
    }
    if (read.size() != 1 || !rejects.isEmpty() || read.get(0).links().size() != 1) {
      throw new IllegalStateException(
          "the latency sample's page was not read back as one page with one link: " + line);
    }
    return read.get(0);
  }
}
