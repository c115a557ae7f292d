package io.webindex.mr;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * One more output of a task beside the job's main output: files named {@code <base>-r-NNNNN} (or
 * {@code -m-}) in the task's work directory, committed with the task's main output, as Hadoop's
 * {@code MultipleOutputs} writes its named outputs. The writer is opened at the first record (no
 * file for a task that writes none) and resolved once: {@code MultipleOutputs.write} parses the job
 * configuration's list of named outputs on every call, which cost a few percent of the 1M
 * recompute's samples in the per-URI and sort jobs, whose reducers write most cells to such
 * outputs.
 */
final class SideOutput<K, V> {
  /** Hadoop's key of a file output's base name ({@code FileOutputFormat.BASE_OUTPUT_NAME}). */
  static final String BASE_OUTPUT_NAME = "mapreduce.output.basename";

  /**
   * What a side output is: its {@code name} (its files are {@code <name>/part-r-NNNNN} under the
   * job's output directory) and the output format that writes its keys and values.
   */
  record Spec<K, V>(
      String name,
      @SuppressWarnings("rawtypes") Class<? extends OutputFormat> format,
      Class<K> keyClass,
      Class<V> valueClass) {

    /** The output of {@code task}; no file until its first record. */
    SideOutput<K, V> of(TaskAttemptContext task) {
      return new SideOutput<>(task, name + "/part", format, keyClass, valueClass);
    }
  }

  private final TaskAttemptContext task;
  private final String base;
  private final Class<?> format;
  private final Class<K> keyClass;
  private final Class<V> valueClass;
  private TaskAttemptContext context;
  private RecordWriter<K, V> writer;

  /**
   * The output {@code base} (a path relative to the job's output directory and a file name prefix,
   * e.g. {@code fluo/part}) of {@code task}, written by {@code format}, an output format of {@code
   * keyClass} and {@code valueClass}.
   */
  @SuppressWarnings("rawtypes") // a generic format's class literal is raw
  SideOutput(
      TaskAttemptContext task,
      String base,
      Class<? extends OutputFormat> format,
      Class<K> keyClass,
      Class<V> valueClass) {
    this.task = task;
    this.base = base;
    this.format = format;
    this.keyClass = keyClass;
    this.valueClass = valueClass;
  }

  void write(K key, V value) throws IOException, InterruptedException {
    if (writer == null) {
      open();
    }
    writer.write(key, value);
  }

  private void open() throws IOException, InterruptedException {
    Configuration conf = new Configuration(task.getConfiguration());
    conf.set(BASE_OUTPUT_NAME, base);
    conf.setClass("mapreduce.job.outputformat.class", format, OutputFormat.class);
    conf.setClass("mapreduce.job.output.key.class", keyClass, Object.class);
    conf.setClass("mapreduce.job.output.value.class", valueClass, Object.class);
    context = new TaskAttemptContextImpl(conf, task.getTaskAttemptID());
    @SuppressWarnings("unchecked")
    OutputFormat<K, V> f = (OutputFormat<K, V>) ReflectionUtils.newInstance(format, conf);
    writer = f.getRecordWriter(context);
  }

  /** Closes the writer, if a record opened it. */
  void close() throws IOException, InterruptedException {
    if (writer != null) {
      writer.close(context);
      writer = null;
    }
  }
}
