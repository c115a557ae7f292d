package io.webindex.cli.bench;

import static io.webindex.cli.bench.Timing.round;
import static io.webindex.cli.bench.Timing.secs;

import io.webindex.core.model.Page;
import io.webindex.core.read.PageReaders;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.QuerySchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.client.rfile.RFileWriter;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The single-pass floor of the recompute: every input file of the batch parsed once, then as many
 * cells as the recompute wrote, already sorted, written once to one RFile with the recompute's
 * compression.
 */
final class FloorStage {
  private FloorStage() {}

  /** Measures the floor; returns its figures. */
  static Map<String, Object> run(Path batch, long cells, Path tmp, String compression)
      throws IOException {
    long t = System.nanoTime();
    long links = parse(batch);
    double parse = secs(t);
    long w = System.nanoTime();
    Path rfile = tmp.resolve("floor.rf");
    write(rfile, cells, compression);
    double write = secs(w);
    Files.deleteIfExists(rfile);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seconds", round(parse + write));
    m.put("parseSeconds", round(parse));
    m.put("writeSeconds", round(write));
    m.put("compression", compression);
    m.put("linksParsed", links);
    return m;
  }

  /** Reads every file of the batch once; returns the links of its pages. */
  private static long parse(Path batch) throws IOException {
    ReadStats stats = new ReadStats();
    long[] links = {0};
    PageSink sink =
        new PageSink() {
          @Override
          public void page(Page page) {
            links[0] += page.links().size();
          }

          @Override
          public void reject(Reject reject) {}
        };
    try (Stream<Path> files = Files.list(batch)) {
      for (Path f : files.sorted().toList()) {
        try (InputStream in = Files.newInputStream(f)) {
          PageReaders.read(in, f.getFileName().toString(), 0, ReadLimits.DEFAULT, stats, sink);
        }
      }
    }
    return links[0];
  }

  /** Writes {@code cells} sorted incount cells of the query table's shape to one RFile. */
  private static void write(Path rfile, long cells, String compression) throws IOException {
    FileSystem local = FileSystem.getLocal(new Configuration());
    Value one = new Value(QuerySchema.countValue(1).getBytes(StandardCharsets.UTF_8));
    try (RFileWriter writer =
        RFile.newWriter()
            .to(rfile.toString())
            .withFileSystem(local)
            .withTableProperties(Map.of("table.file.compress.type", compression))
            .build()) {
      for (long i = 0; i < cells; i++) {
        writer.append(
            new Key(QuerySchema.sequencePageRow(i), QuerySchema.FAM_PAGE, QuerySchema.QUAL_INCOUNT),
            one);
      }
    }
  }
}
