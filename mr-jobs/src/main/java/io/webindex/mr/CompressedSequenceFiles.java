package io.webindex.mr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileRecordReader;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The recompute's intermediate SequenceFiles (job 1's references, job 2's cells for job 3),
 * block-compressed with the codec of {@code webindex.recompute.compression}: at 10M pages job 1's
 * references are 22 GB uncompressed, kept while job 2 runs. Only these outputs: Hadoop's own {@code
 * mapreduce.output.fileoutputformat.compress} would also compress the rejects, which operators read
 * as text. Read back with {@link InputFormat}.
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

  /**
   * Reads the intermediate SequenceFiles as {@link SequenceFileInputFormat} does, in splits that
   * are not {@link FileSplit}s. For a {@code FileSplit} Hadoop's map task asks the file system's
   * statistics for the bytes read before and after every record ({@code
   * FileSystem.Statistics.getBytesRead}, which visits the statistics of every thread that used the
   * file system): about 5 % of the samples of a 1M-page recompute, in the maps of jobs 2 and 3 with
   * their 14.3M and 8.8M records. The jobs count their records themselves; Hadoop's "bytes read"
   * counter of their input stays 0.
   */
  public static final class InputFormat<K, V>
      extends org.apache.hadoop.mapreduce.InputFormat<K, V> {
    private final SequenceFileInputFormat<K, V> files = new SequenceFileInputFormat<>();

    @Override
    public List<InputSplit> getSplits(JobContext context) throws IOException {
      List<InputSplit> splits = new ArrayList<>();
      for (InputSplit s : files.getSplits(context)) {
        splits.add(new Split((FileSplit) s));
      }
      return splits;
    }

    @Override
    public RecordReader<K, V> createRecordReader(InputSplit split, TaskAttemptContext context) {
      return new Reader<>();
    }
  }

  /** A {@link FileSplit} in a class of its own (see {@link InputFormat}). */
  public static final class Split extends InputSplit implements Writable {
    private final FileSplit file;

    /** For Hadoop, which reads the split with {@link #readFields}. */
    public Split() {
      this(new FileSplit());
    }

    Split(FileSplit file) {
      this.file = file;
    }

    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public String[] getLocations() throws IOException {
      return file.getLocations();
    }

    @Override
    public org.apache.hadoop.mapred.SplitLocationInfo[] getLocationInfo() throws IOException {
      return file.getLocationInfo();
    }

    @Override
    public void write(DataOutput out) throws IOException {
      file.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      file.readFields(in);
    }

    @Override
    public String toString() {
      return file.toString();
    }
  }

  /** Hadoop's SequenceFile reader, given the file split inside a {@link Split}. */
  private static final class Reader<K, V> extends SequenceFileRecordReader<K, V> {
    @Override
    public void initialize(InputSplit split, TaskAttemptContext context)
        throws IOException, InterruptedException {
      super.initialize(((Split) split).file, context);
    }
  }
}
