package io.webindex.store.mapreduce;

import java.util.function.Function;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Reads one record per split, made from the split itself: for input formats whose map tasks read
 * their input on their own (a whole file, a row range of tables).
 */
public final class SingleRecordReader<K, V> extends RecordReader<K, V> {
  private final Function<InputSplit, K> key;
  private final Function<InputSplit, V> value;
  private InputSplit split;
  private boolean done;

  public SingleRecordReader(Function<InputSplit, K> key, Function<InputSplit, V> value) {
    this.key = key;
    this.value = value;
  }

  @Override
  public void initialize(InputSplit s, TaskAttemptContext context) {
    split = s;
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
  public K getCurrentKey() {
    return key.apply(split);
  }

  @Override
  public V getCurrentValue() {
    return value.apply(split);
  }

  @Override
  public float getProgress() {
    return done ? 1f : 0f;
  }

  @Override
  public void close() {}
}
