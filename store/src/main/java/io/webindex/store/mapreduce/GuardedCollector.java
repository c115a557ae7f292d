package io.webindex.store.mapreduce;

import java.io.IOException;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapTask;

/**
 * Hadoop's map output buffer (the map-side sort), with its failures recorded like a task body's
 * ({@link TaskGuard}): a map task that cannot allocate its sort buffer ({@code
 * mapreduce.task.io.sort.mb} larger than the heap left) fails before its mapper runs, and a spill
 * can fail after it returned; the local job runner reports no cause for either. Every webindex job
 * uses it ({@link Jobs#run}). With the test-only fault {@code webindex.mr.test.fault=<stage>_sort},
 * map task 0 of that stage fails as it sets its buffer up.
 */
public class GuardedCollector<K, V> extends MapTask.MapOutputBuffer<K, V> {
  /** The suffix of a {@link Jobs#TEST_FAULT} stage that fails the map-side sort. */
  public static final String SORT_FAULT = "_sort";

  private MapOutputCollector.Context context;

  @Override
  public void init(MapOutputCollector.Context context) throws IOException, ClassNotFoundException {
    this.context = context;
    try {
      IOException fault =
          TaskGuard.pluginFault(
              context.getJobConf(),
              context.getMapTask().getTaskID(),
              SORT_FAULT,
              "setting up the sort buffer");
      if (fault != null) {
        throw fault;
      }
      super.init(context);
    } catch (IOException | ClassNotFoundException | RuntimeException | Error e) {
      TaskGuard.record(context.getJobConf(), context.getMapTask().getTaskID(), e);
      throw e;
    }
  }

  @Override
  public void flush() throws IOException, ClassNotFoundException, InterruptedException {
    try {
      super.flush();
    } catch (IOException
        | ClassNotFoundException
        | InterruptedException
        | RuntimeException
        | Error e) {
      TaskGuard.record(context.getJobConf(), context.getMapTask().getTaskID(), e);
      throw e;
    }
  }
}
