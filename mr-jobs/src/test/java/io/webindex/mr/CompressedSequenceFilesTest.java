package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recompute's intermediate SequenceFiles: block-compressed with the configured codec, read back
 * by their input format.
 */
class CompressedSequenceFilesTest {
  @TempDir Path dir;

  @Test
  void snappyAndGzWriteBlockCompressedFilesThatReadBackAndNoneWritesPlainOnes() throws Exception {
    for (String compression : List.of("snappy", "gz", "none")) {
      SequenceFile.Reader r = reader(write(compression));
      try (r) {
        assertEquals(!compression.equals("none"), r.isBlockCompressed(), compression);
        assertFalse(r.isCompressed() && !r.isBlockCompressed(), compression);
        if (compression.equals("snappy")) {
          assertEquals(SnappyCodec.class, r.getCompressionCodec().getClass());
        } else if (compression.equals("gz")) {
          assertEquals(DefaultCodec.class, r.getCompressionCodec().getClass());
        }
        Text k = new Text();
        LongWritable v = new LongWritable();
        List<String> read = new ArrayList<>();
        while (r.next(k, v)) {
          read.add(k + "=" + v.get());
        }
        assertEquals(List.of("a=1", "b=2", "c=3"), read, compression);
      }
    }
  }

  /**
   * The input format reads every record of every file back, in splits that are not Hadoop's
   * FileSplits (whose map tasks look up the file system's byte statistics around every record) and
   * that survive the serialisation a map task reads them through.
   */
  @Test
  void theInputFormatReadsEveryRecordInSplitsThatAreNotFileSplits() throws Exception {
    Path snappy = write("snappy");
    Path plain = write("none");
    Job job = Job.getInstance(new Configuration());
    // small splits: a split per block of the plain file as well
    job.getConfiguration().setLong("mapreduce.input.fileinputformat.split.maxsize", 64);
    for (Path p : List.of(snappy, plain)) {
      FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(p.toUri()));
    }
    CompressedSequenceFiles.InputFormat<Text, LongWritable> format =
        new CompressedSequenceFiles.InputFormat<>();
    List<InputSplit> splits = format.getSplits(job);
    assertTrue(splits.size() >= 2, splits.toString());
    List<String> read = new ArrayList<>();
    for (InputSplit split : splits) {
      assertFalse(split instanceof FileSplit, split.toString());
      // as a map task gets it: written by the job client, read back from its bytes
      DataOutputBuffer out = new DataOutputBuffer();
      ((CompressedSequenceFiles.Split) split).write(out);
      DataInputBuffer in = new DataInputBuffer();
      in.reset(out.getData(), out.getLength());
      CompressedSequenceFiles.Split copy = new CompressedSequenceFiles.Split();
      copy.readFields(in);
      assertEquals(split.getLength(), copy.getLength());
      assertEquals(split.toString(), copy.toString());
      TaskAttemptContext ctx =
          new TaskAttemptContextImpl(
              job.getConfiguration(), TaskAttemptID.forName("attempt_1_0001_m_000000_0"));
      try (RecordReader<Text, LongWritable> r = format.createRecordReader(copy, ctx)) {
        r.initialize(copy, ctx);
        while (r.nextKeyValue()) {
          read.add(r.getCurrentKey() + "=" + r.getCurrentValue().get());
        }
      }
    }
    read.sort(null);
    assertEquals(List.of("a=1", "a=1", "b=2", "b=2", "c=3", "c=3"), read);
  }

  @Test
  void anUnknownCompressionIsRefused() throws Exception {
    Job job = Job.getInstance(new Configuration(false));
    assertThrows(
        IllegalArgumentException.class, () -> CompressedSequenceFiles.setCodec(job, "lzo"));
  }

  private Path write(String compression) throws Exception {
    Job job = Job.getInstance(new Configuration());
    CompressedSequenceFiles.setCodec(job, compression);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    Path out = dir.resolve(compression);
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
    TaskAttemptContext ctx =
        new TaskAttemptContextImpl(
            job.getConfiguration(), TaskAttemptID.forName("attempt_1_0001_r_000000_0"));
    CompressedSequenceFiles.OutputFormat<Text, LongWritable> format =
        new CompressedSequenceFiles.OutputFormat<>();
    RecordWriter<Text, LongWritable> w = format.getRecordWriter(ctx);
    w.write(new Text("a"), new LongWritable(1));
    w.write(new Text("b"), new LongWritable(2));
    w.write(new Text("c"), new LongWritable(3));
    w.close(ctx);
    try (Stream<Path> files = Files.walk(out)) {
      List<Path> parts = files.filter(p -> p.getFileName().toString().startsWith("part-")).toList();
      assertEquals(1, parts.size(), parts.toString());
      assertTrue(Files.size(parts.get(0)) > 0);
      return parts.get(0);
    }
  }

  private static SequenceFile.Reader reader(Path file) throws Exception {
    return new SequenceFile.Reader(
        new Configuration(),
        SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(new File(file.toString()).toURI())));
  }
}
