package io.webindex.fluo;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.webindex.core.schema.FluoSchema;
import io.webindex.store.metrics.Metrics;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.Snapshot;
import org.apache.fluo.api.client.scanner.CellScanner;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.data.RowColumnValue;

/**
 * The loader's figures in this process's registry ({@link Metrics}; docs/metrics.md):
 *
 * <ul>
 *   <li>{@code webindex.loader.pages}, {@code webindex.loader.batches} (meters: page versions
 *       submitted, batches recorded as applied; their rates are the load rate),
 *   <li>{@code webindex.loader.rejected} (records rejected while reading),
 *   <li>{@code webindex.loader.applied.batch} (the resume point: the highest batch applied),
 *   <li>{@code webindex.loader.lag.batches} and {@code webindex.loader.lag.seconds} (complete
 *       batches not applied yet, and how long the oldest of them has been complete; 0 when none),
 *       as of the loader's last look at the raw page store,
 *   <li>{@code webindex.fluo.export.queue.depth} (entries in the application's export queue, read
 *       in a snapshot when asked, at most every two seconds).
 * </ul>
 */
public final class LoaderMetrics {
  static final String PAGES = "webindex.loader.pages";
  static final String BATCHES = "webindex.loader.batches";
  static final String REJECTED = "webindex.loader.rejected";
  static final String APPLIED = "webindex.loader.applied.batch";
  static final String LAG_BATCHES = "webindex.loader.lag.batches";
  static final String LAG_SECONDS = "webindex.loader.lag.seconds";
  static final String EXPORT_QUEUE = "webindex.fluo.export.queue.depth";

  /** The export queue's entries: column {@code e:v} of its rows {@code eq:<bucket>:…}. */
  private static final Column EXPORT_ENTRY = new Column("e", "v");

  private static final long EXPORT_QUEUE_CACHE_MILLIS = 2000;

  private static final Meter pages = Metrics.registry().meter(PAGES);
  private static final Meter batches = Metrics.registry().meter(BATCHES);
  private static final Counter rejected = Metrics.registry().counter(REJECTED);
  private static final AtomicLong applied = new AtomicLong(-1);
  private static final AtomicLong lagBatches = new AtomicLong();

  /** When the oldest complete batch not applied yet was marked complete (ms), or -1: none. */
  private static final AtomicLong oldestPendingMillis = new AtomicLong(-1);

  private static final AtomicReference<FluoClient> client = new AtomicReference<>();
  private static final AtomicLong queueDepth = new AtomicLong();
  private static final AtomicLong queueReadAt = new AtomicLong(Long.MIN_VALUE);

  static {
    MetricRegistry r = Metrics.registry();
    r.register(APPLIED, (Gauge<Long>) applied::get);
    r.register(LAG_BATCHES, (Gauge<Long>) lagBatches::get);
    r.register(LAG_SECONDS, (Gauge<Long>) () -> lagSeconds(System::currentTimeMillis));
    r.register(EXPORT_QUEUE, (Gauge<Long>) LoaderMetrics::exportQueueDepth);
  }

  private LoaderMetrics() {}

  static void pages(long n) {
    pages.mark(n);
  }

  /** Batch {@code batch} is applied, and the resume point is {@code recorded} now. */
  static void batchApplied(long batch, long recorded) {
    batches.mark();
    applied.set(Math.max(batch, recorded));
  }

  /** Page versions submitted by the loaders of this process so far. */
  static long pagesSubmitted() {
    return pages.getCount();
  }

  static void rejected(long n) {
    rejected.inc(n);
  }

  /**
   * What the loader found in the store: the resume point, the complete batches after it, and when
   * the oldest of them was marked complete (-1: none waits).
   */
  static void pending(long resumePoint, long completeBatches, long oldestMarkedMillis) {
    applied.set(resumePoint);
    lagBatches.set(completeBatches);
    oldestPendingMillis.set(completeBatches == 0 ? -1 : oldestMarkedMillis);
  }

  static long lagSeconds(LongSupplier nowMillis) {
    long t = oldestPendingMillis.get();
    return t < 0 ? 0 : Math.max(0, (nowMillis.getAsLong() - t) / 1000);
  }

  /** The client the export queue's depth is read through (null: none, the depth reads 0). */
  static void exportQueueClient(FluoClient c) {
    client.set(c);
    queueReadAt.set(Long.MIN_VALUE);
  }

  private static long exportQueueDepth() {
    FluoClient c = client.get();
    if (c == null) {
      return 0;
    }
    long now = System.currentTimeMillis();
    long last = queueReadAt.get();
    if (last != Long.MIN_VALUE && now - last < EXPORT_QUEUE_CACHE_MILLIS) {
      return queueDepth.get();
    }
    try {
      queueDepth.set(exportQueueEntries(c));
      queueReadAt.set(now);
    } catch (RuntimeException e) {
      // the client was closed meanwhile, or Accumulo is unreachable: the last figure stands
    }
    return queueDepth.get();
  }

  /** The entries in the application's export queue now, read in one snapshot. */
  public static long exportQueueEntries(FluoClient c) {
    try (Snapshot s = c.newSnapshot()) {
      CellScanner cells =
          s.scanner().overPrefix(FluoSchema.EXPORT_QUEUE_ID + ":").fetch(EXPORT_ENTRY).build();
      long n = 0;
      for (RowColumnValue ignored : cells) {
        n++;
      }
      return n;
    }
  }
}
