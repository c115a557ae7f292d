package io.webindex.check.mr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * One split per tablet range: the rows between consecutive split points of the tables compared (the
 * first from the start of the table, the last to its end), each cut further at the row boundaries
 * that fall inside it (the schema's row-range prefixes). A map task reads its split's row ranges
 * itself, one record per range, in row order: a check of two one-tablet tables is one map task (one
 * container on YARN) however many row-range prefixes the schema has.
 */
public final class RangeInputFormat extends InputFormat<Text, Text> {
  static final String BOUNDARIES = "webindex.check.boundaries";
  static final String TASK_SPLITS = "webindex.check.task-splits";

  /**
   * Row boundaries, sorted; ranges are [b(i-1), b(i)). {@code taskSplits} are the boundaries where
   * a new map task starts (the tables' split points; each must be one of {@code rows}).
   */
  public static void setBoundaries(
      Configuration conf, List<String> rows, Collection<String> taskSplits) {
    if (!rows.containsAll(taskSplits)) {
      throw new IllegalArgumentException("a task split that is not a boundary: " + taskSplits);
    }
    conf.set(BOUNDARIES, encode(rows));
    conf.set(TASK_SPLITS, encode(taskSplits));
  }

  private static String encode(Collection<String> rows) {
    List<String> enc = new ArrayList<>();
    for (String r : rows) {
      enc.add(Base64.getEncoder().encodeToString(r.getBytes(StandardCharsets.UTF_8)));
    }
    return String.join(",", enc);
  }

  private static List<String> decode(String s) {
    List<String> out = new ArrayList<>();
    if (s != null && !s.isEmpty()) {
      for (String p : s.split(",")) {
        out.add(new String(Base64.getDecoder().decode(p), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /**
   * The row ranges of one map task: {@code rows} holds the task's first row, every boundary inside
   * it and its end, so the ranges are [rows(i), rows(i+1)); empty strings mean unbounded.
   */
  public static final class RangeSplit extends InputSplit implements Writable {
    private List<String> rows = new ArrayList<>();

    public RangeSplit() {}

    RangeSplit(List<String> rows) {
      if (rows.size() < 2) {
        throw new IllegalArgumentException("a split needs a start and an end: " + rows);
      }
      this.rows = List.copyOf(rows);
    }

    /** The number of row ranges. */
    int ranges() {
      return rows.size() - 1;
    }

    /** The start of range {@code i} ("" for the start of the table). */
    String start(int i) {
      return rows.get(i);
    }

    /** The end of range {@code i}, exclusive ("" for the end of the table). */
    String end(int i) {
      return rows.get(i + 1);
    }

    @Override
    public long getLength() {
      return ranges();
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      WritableUtils.writeVInt(out, rows.size());
      for (String r : rows) {
        Text.writeString(out, r);
      }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      int n = WritableUtils.readVInt(in);
      List<String> read = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        read.add(Text.readString(in));
      }
      rows = read;
    }

    @Override
    public String toString() {
      return "rows " + rows;
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    Configuration c = context.getConfiguration();
    return splits(decode(c.get(BOUNDARIES)), new HashSet<>(decode(c.get(TASK_SPLITS))));
  }

  static List<InputSplit> splits(List<String> boundaries, Set<String> taskSplits) {
    List<InputSplit> splits = new ArrayList<>();
    List<String> rows = new ArrayList<>(List.of(""));
    for (String row : boundaries) {
      rows.add(row);
      if (taskSplits.contains(row)) {
        splits.add(new RangeSplit(rows));
        rows = new ArrayList<>(List.of(row));
      }
    }
    rows.add("");
    splits.add(new RangeSplit(rows));
    return splits;
  }

  @Override
  public RecordReader<Text, Text> createRecordReader(InputSplit split, TaskAttemptContext ctx) {
    return new RangesReader();
  }

  /** One record per row range of the split: its start as the key, its end as the value. */
  static final class RangesReader extends RecordReader<Text, Text> {
    private RangeSplit split;
    private int next;

    @Override
    public void initialize(InputSplit s, TaskAttemptContext context) {
      split = (RangeSplit) s;
      next = 0;
    }

    @Override
    public boolean nextKeyValue() {
      if (next >= split.ranges()) {
        return false;
      }
      next++;
      return true;
    }

    @Override
    public Text getCurrentKey() {
      return new Text(split.start(next - 1));
    }

    @Override
    public Text getCurrentValue() {
      return new Text(split.end(next - 1));
    }

    @Override
    public float getProgress() {
      return split == null ? 0f : (float) next / split.ranges();
    }

    @Override
    public void close() {}
  }
}
