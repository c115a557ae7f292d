package io.webindex.store.mapreduce;

import java.io.IOException;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;

/**
 * Hadoop's shuffle, with its failures recorded like a task body's ({@link TaskGuard}): a reduce
 * task that fails while it fetches and merges its input (out of memory in the in-memory merge, a
 * lost map output) never reaches {@code Reducer.run}, and the local job runner reports no cause.
 * Every webindex job uses it ({@link Jobs#run}). With the test-only fault {@code
 * webindex.mr.test.fault=<stage>_shuffle}, reduce task 0 of that stage fails in its shuffle.
 */
public class GuardedShuffle<K, V> extends Shuffle<K, V> {
  /** The suffix of a {@link Jobs#TEST_FAULT} stage that fails the shuffle. */
  public static final String SHUFFLE_FAULT = "_shuffle";

  @SuppressWarnings("rawtypes")
  private Context context;

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public void init(Context context) {
    this.context = context;
    super.init(context);
  }

  @Override
  public RawKeyValueIterator run() throws IOException, InterruptedException {
    try {
      IOException fault =
          TaskGuard.pluginFault(
              context.getJobConf(), context.getReduceId(), SHUFFLE_FAULT, "the shuffle");
      if (fault != null) {
        throw fault;
      }
      return super.run();
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      TaskGuard.record(context.getJobConf(), context.getReduceId(), e);
      throw e;
    }
  }
}
