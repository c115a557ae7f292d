package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadCounter;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.FluoSchema;
import io.webindex.seed.IndexExport;
import io.webindex.store.RawPageStore;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.LoaderExecutor;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.recipes.core.export.ExportQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Applies the raw-page batches newer than the recorded resume point, in order and without gaps, a
 * few page versions of distinct URIs per Fluo transaction ({@link #PAGES_PER_TRANSACTION}); after a
 * batch is fully loaded it records that batch as applied. Only complete batches are read: the first
 * one after the resume point that is missing or not complete waits, with every batch after it, and
 * the loader says which and why ({@link RawPageStore#pending}). A restart resumes at the first
 * batch not recorded; re-applying part of a batch is harmless (versions that do not supersede the
 * stored one change nothing), so nothing is lost or counted twice. The resume point never goes
 * back: when another loader recorded a later batch meanwhile, this one goes on after that batch.
 */
public final class BatchApplier {
  /**
   * What one call applied; {@code waiting} says which batch (at most the {@code upTo} asked for)
   * waits and why, null when none does.
   */
  public record Result(
      long appliedBefore,
      long appliedAfter,
      int batches,
      long pages,
      long applied,
      long stale,
      long rejected,
      Duration time,
      String waiting) {
    public double pagesPerSecond() {
      return time.toMillis() == 0 ? 0 : pages * 1000.0 / time.toMillis();
    }
  }

  private final FluoClient client;
  private final WebindexConfig cfg;
  private final Configuration hadoop;
  private final PrintWriter progress;
  private double ratePerSecond;
  private long stopAfterPages = Long.MAX_VALUE;
  private LongConsumer afterLoading = seq -> {};
  private String waitingSaid;

  public BatchApplier(
      FluoClient client, WebindexConfig cfg, Configuration hadoop, PrintWriter progress) {
    this.client = client;
    this.cfg = cfg;
    this.hadoop = hadoop;
    this.progress = progress;
  }

  /** Loads at most this many pages per second (0 = no limit). */
  public BatchApplier rateLimit(double pagesPerSecond) {
    this.ratePerSecond = pagesPerSecond;
    return this;
  }

  /**
   * Stops submitting after this many pages without recording the batch, as a crash would (tests of
   * the resume point use it).
   */
  public BatchApplier stopAfterPages(long pages) {
    this.stopAfterPages = pages;
    return this;
  }

  /**
   * Runs {@code hook} with the batch number after each batch is loaded, before it is recorded (the
   * tests of two loaders at once use it).
   */
  BatchApplier afterLoading(LongConsumer hook) {
    this.afterLoading = hook;
    return this;
  }

  /**
   * The waiting message said already (by an earlier round of a watch): not said again. Any other is
   * printed on the progress writer.
   */
  public BatchApplier waitingSaid(String message) {
    this.waitingSaid = message;
    return this;
  }

  /** Applies every batch after the resume point and up to {@code upTo} (null = all). */
  public Result applyPending(Long upTo) throws IOException {
    long t0 = System.nanoTime();
    long before = WebindexApp.applied(client);
    SimpleConfiguration app = client.getAppConfiguration();
    UriQueue uris = UriQueue.of(app);
    ExportQueue<String, IndexExport> exports =
        ExportQueue.getInstance(FluoSchema.EXPORT_QUEUE_ID, app);
    HistorySettings history = WebindexApp.historySettings(app);
    PageLoader.Stats stats = new PageLoader.Stats();
    ReadStats read = new ReadStats();
    RawPageStore store = new RawPageStore(cfg.storeRoot(), hadoop);
    RawPageStore.Pending listed = store.pending(before);
    List<RawPageStore.Batch> pending =
        listed.ready().stream().filter(b -> upTo == null || b.seq() <= upTo).toList();
    String waiting =
        listed.waiting() != null && (upTo == null || listed.waiting().seq() <= upTo)
            ? listed.waiting().message()
            : null;
    long applied = before;
    long submitted = 0;
    int batches = 0;
    lag(listed.ready(), before);
    for (RawPageStore.Batch b : pending) {
      if (batches > 0) {
        // another loader may have gone further while this one loaded the last batch
        applied = Math.max(applied, WebindexApp.applied(client));
      }
      if (b.seq() <= applied) {
        continue; // another loader recorded it meanwhile
      }
      RejectSample rejects = new RejectSample(cfg, hadoop, cfg.rejectSamplesPerTask());
      long[] count = {0};
      boolean[] stopped = {false};
      long batchStart = System.nanoTime();
      long[] lastReport = {batchStart};
      // a URI's second and later versions in this batch wait until its earlier ones committed
      // (transactions of one executor commit in any order): the crawl history keeps the version
      // of a millisecond recorded first, and the exporter must never replace a crawl it wrote
      List<Page> deferred = new java.util.ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      try (LoaderExecutor loader = client.newLoaderExecutor()) {
        long already = submitted;
        Group group = new Group(loader, history, uris, exports, stats);
        store.read(
            b,
            cfg.readLimits(),
            read,
            new PageSink() {
              @Override
              public void page(Page page) {
                if (already + count[0] >= stopAfterPages) {
                  stopped[0] = true;
                  return;
                }
                throttle(batchStart, count[0]);
                if (seen.add(page.key())) {
                  group.add(page);
                } else {
                  deferred.add(page);
                }
                count[0]++;
                LoaderMetrics.pages(1);
                long now = System.nanoTime();
                if (now - lastReport[0] > 5_000_000_000L) {
                  lastReport[0] = now;
                  report(b.seq(), count[0], now - batchStart, newest(pending) - b.seq() + 1);
                }
              }

              @Override
              public void reject(Reject reject) {
                rejects.add(reject);
                LoaderMetrics.rejected(1);
              }
            });
        group.submit();
      }
      applyInReadOrder(client, history, uris, exports, stats, deferred);
      rejects.write(b.seq());
      submitted += count[0];
      if (stopped[0]) {
        break;
      }
      afterLoading.accept(b.seq());
      long recorded = WebindexApp.markApplied(client, b.seq());
      applied = recorded;
      batches++;
      LoaderMetrics.batchApplied(b.seq(), recorded);
      lag(listed.ready(), recorded);
      report(b.seq(), count[0], System.nanoTime() - batchStart, newest(pending) - b.seq());
      if (recorded > b.seq()) {
        say(
            "load: another loader recorded batch %d as applied meanwhile: going on after it",
            recorded);
      }
    }
    if (waiting != null && !waiting.equals(waitingSaid)) {
      say("load: %s", waiting);
    }
    return new Result(
        before,
        applied,
        batches,
        submitted,
        stats.applied.sum(),
        stats.stale.sum(),
        read.get(ReadCounter.REJECTED),
        Duration.ofNanos(System.nanoTime() - t0),
        waiting);
  }

  /**
   * Tells {@link LoaderMetrics} how far behind the store the application is: the complete batches
   * after {@code applied}, and when the first of them was marked complete.
   */
  private void lag(List<RawPageStore.Batch> ready, long applied) {
    List<RawPageStore.Batch> behind = ready.stream().filter(b -> b.seq() > applied).toList();
    long marked = -1;
    if (!behind.isEmpty()) {
      Path marker = new Path(behind.get(0).dir(), "_SUCCESS");
      try {
        marked = marker.getFileSystem(hadoop).getFileStatus(marker).getModificationTime();
      } catch (IOException e) {
        marked = System.currentTimeMillis(); // gone meanwhile: it waits from now on
      }
    }
    LoaderMetrics.pending(applied, behind.size(), marked);
  }

  /**
   * Page versions per Fluo transaction. A transaction's fixed cost (its timestamps, locking and
   * committing its primary cell: round trips to the tablet servers) is shared by the group, and the
   * URI deltas of the group's links are summed per URI, so a URI many of them link to is one {@code
   * um:} queue entry instead of one per page; a larger group loses more work to a collision (two
   * transactions writing one page row) and waits longer for its slowest page (docs/fluo.md).
   */
  static final int PAGES_PER_TRANSACTION = 16;

  /**
   * Applies versions of URIs that earlier versions of the same batch touched, in passes of distinct
   * URIs, each pass after the one before it committed: a URI's versions commit in read order.
   */
  private static void applyInReadOrder(
      FluoClient client,
      HistorySettings history,
      UriQueue uris,
      ExportQueue<String, IndexExport> exports,
      PageLoader.Stats stats,
      List<Page> deferred) {
    List<Page> left = deferred;
    while (!left.isEmpty()) {
      List<Page> next = new java.util.ArrayList<>();
      java.util.Set<String> pass = new java.util.HashSet<>();
      try (LoaderExecutor loader = client.newLoaderExecutor()) {
        Group group = new Group(loader, history, uris, exports, stats);
        for (Page p : left) {
          if (pass.add(p.key())) {
            group.add(p);
          } else {
            next.add(p);
          }
        }
        group.submit();
      }
      left = next;
    }
  }

  /** The versions read so far that go into the next transaction: distinct URIs. */
  private static final class Group {
    private final LoaderExecutor loader;
    private final HistorySettings history;
    private final UriQueue uris;
    private final ExportQueue<String, IndexExport> exports;
    private final PageLoader.Stats stats;
    private final List<Page> pages = new java.util.ArrayList<>(PAGES_PER_TRANSACTION);
    private final java.util.Set<String> keys = new java.util.HashSet<>();

    Group(
        LoaderExecutor loader,
        HistorySettings history,
        UriQueue uris,
        ExportQueue<String, IndexExport> exports,
        PageLoader.Stats stats) {
      this.loader = loader;
      this.history = history;
      this.uris = uris;
      this.exports = exports;
      this.stats = stats;
    }

    /** Adds a version; a second version of a URI goes into the next transaction. */
    void add(Page page) {
      if (pages.size() >= PAGES_PER_TRANSACTION || keys.contains(page.key())) {
        submit();
      }
      pages.add(page);
      keys.add(page.key());
    }

    void submit() {
      if (!pages.isEmpty()) {
        loader.execute(new PageLoader(pages, history, uris, exports, stats));
        pages.clear();
        keys.clear();
      }
    }
  }

  /**
   * The loader's rejects file of a batch (docs/input.md): {@code <work.dir>/load/<batch>/rejects},
   * one tab-separated line per sampled reject (file, offset, reason, detail, excerpt), like the
   * batch jobs' rejects files; written only when the batch has rejects, replaced when it is loaded
   * again.
   */
  static Path rejectsFile(WebindexConfig cfg, long batch) {
    return new Path(
        new Path(new Path(cfg.workDir(), "load"), BatchLayout.dirName(batch)), "rejects");
  }

  /** The first rejects of a batch, up to the sample size. */
  private static final class RejectSample {
    private final WebindexConfig cfg;
    private final Configuration hadoop;
    private final int max;
    private final List<Reject> sample = new java.util.ArrayList<>();

    RejectSample(WebindexConfig cfg, Configuration hadoop, int max) {
      this.cfg = cfg;
      this.hadoop = hadoop;
      this.max = max;
    }

    synchronized void add(Reject r) {
      if (sample.size() < max) {
        sample.add(r);
      }
    }

    void write(long batch) throws IOException {
      if (sample.isEmpty()) {
        return;
      }
      Path file = rejectsFile(cfg, batch);
      FileSystem fs = file.getFileSystem(hadoop);
      try (Writer w = new OutputStreamWriter(fs.create(file, true), StandardCharsets.UTF_8)) {
        for (Reject r : sample) {
          w.write(r.toLine());
          w.write('\n');
        }
      }
    }
  }

  private void throttle(long start, long done) {
    if (ratePerSecond <= 0) {
      return;
    }
    long dueNanos = (long) (done * 1e9 / ratePerSecond);
    long wait = dueNanos - (System.nanoTime() - start);
    if (wait > 0) {
      try {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while loading", e);
      }
    }
  }

  private void say(String format, Object... args) {
    if (progress != null) {
      progress.printf(format + "%n", args);
      progress.flush();
    }
  }

  private static long newest(List<RawPageStore.Batch> pending) {
    return pending.isEmpty() ? 0 : pending.get(pending.size() - 1).seq();
  }

  /**
   * A progress line: the batch, pages so far, their rate, and how many batches are still behind.
   */
  private void report(long batch, long pages, long nanos, long behind) {
    if (progress != null) {
      double secs = nanos / 1e9;
      progress.printf(
          "load: batch %d: %d pages in %.1f s (%.0f pages/s), lag %d batch%s%n",
          batch, pages, secs, secs == 0 ? 0 : pages / secs, behind, behind == 1 ? "" : "es");
      progress.flush();
    }
  }
}
