package io.webindex.mr;

import io.webindex.store.mapreduce.TaskGuard;
import java.io.IOException;
import org.apache.hadoop.mapreduce.Mapper;

/** Hadoop's identity map, run under {@link TaskGuard} so that its failures are recorded. */
public final class IdentityMapper<K, V> extends Mapper<K, V, K, V> {
  @Override
  public void run(Context context) throws IOException, InterruptedException {
    TaskGuard.run(context, () -> super.run(context));
  }
}
