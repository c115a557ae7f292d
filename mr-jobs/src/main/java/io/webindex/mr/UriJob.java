package io.webindex.mr;

import io.webindex.core.index.IndexCells;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.Domains;
import io.webindex.fluo.FluoSeed;
import io.webindex.mr.io.CellKey;
import io.webindex.mr.io.CellValue;
import io.webindex.mr.io.RefWritable;
import io.webindex.store.mapreduce.Jobs;
import io.webindex.store.mapreduce.TaskGuard;
import java.io.IOException;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;

/**
 * Job 2: one reduce group per URI, streamed (a URI with millions of inlinks needs no memory): its
 * inlinks become {@code inlinks} cells as they pass, its own page (if crawled) {@code page:cur},
 * and at the end of the group its {@link UriState} gives {@code incount}, {@code t:} and {@code
 * rank} through {@link IndexCells}, a +1 for its domain's page count, and the Fluo {@code
 * um:}/{@code dm:} seed. A sample of the keys goes to {@code samples} for the split points.
 */
public final class UriJob {
  static final String SAMPLE_EVERY = "webindex.mr.sample.every";
  static final String OUT_CELLS = "cells";
  static final String OUT_SAMPLES = "samples";

  private UriJob() {}

  static Job create(
      Configuration base, Path refs, Path out, int reducers, long sampleEvery, int fluoBuckets)
      throws IOException {
    Job job = Job.getInstance(base, "webindex recompute 2/3: per URI");
    Configuration c = job.getConfiguration();
    c.set(Jobs.STAGE, "uris");
    c.setLong(SAMPLE_EVERY, sampleEvery);
    c.setInt(LatestJob.FLUO_BUCKETS, fluoBuckets);
    job.setJarByClass(UriJob.class);
    job.setInputFormatClass(SequenceFileInputFormat.class);
    SequenceFileInputFormat.addInputPath(job, refs);
    job.setMapperClass(IdentityMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(RefWritable.class);
    job.setReducerClass(UriReducer.class);
    job.setNumReduceTasks(reducers);
    LazyOutputFormat.setOutputFormatClass(job, SequenceFileOutputFormat.class);
    SequenceFileOutputFormat.setOutputPath(job, out);
    MultipleOutputs.addNamedOutput(
        job, OUT_CELLS, SequenceFileOutputFormat.class, CellKey.class, CellValue.class);
    MultipleOutputs.addNamedOutput(
        job, OUT_SAMPLES, SequenceFileOutputFormat.class, CellKey.class, NullWritable.class);
    return job;
  }

  /** Computes everything one URI owns. */
  public static final class UriReducer extends Reducer<Text, RefWritable, CellKey, CellValue> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskGuard.run(context, () -> super.run(context));
    }

    private MultipleOutputs<CellKey, CellValue> mos;
    private FluoSeed seed;
    private long sampleEvery;
    private long written;

    @Override
    protected void setup(Context context) {
      mos = new MultipleOutputs<>(context);
      seed = new FluoSeed(context.getConfiguration().getInt(LatestJob.FLUO_BUCKETS, 16));
      sampleEvery = Math.max(1, context.getConfiguration().getLong(SAMPLE_EVERY, 100));
    }

    private void emit(CellKey k, CellValue v) throws IOException, InterruptedException {
      mos.write(OUT_CELLS, k, v, OUT_CELLS + "/part");
      if (++written % sampleEvery == 0) {
        mos.write(OUT_SAMPLES, k, NullWritable.get(), OUT_SAMPLES + "/part");
      }
    }

    @Override
    protected void reduce(Text key, Iterable<RefWritable> refs, Context context)
        throws IOException, InterruptedException {
      String uri = key.toString();
      Page page = null;
      long inlinks = 0;
      for (RefWritable r : refs) {
        if (r.kind() == RefWritable.Kind.CRAWLED) {
          if (page != null) {
            throw new IOException("two current pages for " + uri);
          }
          page = r.page();
        } else {
          inlinks++;
          Cell c = QuerySchema.inlink(uri, r.source(), r.anchor());
          emit(CellKeys.query(c), CellKeys.value(c));
          if (inlinks % 10_000 == 0) {
            context.progress();
          }
        }
      }
      context.getCounter(Counters.Uris.URIS).increment(1);
      context.getCounter(Counters.Uris.INLINKS).increment(inlinks);
      if (page != null) {
        context.getCounter(Counters.Uris.CRAWLED_URIS).increment(1);
        Cell cur = IndexCells.pageCur(page);
        emit(CellKeys.query(cur), CellKeys.value(cur));
        // a sample of the Fluo p: range, so the seed files get split points too
        if (written % sampleEvery == 0) {
          mos.write(
              OUT_SAMPLES,
              CellKey.of(CellKey.FLUO, FluoSchema.pageRow(uri), "", ""),
              NullWritable.get(),
              OUT_SAMPLES + "/part");
        }
      }
      UriState state = UriState.of(inlinks, page != null);
      if (!state.seen()) {
        return; // cannot happen: a URI reaches this reducer only when crawled or linked
      }
      context.getCounter(Counters.Uris.SEEN_URIS).increment(1);
      String domain = Domains.ofKey(uri);
      for (Cell c : IndexCells.uri(uri, domain, state)) {
        emit(CellKeys.query(c), CellKeys.value(c));
      }
      for (Cell c : IndexCells.domain(domain, 1)) {
        emit(CellKeys.query(c), CellValue.partial(CellValue.COUNT, 1, ""));
      }
      RowColumnValue um = seed.uri(uri, state);
      emit(CellKeys.fluo(um), CellValue.ofFinal(um.getValue().toArray()));
      RowColumnValue dm = seed.domain(domain, 1);
      emit(CellKeys.fluo(dm), CellValue.partial(CellValue.DOMAIN_SEED, 1, domain));
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      mos.close();
    }
  }
}
