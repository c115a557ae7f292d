package io.webindex.mr;

import io.webindex.core.schema.QuerySchema;
import io.webindex.mr.io.CellKey;
import io.webindex.mr.io.CellValue;
import io.webindex.seed.FluoSeed;
import io.webindex.store.mapreduce.Jobs;
import io.webindex.store.mapreduce.TaskGuard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.accumulo.core.client.mapreduce.AccumuloFileOutputFormat;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.fluo.api.data.Bytes;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;

/**
 * Job 3: sorts the cells that the per-URI job could not write in row order — the {@code t:} and
 * {@code d:} rows, the frontier table's {@code q:<host>} rows, the Fluo {@code um:}/{@code dm:}
 * seed and the loader's resume point; a few per URI — sums the partial counts (domain page counts),
 * and writes sorted RFiles — query and frontier cells with {@link AccumuloFileOutputFormat}, Fluo
 * seed entries through {@link FluoSeedOutput}. The partitioner sends the query cells to their own
 * reducers along the split points the fresh table is created with, so each RFile falls in one
 * tablet, the Fluo seed entries (a few per domain and URI; job 2 wrote the {@code p:} rows) to one
 * reducer, and the frontier cells (one per URI in the frontier; the frontier table is created
 * unsplit) to one more.
 */
public final class SortJob {
  static final String QUERY_SPLITS = "webindex.mr.splits.query";
  static final String OUT_QUERY = "query";
  static final String OUT_FLUO = "fluo";
  static final String OUT_FRONTIER = "frontier";

  /** The reducer's outputs, one per table: the Fluo seed's in point-read blocks. */
  static final SideOutput.Spec<Key, Value> QUERY =
      new SideOutput.Spec<>(OUT_QUERY, AccumuloFileOutputFormat.class, Key.class, Value.class);

  static final SideOutput.Spec<Key, Value> FLUO =
      new SideOutput.Spec<>(OUT_FLUO, PointReadFileOutputFormat.class, Key.class, Value.class);
  static final SideOutput.Spec<Key, Value> FRONTIER =
      new SideOutput.Spec<>(OUT_FRONTIER, AccumuloFileOutputFormat.class, Key.class, Value.class);

  private SortJob() {}

  static Job create(
      Configuration base,
      List<Path> inputs,
      Path out,
      List<byte[]> querySplits,
      int fluoBuckets,
      String compression)
      throws IOException {
    Job job = Job.getInstance(base, "webindex recompute 3/3: sort and write RFiles");
    Configuration c = job.getConfiguration();
    c.set(Jobs.STAGE, "write");
    c.set(QUERY_SPLITS, SplitSampling.encode(querySplits));
    c.setInt(LatestJob.FLUO_BUCKETS, fluoBuckets);
    AccumuloFileOutputFormat.setCompressionType(job, compression);
    job.setJarByClass(SortJob.class);
    job.setInputFormatClass(CompressedSequenceFiles.InputFormat.class);
    for (Path p : inputs) {
      FileInputFormat.addInputPath(job, p);
    }
    job.setMapperClass(IdentityMapper.class);
    job.setMapOutputKeyClass(CellKey.class);
    job.setMapOutputValueClass(CellValue.class);
    job.setSortComparatorClass(CellKey.Comparator.class);
    job.setCombinerClass(SumCombiner.class);
    job.setPartitionerClass(TablePartitioner.class);
    job.setReducerClass(WriteReducer.class);
    job.setNumReduceTasks(querySplits.size() + 3);
    job.setOutputKeyClass(Key.class);
    job.setOutputValueClass(Value.class);
    LazyOutputFormat.setOutputFormatClass(job, AccumuloFileOutputFormat.class);
    AccumuloFileOutputFormat.setOutputPath(job, out);
    // QUERY, FLUO and FRONTIER, opened by the reducer
    return job;
  }

  /** Sums partial counts; passes final values through. */
  public static final class SumCombiner extends Reducer<CellKey, CellValue, CellKey, CellValue> {
    @Override
    protected void reduce(CellKey key, Iterable<CellValue> values, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      byte kind = CellValue.FINAL;
      String name = null;
      for (CellValue v : values) {
        if (v.isFinal()) {
          context.write(key, v);
        } else {
          kind = v.kind();
          sum += v.count();
          name = name == null ? v.name() : name;
        }
      }
      if (kind != CellValue.FINAL) {
        context.write(key, CellValue.partial(kind, sum, name));
      }
    }
  }

  /**
   * Query cells to reducers [0, q] by the table's q split points; Fluo entries to reducer q + 1;
   * frontier cells to reducer q + 2.
   */
  public static final class TablePartitioner extends Partitioner<CellKey, CellValue>
      implements Configurable {
    private Configuration conf;
    private byte[][] query;

    @Override
    public void setConf(Configuration c) {
      conf = c;
      query = SplitSampling.decode(c.get(QUERY_SPLITS)).toArray(new byte[0][]);
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public int getPartition(CellKey key, CellValue value, int numPartitions) {
      if (key.table() == CellKey.QUERY) {
        return tablet(query, key.row());
      }
      if (key.table() == CellKey.FRONTIER) {
        return query.length + 2;
      }
      return query.length + 1;
    }

    /** Accumulo tablets hold rows in (previous split, split]. */
    static int tablet(byte[][] splits, byte[] row) {
      int lo = 0;
      int hi = splits.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Arrays.compareUnsigned(row, splits[mid]) <= 0) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }
  }

  /** Writes each table's sorted cells as RFiles (each cell once, at timestamp 0). */
  public static final class WriteReducer extends Reducer<CellKey, CellValue, Key, Value> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskGuard.run(context, () -> super.run(context));
    }

    private SideOutput<Key, Value> queryOut;
    private SideOutput<Key, Value> fluoOut;
    private SideOutput<Key, Value> frontierOut;
    private Counter queryCells;
    private Counter frontierCells;
    private FluoSeed seed;
    private FluoSeedOutput fluo;

    @Override
    protected void setup(Context context) {
      queryOut = QUERY.of(context);
      fluoOut = FLUO.of(context);
      frontierOut = FRONTIER.of(context);
      queryCells = context.getCounter(Counters.Write.QUERY_CELLS);
      frontierCells = context.getCounter(Counters.Write.FRONTIER_CELLS);
      fluo = new FluoSeedOutput(context);
      seed = new FluoSeed(context.getConfiguration().getInt(LatestJob.FLUO_BUCKETS, 16));
    }

    @Override
    protected void reduce(CellKey key, Iterable<CellValue> values, Context context)
        throws IOException, InterruptedException {
      byte[] value = null;
      long sum = 0;
      byte kind = CellValue.FINAL;
      String name = null;
      for (CellValue v : values) {
        if (v.isFinal()) {
          if (value != null) {
            throw new IOException("two values for one cell: " + key);
          }
          value = v.bytes().clone();
        } else {
          kind = v.kind();
          sum += v.count();
          name = name == null ? v.name() : name;
        }
      }
      if (kind == CellValue.COUNT) {
        value = QuerySchema.countValue(sum).getBytes(StandardCharsets.UTF_8);
      } else if (kind == CellValue.DOMAIN_SEED) {
        RowColumnValue rcv = seed.domain(name, sum);
        if (!Arrays.equals(rcv.getRow().toArray(), key.row())) {
          throw new IOException("domain seed row moved: " + key);
        }
        value = rcv.getValue().toArray();
      }
      if (key.table() == CellKey.QUERY) {
        queryOut.write(
            new Key(key.row(), key.family(), key.qualifier(), new byte[0], 0L), new Value(value));
        queryCells.increment(1);
      } else if (key.table() == CellKey.FRONTIER) {
        frontierOut.write(
            new Key(key.row(), key.family(), key.qualifier(), new byte[0], 0L), new Value(value));
        frontierCells.increment(1);
      } else {
        fluo.write(
            fluoOut,
            new RowColumnValue(
                Bytes.of(key.row()),
                new Column(Bytes.of(key.family()), Bytes.of(key.qualifier())),
                Bytes.of(value)));
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      queryOut.close();
      fluoOut.close();
      frontierOut.close();
    }
  }
}
