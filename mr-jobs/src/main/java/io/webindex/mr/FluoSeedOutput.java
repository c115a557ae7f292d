package io.webindex.mr;

import java.io.IOException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.fluo.mapreduce.FluoKeyValue;
import org.apache.fluo.mapreduce.FluoKeyValueGenerator;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Writes Fluo seed entries to a side output as the key/values of Fluo's table ({@link
 * FluoKeyValueGenerator}), counting the entries and the key/values: the per-URI job's and the sort
 * job's reducers write the seed through it.
 */
final class FluoSeedOutput {
  private final FluoKeyValueGenerator generator = new FluoKeyValueGenerator();
  private final Counter entries;
  private final Counter keyValues;

  FluoSeedOutput(TaskAttemptContext task) {
    entries = task.getCounter(Counters.Write.FLUO_SEED_ENTRIES);
    keyValues = task.getCounter(Counters.Write.FLUO_KEY_VALUES);
  }

  void write(SideOutput<Key, Value> output, RowColumnValue entry)
      throws IOException, InterruptedException {
    generator.set(entry);
    entries.increment(1);
    for (FluoKeyValue kv : generator.getKeyValues()) {
      // the generator reuses its objects: write copies
      output.write(new Key(kv.getKey()), new Value(kv.getValue()));
      keyValues.increment(1);
    }
  }
}
