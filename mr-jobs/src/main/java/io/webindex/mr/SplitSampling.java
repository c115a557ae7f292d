package io.webindex.mr;

import io.webindex.core.schema.QuerySchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;

/**
 * The query table's split points: job 1 samples the URIs of the references it writes, the split
 * points are picked evenly from the sorted samples, and job 2 writes each tablet's rows in one
 * reducer.
 */
final class SplitSampling {
  private SplitSampling() {}

  /** Average bytes of plain input per reference (a link or a page) job 1 writes. */
  static final long INPUT_BYTES_PER_REF = 64;

  /** Samples per tablet job 1 aims for. */
  static final long SAMPLES_PER_TABLET = 1000;

  /** The bytes of every file under {@code inputs} (a run's batch directories). */
  static long inputBytes(Configuration conf, List<Path> inputs) throws IOException {
    long bytes = 0;
    for (Path p : inputs) {
      bytes += p.getFileSystem(conf).getContentSummary(p).getLength();
    }
    return bytes;
  }

  /**
   * How often job 1 samples a reference's URI: about {@link #SAMPLES_PER_TABLET} samples per
   * tablet, estimated from the input's size in bytes (compressed input yields fewer, which still
   * splits evenly).
   */
  static long sampleEvery(long inputBytes, int tablets) {
    return Math.max(1, inputBytes / INPUT_BYTES_PER_REF / (tablets * SAMPLES_PER_TABLET));
  }

  /** The URIs job 1 sampled. */
  static List<byte[]> readSamples(FileSystem fs, Path samplesDir) throws IOException {
    List<byte[]> rows = new ArrayList<>();
    if (fs.exists(samplesDir)) {
      for (FileStatus st : fs.listStatus(samplesDir)) {
        if (!st.getPath().getName().startsWith("part")) {
          continue;
        }
        try (SequenceFile.Reader r =
            new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(st.getPath()))) {
          Text k = new Text();
          while (r.next(k, NullWritable.get())) {
            rows.add(k.copyBytes());
          }
        }
      }
    }
    return rows;
  }

  /**
   * {@code tablets - 1} split points, evenly spaced through the sorted samples (fewer when samples
   * repeat or are few).
   */
  static List<byte[]> pick(List<byte[]> sampleRows, int tablets) {
    List<byte[]> sorted = new ArrayList<>(sampleRows);
    sorted.sort(Arrays::compareUnsigned);
    List<byte[]> out = new ArrayList<>();
    for (int i = 1; i < tablets && !sorted.isEmpty(); i++) {
      byte[] row = sorted.get((int) ((long) i * sorted.size() / tablets));
      if (out.isEmpty() || Arrays.compareUnsigned(out.get(out.size() - 1), row) < 0) {
        out.add(row);
      }
    }
    return out;
  }

  /** The query table's split points of the URI split points: their page rows. */
  static List<byte[]> pageRows(List<byte[]> uriSplits) {
    List<byte[]> rows = new ArrayList<>();
    for (byte[] uri : uriSplits) {
      rows.add(
          QuerySchema.pageRow(new String(uri, StandardCharsets.UTF_8))
              .getBytes(StandardCharsets.UTF_8));
    }
    return rows;
  }

  /** Split points as one configuration value (base64, comma separated). */
  static String encode(List<byte[]> splits) {
    List<String> parts = new ArrayList<>();
    for (byte[] s : splits) {
      parts.add(Base64.getEncoder().encodeToString(s));
    }
    return String.join(",", parts);
  }

  /** The split points of {@link #encode}'s value (none for null or empty). */
  static List<byte[]> decode(String s) {
    List<byte[]> out = new ArrayList<>();
    if (s != null && !s.isEmpty()) {
      for (String p : s.split(",")) {
        out.add(Base64.getDecoder().decode(p));
      }
    }
    return out;
  }
}
