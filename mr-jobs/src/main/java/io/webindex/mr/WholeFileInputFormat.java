package io.webindex.mr;

import java.io.IOException;
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
    return new RecordReader<>() {
      private FileSplit fileSplit;
      private boolean done;

      @Override
      public void initialize(InputSplit s, TaskAttemptContext c) {
        fileSplit = (FileSplit) s;
      }

      @Override
      public boolean nextKeyValue() {
        if (done) {
          return false;
        }
        done = true;
        return true;
      }

      @Override
      public Text getCurrentKey() {
        return new Text(fileSplit.getPath().toString());
      }

      @Override
      public LongWritable getCurrentValue() {
        return new LongWritable(fileSplit.getLength());
      }

      @Override
      public float getProgress() {
        return done ? 1f : 0f;
      }

      @Override
      public void close() throws IOException {}
    };
  }
}
