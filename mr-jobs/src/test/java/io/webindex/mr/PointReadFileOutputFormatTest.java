package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.mapreduce.AccumuloFileOutputFormat;
import org.apache.accumulo.core.conf.DefaultConfiguration;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.file.FileOperations;
import org.apache.accumulo.core.file.FileSKVIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RFiles read by point lookups (the Fluo seed's, the history table's) come in 16 KB data
 * blocks, the other outputs of the same job in Accumulo's 100 KB: the number of blocks is the
 * number of entries in a file's index.
 */
class PointReadFileOutputFormatTest {
  @TempDir Path dir;

  /** 4,000 cells: about 300 KB before compression. */
  private static final int CELLS = 4_000;

  @Test
  void pointReadFilesHaveSmallBlocksAndTheJobsOtherFilesKeepAccumulos() throws Exception {
    Job job = Job.getInstance(new Configuration());
    AccumuloFileOutputFormat.setCompressionType(job, "none");
    // one configuration for both, as MultipleOutputs shares the job's among its named outputs:
    // the seed's block size must not reach the output written after it
    Configuration shared = job.getConfiguration();
    int seedBlocks = blocks(write(shared, new PointReadFileOutputFormat(), "seed"));
    int otherBlocks = blocks(write(shared, new AccumuloFileOutputFormat(), "query"));
    // ~300 KB as the RFile stores them (a row and a value of ~65 bytes a cell, the repeated
    // columns not written again): 16 KB blocks make about 20, 100 KB blocks about 3
    assertTrue(seedBlocks >= 14 && seedBlocks <= 26, "seed file blocks: " + seedBlocks);
    assertTrue(otherBlocks >= 2 && otherBlocks <= 5, "other file blocks: " + otherBlocks);
  }

  /**
   * The per-URI job writes the tables read by point while Fluo loads — the Fluo seed's pages, sums
   * and full histories, and the history table — through this format, and so does the sort job the
   * Fluo seed's other entries; its query-table cells go on to the sort job as sequence files, and
   * the sort job writes the query and frontier tables in Accumulo's blocks.
   */
  @Test
  void thePerUriJobWritesTheSeedAndTheHistoryTableInPointReadFiles() {
    for (SideOutput.Spec<?, ?> output :
        List.of(UriJob.FLUO, UriJob.HISTORY, UriJob.FLUO_HISTORY, SortJob.FLUO)) {
      assertEquals(PointReadFileOutputFormat.class, output.format(), output.name());
    }
    assertEquals(CompressedSequenceFiles.OutputFormat.class, UriJob.CELLS.format());
    assertEquals(AccumuloFileOutputFormat.class, SortJob.QUERY.format());
    assertEquals(AccumuloFileOutputFormat.class, SortJob.FRONTIER.format());
  }

  private Path write(Configuration conf, OutputFormat<Key, Value> format, String name)
      throws Exception {
    Path out = dir.resolve(name);
    conf.set("mapreduce.output.fileoutputformat.outputdir", out.toUri().toString());
    TaskAttemptContext ctx =
        new TaskAttemptContextImpl(conf, TaskAttemptID.forName("attempt_1_0001_r_000000_0"));
    RecordWriter<Key, Value> w = format.getRecordWriter(ctx);
    String filler = "x".repeat(60);
    for (int i = 0; i < CELLS; i++) {
      w.write(
          new Key(String.format(Locale.ROOT, "um:d:%08d", i), "data", "current"),
          new Value((filler + i).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
    w.close(ctx);
    try (Stream<Path> files = Files.walk(out)) {
      List<Path> rfiles = files.filter(p -> p.getFileName().toString().endsWith(".rf")).toList();
      assertEquals(1, rfiles.size(), rfiles.toString());
      return rfiles.get(0);
    }
  }

  private static int blocks(Path rfile) throws Exception {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf);
    FileSKVIterator index =
        FileOperations.getInstance()
            .newIndexReaderBuilder()
            .forFile(rfile.toUri().toString(), fs, conf)
            .withTableConfiguration(DefaultConfiguration.getInstance())
            .build();
    int n = 0;
    try {
      for (; index.hasTop(); index.next()) {
        n++;
      }
    } finally {
      index.close();
    }
    return n;
  }
}
