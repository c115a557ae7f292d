package io.webindex.check.mr;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RangeTotals;
import io.webindex.check.engine.RawCell;
import io.webindex.check.engine.RowInvariants;
import io.webindex.check.engine.TableDiff;
import io.webindex.check.engine.UriFact;
import io.webindex.check.engine.UriFacts;
import io.webindex.check.scan.ScannerCheck;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.mapreduce.Jobs;
import io.webindex.store.mapreduce.TaskAccumulo;
import io.webindex.store.mapreduce.TaskGuard;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.data.Range;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * The consistency check as one MapReduce job. Each map task takes the row ranges of one tablet
 * range ({@link RangeInputFormat}) and, range by range, merges the two tables' scanners over it
 * (the diff streams; no cell is shuffled), checks the row invariants of both tables on the same
 * cells, and emits one small fact per URI and part ({@code incount}, {@code t:}, {@code rank});
 * reducers join the facts of each URI for the invariants that span rows. Totals travel as counters,
 * sampled findings as text files.
 */
public final class CheckJob {
  static final String EXPECTED = "webindex.check.expected";
  static final String ACTUAL = "webindex.check.actual";
  static final String EXCLUSIONS = "webindex.check.exclusions";
  static final String SAMPLES = "webindex.check.samples";
  static final String RANGES_GROUP = "webindex.check.ranges";
  static final String INVARIANTS_GROUP = "webindex.check.invariants";
  public static final String OUT_SAMPLES = "samples";

  private CheckJob() {}

  public static Job create(
      Configuration base,
      WebindexConfig cfg,
      Connector conn,
      String expected,
      String actual,
      Path exclusions,
      List<String> boundaries,
      Collection<String> taskSplits,
      int reducers,
      Path out,
      int samplesPerKind)
      throws IOException {
    Job job = Job.getInstance(base, "webindex check " + expected + " vs " + actual);
    Configuration c = job.getConfiguration();
    c.set(Jobs.STAGE, "check");
    // the tasks' Accumulo login: the password, or a delegation token, in the job's credentials
    TaskAccumulo.configure(job, cfg, conn);
    c.set(EXPECTED, expected);
    c.set(ACTUAL, actual);
    if (exclusions != null) {
      c.set(EXCLUSIONS, exclusions.toString());
    }
    c.setInt(SAMPLES, samplesPerKind);
    RangeInputFormat.setBoundaries(c, boundaries, taskSplits);
    job.setJarByClass(CheckJob.class);
    job.setInputFormatClass(RangeInputFormat.class);
    job.setMapperClass(RangeMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setReducerClass(FactReducer.class);
    job.setNumReduceTasks(reducers);
    LazyOutputFormat.setOutputFormatClass(job, TextOutputFormat.class);
    TextOutputFormat.setOutputPath(job, out);
    MultipleOutputs.addNamedOutput(
        job, OUT_SAMPLES, TextOutputFormat.class, Text.class, NullWritable.class);
    return job;
  }

  /** Connects a task to Accumulo with the login from the job's credentials. */
  static Connector connect(JobContext context) throws IOException {
    return TaskAccumulo.connect(context);
  }

  static Exclusions exclusions(Configuration c) throws IOException {
    String f = c.get(EXCLUSIONS);
    if (f == null) {
      return Exclusions.NONE;
    }
    Path p = new Path(f);
    Set<String> uris = new HashSet<>();
    Set<String> domains = new HashSet<>();
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(p.getFileSystem(c).open(p), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("u\t")) {
          uris.add(line.substring(2));
        } else if (line.startsWith("d\t")) {
          domains.add(line.substring(2));
        }
      }
    }
    return new Exclusions(uris, domains);
  }

  static void writeSamples(MultipleOutputs<?, ?> mos, List<Finding> samples)
      throws IOException, InterruptedException {
    for (Finding f : samples) {
      mos.write(
          OUT_SAMPLES, new Text(FindingLines.toLine(f)), NullWritable.get(), OUT_SAMPLES + "/part");
    }
  }

  /** Compares the two tables over each row range of its split, one range per record. */
  public static final class RangeMapper extends Mapper<Text, Text, Text, Text> {
    private MultipleOutputs<Text, Text> mos;
    private Connector conn;
    private Exclusions skip;

    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskGuard.run(context, () -> super.run(context));
    }

    @Override
    protected void setup(Context context) throws IOException {
      conn = connect(context);
      skip = exclusions(context.getConfiguration());
      mos = new MultipleOutputs<>(context);
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      mos.close();
    }

    @Override
    protected void map(Text start, Text end, Context context)
        throws IOException, InterruptedException {
      Configuration c = context.getConfiguration();
      Range range =
          new Range(
              start.getLength() == 0 ? null : start.toString(),
              true,
              end.getLength() == 0 ? null : end.toString(),
              false);
      CheckAccumulator acc = new CheckAccumulator(c.getInt(SAMPLES, 20));
      Text key = new Text();
      Text value = new Text();
      RowInvariants exp =
          new RowInvariants(
              CheckAccumulator.EXPECTED,
              acc,
              fact -> emit(context, key, value, CheckAccumulator.EXPECTED, fact));
      RowInvariants act =
          new RowInvariants(
              CheckAccumulator.ACTUAL,
              acc,
              fact -> emit(context, key, value, CheckAccumulator.ACTUAL, fact));
      long[] n = {0};
      try (ScannerCheck.Scan expected = ScannerCheck.cells(conn, c.get(EXPECTED), range);
          ScannerCheck.Scan actual = ScannerCheck.cells(conn, c.get(ACTUAL), range)) {
        TableDiff.diffRaw(tee(expected, exp, context, n), tee(actual, act, context, n), skip, acc);
      }
      exp.finish();
      act.finish();
      for (RangeTotals t : acc.ranges()) {
        count(context, RANGES_GROUP, t.range() + "|compared", t.compared());
        count(context, RANGES_GROUP, t.range() + "|missing", t.missing());
        count(context, RANGES_GROUP, t.range() + "|extra", t.extra());
        count(context, RANGES_GROUP, t.range() + "|different", t.different());
        count(context, RANGES_GROUP, t.range() + "|skipped", t.skipped());
      }
      acc.invariants()
          .forEach(
              (table, m) ->
                  m.forEach((k, v) -> count(context, INVARIANTS_GROUP, table + "|" + k.name(), v)));
      writeSamples(mos, acc.samples());
    }

    private static void emit(Context context, Text key, Text value, String table, UriFact f) {
      key.set(table + "\t" + f.uri());
      value.set(f.type().name() + "\t" + f.urc() + "\t" + f.domain());
      try {
        context.write(key, value);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }

    private static Iterator<RawCell> tee(
        Iterator<RawCell> it, RowInvariants rows, Context context, long[] n) {
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public RawCell next() {
          RawCell cell = it.next();
          rows.accept(cell);
          if (++n[0] % 100_000 == 0) {
            context.progress();
          }
          return cell;
        }
      };
    }
  }

  static void count(TaskInputOutputContext<?, ?, ?, ?> context, String group, String name, long n) {
    if (n != 0) {
      context.getCounter(group, name).increment(n);
    }
  }

  /** Joins the facts of one URI of one table. */
  public static final class FactReducer extends Reducer<Text, Text, Text, NullWritable> {
    private MultipleOutputs<Text, NullWritable> mos;
    private CheckAccumulator acc;

    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskGuard.run(context, () -> super.run(context));
    }

    @Override
    protected void setup(Context context) {
      mos = new MultipleOutputs<>(context);
      acc = new CheckAccumulator(context.getConfiguration().getInt(SAMPLES, 20));
    }

    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context) {
      String k = key.toString();
      int tab = k.indexOf('\t');
      String table = k.substring(0, tab);
      String uri = k.substring(tab + 1);
      List<UriFact> facts = new ArrayList<>(3);
      for (Text v : values) {
        String[] p = v.toString().split("\t", -1);
        facts.add(new UriFact(uri, UriFact.Type.valueOf(p[0]), Long.parseLong(p[1]), p[2]));
        if (facts.size() > 1000) {
          break; // a URI has at most one fact of each kind in a sound table; more is counted
          // already
        }
      }
      for (Finding f : UriFacts.check(table, uri, facts)) {
        acc.violation(table, f);
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      acc.invariants()
          .forEach(
              (table, m) ->
                  m.forEach((k, v) -> count(context, INVARIANTS_GROUP, table + "|" + k.name(), v)));
      writeSamples(mos, acc.samples());
      mos.close();
    }
  }

  /** Rebuilds the accumulated totals from a finished job's counters. */
  public static void addCounters(Job job, CheckAccumulator acc) throws IOException {
    Map<String, long[]> ranges = new TreeMap<>();
    for (Counter c : job.getCounters().getGroup(RANGES_GROUP)) {
      String[] p = c.getName().split("\\|");
      long[] t = ranges.computeIfAbsent(p[0], r -> new long[5]);
      int i = List.of("compared", "missing", "extra", "different", "skipped").indexOf(p[1]);
      t[i] += c.getValue();
    }
    ranges.forEach((r, t) -> acc.addRange(r, t[0], t[1], t[2], t[3], t[4]));
    for (Counter c : job.getCounters().getGroup(INVARIANTS_GROUP)) {
      String[] p = c.getName().split("\\|");
      acc.addViolations(p[0], Kind.valueOf(p[1]), c.getValue());
    }
  }
}
