package io.webindex.check.mr;

import io.webindex.store.mapreduce.SingleRecordReader;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * One split per row range: the ranges between consecutive boundary rows (the first from the start
 * of the table, the last to its end). Each map task reads its range itself.
 */
public final class RangeInputFormat extends InputFormat<Text, Text> {
  static final String BOUNDARIES = "webindex.check.boundaries";

  /** Row boundaries, sorted; ranges are [b(i-1), b(i)). */
  public static void setBoundaries(Configuration conf, List<String> rows) {
    List<String> enc = new ArrayList<>();
    for (String r : rows) {
      enc.add(Base64.getEncoder().encodeToString(r.getBytes(StandardCharsets.UTF_8)));
    }
    conf.set(BOUNDARIES, String.join(",", enc));
  }

  static List<String> boundaries(Configuration conf) {
    List<String> out = new ArrayList<>();
    String s = conf.get(BOUNDARIES, "");
    if (!s.isEmpty()) {
      for (String p : s.split(",")) {
        out.add(new String(Base64.getDecoder().decode(p), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** A row range; empty strings mean unbounded. */
  public static final class RangeSplit extends InputSplit implements Writable {
    String start = "";
    String end = "";

    public RangeSplit() {}

    RangeSplit(String start, String end) {
      this.start = start;
      this.end = end;
    }

    @Override
    public long getLength() {
      return 1;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      Text.writeString(out, start);
      Text.writeString(out, end);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      start = Text.readString(in);
      end = Text.readString(in);
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    List<String> b = boundaries(context.getConfiguration());
    List<InputSplit> splits = new ArrayList<>();
    String prev = "";
    for (String row : b) {
      splits.add(new RangeSplit(prev, row));
      prev = row;
    }
    splits.add(new RangeSplit(prev, ""));
    return splits;
  }

  @Override
  public RecordReader<Text, Text> createRecordReader(InputSplit split, TaskAttemptContext ctx) {
    return new SingleRecordReader<>(
        s -> new Text(((RangeSplit) s).start), s -> new Text(((RangeSplit) s).end));
  }
}
