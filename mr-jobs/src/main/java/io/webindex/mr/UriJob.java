package io.webindex.mr;

import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.frontier.FrontierInputs;
import io.webindex.core.frontier.Frontiers;
import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.Schedule;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.index.HistoryCells;
import io.webindex.core.index.IndexCells;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.schema.TimedCell;
import io.webindex.core.url.Domains;
import io.webindex.mr.io.CellKey;
import io.webindex.mr.io.CellValue;
import io.webindex.mr.io.RefWritable;
import io.webindex.seed.FluoSeed;
import io.webindex.store.mapreduce.Jobs;
import io.webindex.store.mapreduce.TaskGuard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.accumulo.core.client.mapreduce.AccumuloFileOutputFormat;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;

/**
 * Job 2: one reduce group per URI, streamed (a URI with millions of inlinks needs no memory), the
 * URIs of one tablet to one reducer in row order ({@link RefKeys}). The URI's own row {@code
 * p:<uri>} is written here as a sorted RFile, straight for bulk import ({@code query}): its inlinks
 * as they pass (sorted by source), then its own page's {@code page:cur} (if crawled) and {@code
 * page:incount}. So is the Fluo {@code p:} seed of its current version, deletions included ({@code
 * fluo}). What belongs to other rows — {@code t:}, the domain's {@code rank} cell and a +1 for its
 * page count, the Fluo {@code um:}/{@code dm:} seed — goes to the sort job ({@code cells}), which
 * then only sorts a few cells per URI.
 *
 * <p>The URI's history-table row is written here too, as sorted RFiles along the same split points
 * ({@code history}): the newest crawl versions of its full crawl history and its schedule ({@link
 * HistoryCells}), then its urc series — this run's point (a seen URI's urc at the run's start) and
 * the points of the previous successful run's history table, which reach the reducer as one more
 * input ({@link RefWritable.Kind#URC_POINTS}, last in the group) — newest first, at most the kept
 * number of versions. The Fluo seed gets the full history as {@code h:<uri> hist:all} ({@code
 * fluohist}: a file set of its own, as its rows sort apart from the {@code p:} rows).
 *
 * <p>Every URI with a crawl history or seen gets its frontier entry ({@link Frontiers#entry}: due
 * at its schedule's next fetch, or at once when never crawled and linked to), a gone page nobody
 * links to included. Its frontier-table cell lives in its host's row {@code q:<host>}, so it goes
 * to the sort job too ({@link CellKey#FRONTIER}); what the entry is derived from, the URI's state
 * and its history's next fetch, goes into its {@code um:} sum of the Fluo seed (also for a gone
 * page nobody links to).
 */
public final class UriJob {
  static final String OUT_FLUO = "fluo";
  static final String OUT_CELLS = "cells";
  static final String OUT_HISTORY = "history";
  static final String OUT_FLUO_HISTORY = "fluohist";

  /**
   * The reducer's outputs beside the {@code p:} rows: the tables read by point while Fluo loads
   * (the Fluo seed's pages and sums, its full histories, the history table) in {@link
   * PointReadFileOutputFormat}'s small blocks; the cells of other rows for the sort job.
   */
  static final SideOutput.Spec<Key, Value> FLUO =
      new SideOutput.Spec<>(OUT_FLUO, PointReadFileOutputFormat.class, Key.class, Value.class);

  static final SideOutput.Spec<Key, Value> FLUO_HISTORY =
      new SideOutput.Spec<>(
          OUT_FLUO_HISTORY, PointReadFileOutputFormat.class, Key.class, Value.class);
  static final SideOutput.Spec<Key, Value> HISTORY =
      new SideOutput.Spec<>(OUT_HISTORY, PointReadFileOutputFormat.class, Key.class, Value.class);
  static final SideOutput.Spec<CellKey, CellValue> CELLS =
      new SideOutput.Spec<>(
          OUT_CELLS, CompressedSequenceFiles.OutputFormat.class, CellKey.class, CellValue.class);

  static final String HISTORY_VERSIONS = "webindex.mr.history.versions";
  static final String SCHEDULE = "webindex.mr.schedule";
  static final String RUN_STARTED_MS = "webindex.mr.run.started.ms";

  private UriJob() {}

  /** The history settings of a run: versions kept, schedule constants, the run's start. */
  record History(int versions, ScheduleConfig schedule, long runStartedMillis) {}

  static Job create(
      Configuration base,
      List<Path> refs,
      Path out,
      List<byte[]> uriSplits,
      int fluoBuckets,
      String compression,
      History history)
      throws IOException {
    Job job = Job.getInstance(base, "webindex recompute 2/3: per URI");
    Configuration c = job.getConfiguration();
    c.set(Jobs.STAGE, "uris");
    c.setInt(LatestJob.FLUO_BUCKETS, fluoBuckets);
    c.setInt(HISTORY_VERSIONS, history.versions());
    c.set(SCHEDULE, encodeSchedule(history.schedule()));
    c.setLong(RUN_STARTED_MS, history.runStartedMillis());
    RefKeys.UriPartitioner.setSplits(c, uriSplits);
    AccumuloFileOutputFormat.setCompressionType(job, compression);
    CompressedSequenceFiles.setCodec(job, compression);
    job.setJarByClass(UriJob.class);
    job.setInputFormatClass(CompressedSequenceFiles.InputFormat.class);
    for (Path p : refs) {
      FileInputFormat.addInputPath(job, p);
    }
    job.setMapperClass(IdentityMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(RefWritable.class);
    job.setPartitionerClass(RefKeys.UriPartitioner.class);
    job.setGroupingComparatorClass(RefKeys.UriGrouping.class);
    job.setReducerClass(UriReducer.class);
    job.setNumReduceTasks(uriSplits.size() + 1);
    // the p: rows are the job's main output
    job.setOutputKeyClass(Key.class);
    job.setOutputValueClass(Value.class);
    LazyOutputFormat.setOutputFormatClass(job, PointReadFileOutputFormat.class);
    AccumuloFileOutputFormat.setOutputPath(job, out);
    // and FLUO, FLUO_HISTORY, HISTORY and CELLS, opened by the reducer
    return job;
  }

  /** The schedule constants as one configuration value (doubles in their exact decimal form). */
  static String encodeSchedule(ScheduleConfig s) {
    return s.defaultIntervalSeconds()
        + ","
        + s.minIntervalSeconds()
        + ","
        + s.maxIntervalSeconds()
        + ","
        + s.incRate()
        + ","
        + s.decRate()
        + ","
        + s.syncDelta()
        + ","
        + s.syncDeltaRate();
  }

  static ScheduleConfig decodeSchedule(String v) {
    String[] f = v.split(",", -1);
    if (f.length != 7) {
      throw new IllegalArgumentException("not seven schedule constants: " + v);
    }
    return new ScheduleConfig(
        Long.parseLong(f[0]),
        Long.parseLong(f[1]),
        Long.parseLong(f[2]),
        Double.parseDouble(f[3]),
        Double.parseDouble(f[4]),
        Boolean.parseBoolean(f[5]),
        Double.parseDouble(f[6]));
  }

  /**
   * A URI's urc series as the new history table gets it, newest first, at most {@code versions}
   * points: the previous run's points ({@code old}: (timestamp, urc) pairs, any order) and this
   * run's point {@code (runStartedMillis, urc)} when {@code seen}; at an equal timestamp this run's
   * point wins.
   */
  static List<TimedCell> urcSeries(
      String uriKey, long[] old, boolean seen, long runStartedMillis, long urc, int versions) {
    TreeMap<Long, Long> byTime = new TreeMap<>(Comparator.reverseOrder());
    for (int i = 0; i + 1 < old.length; i += 2) {
      byTime.put(old[i], old[i + 1]);
    }
    if (seen) {
      byTime.put(runStartedMillis, urc);
    }
    List<TimedCell> out = new ArrayList<>(Math.min(versions, byTime.size()));
    for (Map.Entry<Long, Long> e : byTime.entrySet()) {
      if (out.size() == versions) {
        break;
      }
      out.add(HistorySchema.urcCell(uriKey, e.getKey(), e.getValue()));
    }
    return out;
  }

  /** Computes everything one URI owns. */
  public static final class UriReducer extends Reducer<Text, RefWritable, Key, Value> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      TaskGuard.run(context, () -> super.run(context));
    }

    private static final byte[] NO_VISIBILITY = new byte[0];
    private static final long[] NO_POINTS = new long[0];

    private SideOutput<Key, Value> fluoOut;
    private SideOutput<Key, Value> fluoHistoryOut;
    private SideOutput<Key, Value> historyOut;
    private SideOutput<CellKey, CellValue> cellsOut;
    private Context context;
    private FluoSeed seed;
    private FluoSeedOutput fluo;
    private final List<Cell> ownRow = new ArrayList<>(2);
    private Counter queryCells;
    private Counter historyCells;
    private Counter urcCarried;
    private Counter uris;
    private Counter inlinkCount;
    private Counter seenUris;
    private Counter crawledUris;
    private int versions;
    private ScheduleConfig schedule;
    private long runStarted;

    @Override
    protected void setup(Context context) {
      this.context = context;
      fluoOut = FLUO.of(context);
      fluoHistoryOut = FLUO_HISTORY.of(context);
      historyOut = HISTORY.of(context);
      cellsOut = CELLS.of(context);
      Configuration c = context.getConfiguration();
      seed = new FluoSeed(c.getInt(LatestJob.FLUO_BUCKETS, 16));
      versions = c.getInt(HISTORY_VERSIONS, HistorySchema.DEFAULT_VERSIONS);
      schedule = decodeSchedule(c.get(SCHEDULE, encodeSchedule(ScheduleConfig.DEFAULT)));
      runStarted = c.getLong(RUN_STARTED_MS, 0L);
      historyCells = context.getCounter(Counters.Write.HISTORY_CELLS);
      urcCarried = context.getCounter(Counters.Write.URC_POINTS_CARRIED);
      queryCells = context.getCounter(Counters.Write.QUERY_CELLS);
      fluo = new FluoSeedOutput(context);
      uris = context.getCounter(Counters.Uris.URIS);
      inlinkCount = context.getCounter(Counters.Uris.INLINKS);
      seenUris = context.getCounter(Counters.Uris.SEEN_URIS);
      crawledUris = context.getCounter(Counters.Uris.CRAWLED_URIS);
    }

    /** A cell of the URI's own row, in row order. */
    private void writeQuery(Cell c) throws IOException, InterruptedException {
      context.write(
          new Key(utf8(c.row()), utf8(c.family()), utf8(c.qualifier()), NO_VISIBILITY, 0L),
          new Value(utf8(c.value())));
      queryCells.increment(1);
    }

    /** A cell of the URI's history-table row, in row order (newest version first). */
    private void writeHistory(TimedCell c) throws IOException, InterruptedException {
      historyOut.write(
          new Key(
              utf8(c.row()), utf8(c.family()), utf8(c.qualifier()), NO_VISIBILITY, c.timestamp()),
          new Value(utf8(c.value())));
      historyCells.increment(1);
    }

    /** A cell of another row, for the sort job. */
    private void toSort(CellKey k, CellValue v) throws IOException, InterruptedException {
      cellsOut.write(k, v);
    }

    private static byte[] utf8(String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void reduce(Text key, Iterable<RefWritable> refs, Context context)
        throws IOException, InterruptedException {
      // the key object follows the values: here it is the group's first key
      String uri = RefKeys.uri(key);
      String row = QuerySchema.pageRow(uri);
      Page page = null;
      List<HistoryEntry> history = List.of();
      boolean current = false;
      long inlinks = 0;
      long[] oldUrc = NO_POINTS;
      for (RefWritable r : refs) {
        if (r.kind() == RefWritable.Kind.CURRENT) {
          if (current) {
            throw new IOException("two current versions of " + uri);
          }
          if (inlinks > 0) {
            throw new IOException("the current version of " + uri + " came after an inlink");
          }
          current = true;
          fluo.write(fluoOut, seed.page(r.page()));
          page = r.page().deleted() ? null : r.page();
          history = Histories.merge(r.others(), List.of(Histories.entryOf(r.page())));
        } else if (r.kind() == RefWritable.Kind.INLINK) {
          inlinks++;
          writeQuery(QuerySchema.inlink(uri, RefKeys.source(key), r.anchor()));
          if (inlinks % 10_000 == 0) {
            context.progress();
          }
        } else {
          if (oldUrc.length > 0) {
            throw new IOException("two sets of earlier urc points of " + uri);
          }
          oldUrc = r.points();
          urcCarried.increment(oldUrc.length / 2);
        }
      }
      UriState state = UriState.of(inlinks, page != null);
      // the history row: crawls and schedule, then the urc series (families in this order)
      for (TimedCell c : HistoryCells.of(uri, history, schedule, versions)) {
        writeHistory(c);
      }
      for (TimedCell c : urcSeries(uri, oldUrc, state.seen(), runStarted, state.urc(), versions)) {
        writeHistory(c);
      }
      if (!history.isEmpty()) {
        fluo.write(fluoHistoryOut, seed.history(uri, history));
      }
      // the frontier entry and the Fluo sum it is derived from: also of a gone page nobody links
      // to (it is checked again at its next fetch), so before the return of URIs not seen
      Schedule sched = history.isEmpty() ? null : HistoryCells.schedule(history, schedule);
      Long nextFetch = sched == null ? null : sched.nextFetchMillis();
      Optional<FrontierEntry> entry =
          Frontiers.entry(uri, new FrontierInputs(state.urc(), nextFetch));
      if (entry.isPresent()) {
        Cell c = FrontierSchema.cell(entry.get());
        toSort(CellKeys.frontier(c), CellKeys.value(c));
      }
      if (state.seen() || nextFetch != null) {
        RowColumnValue um = seed.uri(uri, state, nextFetch);
        toSort(CellKeys.fluo(um), CellValue.ofFinal(um.getValue().toArray()));
      }
      if (!current && inlinks == 0) {
        return; // only earlier urc points: a URI this run does not know
      }
      uris.increment(1);
      inlinkCount.increment(inlinks);
      if (!state.seen()) {
        return; // a deletion nobody links to: only its Fluo seed and history
      }
      seenUris.increment(1);
      ownRow.clear();
      if (page != null) {
        crawledUris.increment(1);
        ownRow.add(IndexCells.pageCur(page));
      }
      String domain = Domains.ofKey(uri);
      for (Cell c : IndexCells.uri(uri, domain, state)) {
        if (c.row().equals(row)) {
          ownRow.add(c);
        } else {
          toSort(CellKeys.query(c), CellKeys.value(c));
        }
      }
      // after the inlinks (the family "inlinks" sorts before "page"), in column order
      ownRow.sort((a, b) -> a.column().compareTo(b.column()));
      for (Cell c : ownRow) {
        writeQuery(c);
      }
      for (Cell c : IndexCells.domain(domain, 1)) {
        toSort(CellKeys.query(c), CellValue.partial(CellValue.COUNT, 1, ""));
      }
      RowColumnValue dm = seed.domain(domain, 1);
      toSort(CellKeys.fluo(dm), CellValue.partial(CellValue.DOMAIN_SEED, 1, domain));
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      fluoOut.close();
      fluoHistoryOut.close();
      historyOut.close();
      cellsOut.close();
    }
  }
}
