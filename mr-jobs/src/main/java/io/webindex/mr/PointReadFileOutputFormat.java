package io.webindex.mr;

import io.webindex.core.config.WebindexConfig;
import java.io.IOException;
import org.apache.accumulo.core.client.mapreduce.AccumuloFileOutputFormat;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * RFiles of the tables that are read by point lookups while Fluo loads: the Fluo seed, and the
 * history table, whose every put the exporter writes on the condition that its column holds no
 * version at that timestamp yet. As {@link AccumuloFileOutputFormat} writes them for the job, but
 * in data blocks of {@link WebindexConfig#RFILE_DATA_BLOCK_BYTES}: a point read (a Fluo
 * transaction's read, a condition its commit or the exporter checks) seeks to a block and then
 * steps through its keys; the query and frontier tables' files, which the check reads whole and
 * nothing reads by point, keep Accumulo's larger blocks. The block size is set on a copy of the
 * task's configuration, so it reaches only this output of a job with several ({@code
 * MultipleOutputs} shares one configuration among its named outputs).
 */
public final class PointReadFileOutputFormat extends AccumuloFileOutputFormat {
  @Override
  public RecordWriter<Key, Value> getRecordWriter(TaskAttemptContext context) throws IOException {
    Job own = Job.getInstance(context.getConfiguration()); // a copy of the configuration
    AccumuloFileOutputFormat.setDataBlockSize(own, WebindexConfig.RFILE_DATA_BLOCK_BYTES);
    return super.getRecordWriter(
        new TaskAttemptContextImpl(own.getConfiguration(), context.getTaskAttemptID()));
  }
}
