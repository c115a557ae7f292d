package io.webindex.mr;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The recompute's intermediate SequenceFiles (job 1's references, job 2's cells for job 3),
 * block-compressed with the codec of {@code webindex.recompute.compression}: at 10M pages job 1's
 * references are 22 GB uncompressed, kept while job 2 runs. Only these outputs: Hadoop's own {@code
 * mapreduce.output.fileoutputformat.compress} would also compress the rejects, which operators read
 * as text.
 */
final class CompressedSequenceFiles {
  private CompressedSequenceFiles() {}

  /** The job setting: the name of the codec ({@code snappy}, {@code gz} or {@code none}). */
  static final String CODEC = "webindex.recompute.sequence.codec";

  /**
   * The codec of each setting; {@code gz} is zlib's deflate without the gzip framing (Hadoop's
   * GzipCodec needs the native library in a SequenceFile, DefaultCodec does not).
   */
  private static final Map<String, Class<? extends CompressionCodec>> CODECS =
      Map.of("snappy", SnappyCodec.class, "gz", DefaultCodec.class);

  /** Sets the codec of {@code job}'s {@link OutputFormat}s, by its configuration name. */
  static void setCodec(Job job, String compression) {
    if (!"none".equals(compression) && !CODECS.containsKey(compression)) {
      throw new IllegalArgumentException("no such compression: " + compression);
    }
    job.getConfiguration().set(CODEC, compression);
  }

  /** A SequenceFile output block-compressed with the job's {@link #CODEC} (none when unset). */
  public static final class OutputFormat<K, V> extends SequenceFileOutputFormat<K, V> {
    @Override
    protected SequenceFile.Writer getSequenceWriter(
        TaskAttemptContext context, Class<?> keyClass, Class<?> valueClass) throws IOException {
      Configuration conf = context.getConfiguration();
      Class<? extends CompressionCodec> codecClass = CODECS.get(conf.get(CODEC, "none"));
      SequenceFile.Writer.Option compression =
          codecClass == null
              ? SequenceFile.Writer.compression(CompressionType.NONE)
              : SequenceFile.Writer.compression(
                  CompressionType.BLOCK, ReflectionUtils.newInstance(codecClass, conf));
      return SequenceFile.createWriter(
          conf,
          SequenceFile.Writer.file(getDefaultWorkFile(context, "")),
          SequenceFile.Writer.keyClass(keyClass),
          SequenceFile.Writer.valueClass(valueClass),
          compression,
          SequenceFile.Writer.progressable(context));
    }
  }
}
