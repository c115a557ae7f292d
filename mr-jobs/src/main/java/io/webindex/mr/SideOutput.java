package io.webindex.mr;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Job;
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
      return new SideOutput<>(task, this);
    }
  }

  private final TaskAttemptContext task;
  private final Spec<K, V> spec;
  private TaskAttemptContext context;
  private RecordWriter<K, V> writer;

  private SideOutput(TaskAttemptContext task, Spec<K, V> spec) {
    this.task = task;
    this.spec = spec;
  }

  void write(K key, V value) throws IOException, InterruptedException {
    if (writer == null) {
      open();
    }
    writer.write(key, value);
  }

  private void open() throws IOException, InterruptedException {
    Job output = Job.getInstance(task.getConfiguration()); // a copy of the task's configuration
    output.getConfiguration().set(BASE_OUTPUT_NAME, spec.name() + "/part");
    output.setOutputFormatClass(spec.format());
    output.setOutputKeyClass(spec.keyClass());
    output.setOutputValueClass(spec.valueClass());
    context = new TaskAttemptContextImpl(output.getConfiguration(), task.getTaskAttemptID());
    @SuppressWarnings("unchecked")
    OutputFormat<K, V> f =
        (OutputFormat<K, V>) ReflectionUtils.newInstance(spec.format(), output.getConfiguration());
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
