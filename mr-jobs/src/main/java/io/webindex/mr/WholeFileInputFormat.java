package io.webindex.mr;

import io.webindex.store.mapreduce.SingleRecordReader;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * One record per input file: its path and length. The mapper streams the file itself through the
 * core readers (gzip and WAT files cannot be split, and offsets must be whole-file offsets).
 */
public final class WholeFileInputFormat extends FileInputFormat<Text, LongWritable> {
  @Override
  protected boolean isSplitable(JobContext context, Path filename) {
    return false;
  }

  @Override
  public RecordReader<Text, LongWritable> createRecordReader(
      InputSplit split, TaskAttemptContext ctx) {
    return new SingleRecordReader<>(
        s -> new Text(((FileSplit) s).getPath().toString()),
        s -> new LongWritable(((FileSplit) s).getLength()));
  }
}
