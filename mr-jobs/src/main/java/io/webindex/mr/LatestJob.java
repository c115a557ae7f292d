package io.webindex.mr;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageReaders;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.mr.io.PageWritable;
import io.webindex.mr.io.RefWritable;
import io.webindex.store.RawPageStore;
import io.webindex.store.mapreduce.Jobs;
import io.webindex.store.mapreduce.TaskGuard;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * Job 1: reads every input file with the core readers, and keeps the latest version of every URL
 * (latest crawl wins; the combiner already drops superseded versions map-side, keeping only their
 * crawls: time, status, signature, outlinks and version, {@link VersionMerge}). Writes, per URL,
 * its current version with the crawl history of all its versions to its own URI (deletions too: the
 * per-URI job writes the Fluo {@code p:} seed of every current version and every URL's history)
 * and, for a live page, one inlink to each target ({@code refs}, keyed as {@link RefKeys} says),
 * and every {@code sample.every}-th reference's URI to {@code samples}, from which the driver picks
 * the table's split points before the per-URI job. Rejected records are counted and a sample is
 * written to {@code rejects}.
 */
public final class LatestJob {
  static final String BATCHES_DIR = "webindex.mr.batches.dir";
  static final String MAX_RECORD_BYTES = "webindex.mr.max.record.bytes";
  static final String MAX_LINKS = "webindex.mr.max.links";
  static final String REJECT_SAMPLES = "webindex.mr.reject.samples";
  static final String FLUO_BUCKETS = "webindex.mr.fluo.buckets";
  static final String SAMPLE_EVERY = "webindex.mr.sample.every";

  /** The references: the job's main output files, {@code part-r-*}. */
  static final String OUT_REFS = "part-r-*";

  static final String OUT_SAMPLES = "samples";
  static final String OUT_REJECTS = "rejects";

  private LatestJob() {}

  static Job create(
      Configuration base,
      WebindexConfig cfg,
      Path batchesDir,
      Iterable<Path> inputs,
      Path out,
      int reducers,
      long sampleEvery)
      throws IOException {
    Job job = Job.getInstance(base, "webindex recompute 1/3: latest versions");
    Configuration c = job.getConfiguration();
    c.set(BATCHES_DIR, batchesDir.toUri().getPath());
    c.setInt(MAX_RECORD_BYTES, cfg.readLimits().maxRecordBytes());
    c.setInt(MAX_LINKS, cfg.readLimits().maxLinks());
    c.setInt(REJECT_SAMPLES, cfg.rejectSamplesPerTask());
    c.setLong(SAMPLE_EVERY, sampleEvery);
    c.set(Jobs.STAGE, "latest");
    c.setBoolean("mapreduce.input.fileinputformat.input.dir.recursive", true);
    job.setJarByClass(LatestJob.class);
    job.setInputFormatClass(WholeFileInputFormat.class);
    for (Path p : inputs) {
      WholeFileInputFormat.addInputPath(job, p);
    }
    WholeFileInputFormat.setInputPathFilter(job, VisibleFiles.class);
    job.setMapperClass(ReadMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(PageWritable.class);
    job.setCombinerClass(LatestCombiner.class);
    job.setReducerClass(LatestReducer.class);
    job.setNumReduceTasks(reducers);
    // the references are the job's main output (MultipleOutputs checks its named outputs' list
    // on every write: a tenth of the job's time for 15M references at 1M pages)
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(RefWritable.class);
    LazyOutputFormat.setOutputFormatClass(job, CompressedSequenceFiles.OutputFormat.class);
    CompressedSequenceFiles.setCodec(job, cfg.recomputeCompression());
    SequenceFileOutputFormat.setOutputPath(job, out);
    MultipleOutputs.addNamedOutput(
        job, OUT_SAMPLES, SequenceFileOutputFormat.class, Text.class, NullWritable.class);
    MultipleOutputs.addNamedOutput(
        job, OUT_REJECTS, TextOutputFormat.class, Text.class, NullWritable.class);
    return job;
  }

  /** Skips hidden and marker files ({@code .name}, {@code _SUCCESS}), like Hadoop does. */
  public static final class VisibleFiles implements PathFilter {
    @Override
    public boolean accept(Path p) {
      return RawPageStore.isPageFile(p);
    }
  }

  /** Streams one whole file through the core readers. */
  public static final class ReadMapper extends Mapper<Text, LongWritable, Text, PageWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskGuard.run(context, () -> super.run(context));
    }

    private MultipleOutputs<Text, PageWritable> mos;
    private final ReadStats stats = new ReadStats();
    private int samplesLeft;
    private long sampled;

    @Override
    protected void setup(Context context) {
      mos = new MultipleOutputs<>(context);
      samplesLeft = context.getConfiguration().getInt(REJECT_SAMPLES, 100);
    }

    @Override
    protected void map(Text pathText, LongWritable length, Context context)
        throws IOException, InterruptedException {
      Configuration c = context.getConfiguration();
      Path path = new Path(pathText.toString());
      String batchesDir = c.get(BATCHES_DIR);
      String rel = path.toUri().getPath();
      if (!rel.startsWith(batchesDir + "/")) {
        throw new IOException(path + " is not under the batches directory " + batchesDir);
      }
      rel = rel.substring(batchesDir.length() + 1);
      int slash = rel.indexOf('/');
      long batch = Long.parseLong(rel.substring(0, slash));
      String file = rel.substring(slash + 1);
      ReadLimits limits =
          new ReadLimits(
              c.getInt(MAX_RECORD_BYTES, ReadLimits.DEFAULT.maxRecordBytes()),
              c.getInt(MAX_LINKS, ReadLimits.DEFAULT.maxLinks()));
      Text key = new Text();
      PageWritable value = new PageWritable();
      FileSystem fs = path.getFileSystem(c);
      long[] n = {0};
      try (InputStream in = fs.open(path)) {
        PageReaders.read(
            in,
            file,
            batch,
            limits,
            stats,
            new PageSink() {
              @Override
              public void page(Page page) {
                key.set(page.key());
                try {
                  context.write(key, value.set(page));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException("interrupted", e);
                }
                if (++n[0] % 10_000 == 0) {
                  context.progress();
                }
              }

              @Override
              public void reject(Reject reject) {
                if (samplesLeft > 0) {
                  samplesLeft--;
                  sampled++;
                  try {
                    mos.write(
                        OUT_REJECTS,
                        new Text(reject.toLine()),
                        NullWritable.get(),
                        OUT_REJECTS + "/part");
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                  }
                }
              }
            });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      for (Map.Entry<String, Long> e : stats.asMap().entrySet()) {
        context.getCounter(Counters.READ, e.getKey()).increment(e.getValue());
      }
      context.getCounter(Counters.Latest.REJECTS_SAMPLED).increment(sampled);
      mos.close();
    }
  }

  /**
   * Drops superseded versions map-side, and counts what it drops: a version dropped here never
   * reaches the reducer, so {@code SUPERSEDED_VERSIONS} is the sum of the drops of every combiner
   * run and of the reducer, each superseded version counted once wherever it lost.
   */
  public static final class LatestCombiner extends Reducer<Text, PageWritable, Text, PageWritable> {
    @Override
    protected void reduce(Text key, Iterable<PageWritable> values, Context context)
        throws IOException, InterruptedException {
      VersionMerge.Result m = VersionMerge.of(values);
      context.getCounter(Counters.Latest.SUPERSEDED_VERSIONS).increment(m.versions() - 1);
      context.write(key, new PageWritable(m.latest(), m.others()));
    }
  }

  /** Keeps the latest version of a URL and fans it out. */
  public static final class LatestReducer extends Reducer<Text, PageWritable, Text, RefWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskGuard.run(context, () -> super.run(context));
    }

    private MultipleOutputs<Text, RefWritable> mos;
    private final Text refKey = new Text();
    private final Text sampleKey = new Text();
    private final RefWritable ref = new RefWritable();
    private long sampleEvery;
    private long refs;

    @Override
    protected void setup(Context context) {
      mos = new MultipleOutputs<>(context);
      sampleEvery = Math.max(1, context.getConfiguration().getLong(SAMPLE_EVERY, 1000));
    }

    private void write(Context context, Text key, RefWritable value, byte[] uri)
        throws IOException, InterruptedException {
      context.write(key, value);
      if (++refs % sampleEvery == 0) {
        sampleKey.set(uri);
        mos.write(OUT_SAMPLES, sampleKey, NullWritable.get(), OUT_SAMPLES + "/part");
      }
    }

    @Override
    protected void reduce(Text key, Iterable<PageWritable> values, Context context)
        throws IOException, InterruptedException {
      VersionMerge.Result m = VersionMerge.of(values);
      Page best = m.latest();
      context.getCounter(Counters.Latest.URLS).increment(1);
      context.getCounter(Counters.Latest.SUPERSEDED_VERSIONS).increment(m.versions() - 1);
      context.getCounter(Counters.Latest.CRAWLS).increment(m.others().size() + 1L);
      byte[] uri = RefKeys.bytes(best.key());
      write(context, RefKeys.own(refKey, uri), RefWritable.current(best, m.others()), uri);
      if (best.deleted()) {
        context.getCounter(Counters.Latest.CURRENT_DELETIONS).increment(1);
        return;
      }
      context.getCounter(Counters.Latest.CURRENT_PAGES).increment(1);
      for (Link l : best.links()) {
        byte[] target = RefKeys.bytes(l.key());
        write(context, RefKeys.inlink(refKey, target, uri), ref.inlink(l.anchor()), target);
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      mos.close();
    }
  }
}
