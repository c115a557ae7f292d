package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.Cell;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.Cells;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;

/**
 * Measures how long a page version takes from the loader to the served table: the application that
 * maintains the served table runs embedded (oracle and workers in this process, as {@code load
 * --embedded} runs them) for as long as the probe is open, and {@link #measure} applies one batch
 * through {@link BatchApplier}, as {@code load} does (so the resume point stays right), then polls
 * the served table until it holds every expected cell.
 */
public final class LatencyProbe implements AutoCloseable {
  /**
   * One measured batch: what the loader applied, the time from the start of applying it until the
   * loader returned (its transactions committed), and until every expected cell was in the served
   * table ({@code visible} false: not within the time limit, and {@code untilVisible} is the time
   * waited).
   */
  public record Sample(
      long batch,
      BatchApplier.Result applied,
      Duration untilCommitted,
      Duration untilVisible,
      boolean visible) {}

  /** Percentiles (nearest rank), maximum and mean of a series, in milliseconds. */
  public record Summary(int samples, double p50, double p90, double p99, double max, double mean) {}

  private final WebindexConfig cfg;
  private final Configuration hadoop;
  private final Connector conn;
  private final String table;
  private final FluoSession fluo;

  private LatencyProbe(
      WebindexConfig cfg, Configuration hadoop, Connector conn, String table, FluoSession fluo) {
    this.cfg = cfg;
    this.hadoop = hadoop;
    this.conn = conn;
    this.table = table;
    this.fluo = fluo;
  }

  /**
   * Starts the application that maintains the served table in this process.
   *
   * @throws StoreException when no table is served yet (the application was never initialised)
   */
  public static LatencyProbe open(WebindexConfig cfg, Configuration hadoop) {
    Connector conn = AccumuloConnections.connect(cfg);
    ServedState served = ServedState.read(new RunRegistry(conn, cfg.metaTable()), cfg);
    String table =
        served
            .table()
            .orElseThrow(
                () ->
                    new StoreException(
                        "no table is served yet: initialise the Fluo application from a batch run"
                            + " first (fluo-init)"));
    String app = served.app();
    return new LatencyProbe(
        cfg, hadoop, conn, table, FluoSession.embedded(cfg, app, FluoSession.WORKER_THREADS));
  }

  /** The served table, where {@link #measure} looks for the cells. */
  public String table() {
    return table;
  }

  /** The highest batch the application recorded as applied (-1 when none). */
  public long applied() {
    return WebindexApp.applied(fluo.client());
  }

  /** Waits until the workers have processed every notification: the system is idle then. */
  public void awaitIdle() {
    fluo.awaitIdle();
  }

  /**
   * Applies batch {@code batch}, which must be the next one after the resume point, through {@link
   * BatchApplier}, and returns once the served table holds every cell of {@code expected} (same
   * row, column and value) or {@code timeout} after the start, looking every {@code poll}.
   *
   * @throws StoreException when {@code batch} is not the only batch pending up to itself, or the
   *     loader did not record it as applied
   */
  public Sample measure(long batch, Collection<Cell> expected, Duration timeout, Duration poll)
      throws IOException {
    long before = applied();
    if (before != batch - 1) {
      throw new StoreException(
          "batch "
              + batch
              + " is not the next one to apply: the application applied up to batch "
              + before);
    }
    long start = System.nanoTime();
    BatchApplier.Result r = new BatchApplier(fluo.client(), cfg, hadoop, null).applyPending(batch);
    long committed = System.nanoTime();
    if (r.batches() != 1 || r.appliedAfter() != batch) {
      throw new StoreException(
          "the loader applied batches "
              + (r.appliedBefore() + 1)
              + ".."
              + r.appliedAfter()
              + " when asked for batch "
              + batch
              + " alone (is the batch there, complete?)");
    }
    boolean visible = awaitCells(this::holds, expected, start, timeout, poll);
    long end = System.nanoTime();
    return new Sample(
        batch, r, Duration.ofNanos(committed - start), Duration.ofNanos(end - start), visible);
  }

  /**
   * Looks every {@code poll} until {@code holds} is true of every cell of {@code expected} (a cell
   * once seen is not looked at again), or until {@code timeout} after {@code startNanos} ({@link
   * System#nanoTime}); true when every cell was seen.
   */
  static boolean awaitCells(
      Predicate<Cell> holds,
      Collection<Cell> expected,
      long startNanos,
      Duration timeout,
      Duration poll) {
    List<Cell> missing = new ArrayList<>(expected);
    while (true) {
      missing.removeIf(holds);
      if (missing.isEmpty()) {
        return true;
      }
      if (System.nanoTime() - startNanos >= timeout.toNanos()) {
        return false;
      }
      try {
        Thread.sleep(poll.toMillis(), (int) (poll.toNanos() % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException("interrupted while waiting for the cells to become visible", e);
      }
    }
  }

  /**
   * Starts a loader on a thread of its own that applies, through this probe's application, every
   * batch of the raw page store as soon as it is complete, in order, as {@code load --watch} does
   * but looking again after {@code poll} instead of seconds: the probe's batches written meanwhile
   * are applied among the other batches, behind those before them. It applies until {@link
   * Loader#finishAt} names the last batch and that batch is applied, or until closed.
   */
  public Loader startLoader(Duration poll) {
    Loader l = new Loader(poll);
    l.thread.start();
    return l;
  }

  /**
   * The loader of {@link #startLoader}: when each batch was loaded (every version of it committed,
   * just before the batch is recorded as applied), how far it got, and the error it stopped with.
   */
  public final class Loader implements AutoCloseable {
    private final Duration poll;
    private final Thread thread;
    private final Map<Long, Long> loadedAt = new ConcurrentHashMap<>();
    private final long pagesAtStart = LoaderMetrics.pagesSubmitted();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile long finishAt = Long.MAX_VALUE;
    private volatile boolean stop;
    private volatile long applied;

    private Loader(Duration poll) {
      this.poll = poll;
      this.applied = LatencyProbe.this.applied();
      this.thread = new Thread(this::loop, "webindex-probe-loader");
      this.thread.setDaemon(true);
    }

    private void loop() {
      try {
        while (!stop && applied < finishAt) {
          BatchApplier.Result r =
              new BatchApplier(fluo.client(), cfg, hadoop, null)
                  .afterLoading(seq -> loadedAt.put(seq, System.nanoTime()))
                  .applyPending(null);
          applied = r.appliedAfter();
          if (r.batches() == 0) {
            Thread.sleep(poll.toMillis(), (int) (poll.toNanos() % 1_000_000));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException | IOException | Error t) {
        // handed to the thread that waits for the loader (check, await)
        failure.set(t);
      }
    }

    /** The {@link System#nanoTime} at which batch {@code batch} was loaded, if it was. */
    public OptionalLong loadedAt(long batch) {
      Long t = loadedAt.get(batch);
      return t == null ? OptionalLong.empty() : OptionalLong.of(t);
    }

    /** Page versions this loader submitted so far (read as the process's loader meter). */
    public long pagesSubmitted() {
      return LoaderMetrics.pagesSubmitted() - pagesAtStart;
    }

    /**
     * Throws the error the loader stopped with, if it stopped with one.
     *
     * @throws StoreException wrapping it
     */
    public void check() {
      Throwable t = failure.get();
      if (t != null) {
        throw new StoreException("the loader failed: " + t.getMessage(), t);
      }
      if (!thread.isAlive() && applied < finishAt && !stop) {
        throw new StoreException("the loader stopped at batch " + applied);
      }
    }

    /** The loader stops once batch {@code last} is applied. */
    public void finishAt(long last) {
      finishAt = last;
    }

    /**
     * Waits until the loader applied the batch {@link #finishAt} names, at most {@code timeout}.
     *
     * @throws StoreException when it failed or did not get there in time
     */
    public void await(Duration timeout) throws InterruptedException {
      thread.join(timeout.toMillis());
      check();
      if (thread.isAlive()) {
        throw new StoreException(
            "the loader did not apply up to batch "
                + finishAt
                + " within "
                + timeout.toSeconds()
                + " s (applied up to "
                + applied
                + ")");
      }
    }

    /** Stops the loader after the round it is in, and waits for it. */
    @Override
    public void close() {
      stop = true;
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Whether the served table holds exactly this cell now. */
  public boolean holds(Cell cell) {
    try (Scanner s = conn.createScanner(table, Authorizations.EMPTY)) {
      s.setRange(
          Range.exact(new Text(cell.row()), new Text(cell.family()), new Text(cell.qualifier())));
      for (Map.Entry<Key, Value> e : s) {
        if (Cells.fromEntry(e.getKey(), e.getValue()).equals(cell)) {
          return true;
        }
      }
      return false;
    } catch (TableNotFoundException e) {
      throw new StoreException("the served table " + table + " does not exist", e);
    }
  }

  /**
   * The percentiles (nearest rank: the smallest value with at least p % of the series at or below
   * it), maximum and mean of {@code millis}.
   *
   * @throws IllegalArgumentException when the series is empty
   */
  public static Summary summarize(List<Double> millis) {
    if (millis.isEmpty()) {
      throw new IllegalArgumentException("no samples");
    }
    List<Double> sorted = new ArrayList<>(millis);
    sorted.sort(null);
    double sum = 0;
    for (double m : sorted) {
      sum += m;
    }
    return new Summary(
        sorted.size(),
        rank(sorted, 50),
        rank(sorted, 90),
        rank(sorted, 99),
        sorted.get(sorted.size() - 1),
        sum / sorted.size());
  }

  private static double rank(List<Double> sorted, int percent) {
    int n = (int) Math.ceil(percent / 100.0 * sorted.size());
    return sorted.get(Math.max(0, n - 1));
  }

  /** Waits for the embedded workers, then stops the application. */
  @Override
  public void close() {
    fluo.close();
  }
}
