package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.CheckListener;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.RawCell;
import io.webindex.check.engine.RowInvariants;
import io.webindex.check.engine.TableDiff;
import io.webindex.core.files.LocalFiles;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.ByteSequence;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consistency check in one process: one scanner per table, merged in key order on the cells'
 * bytes. The facts about each URI are joined in bounded memory ({@link FactJoin}, sorted runs in a
 * temporary directory), so memory does not grow with the tables.
 */
public final class ScannerCheck {
  private static final Logger log = LoggerFactory.getLogger(ScannerCheck.class);

  private ScannerCheck() {}

  /**
   * Compares the two tables: the differences go to {@code listener} as the merge finds them; each
   * table's invariant violations are collected apart (each table is read, and its invariants
   * checked, in a thread of its own) and added to {@code acc} after them, those of the expected
   * table first. {@code listener} passes what it receives on to {@code acc}.
   */
  public static void run(
      Connector conn,
      String expected,
      String actual,
      Exclusions skip,
      CheckAccumulator acc,
      CheckListener listener) {
    run(
        () -> cells(conn, expected, new Range()),
        () -> cells(conn, actual, new Range()),
        skip,
        acc,
        listener);
  }

  /**
   * The comparison of {@link #run(Connector, String, String, Exclusions, CheckAccumulator,
   * CheckListener)} over two sources of cells in key order (a scanner, or a table's files read in
   * this process: {@link FileCheck}).
   */
  static void run(
      Source expected,
      Source actual,
      Exclusions skip,
      CheckAccumulator acc,
      CheckListener listener) {
    Path tmp;
    try {
      tmp = Files.createTempDirectory("webindex-check-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory for the check", e);
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "webindex-check-table");
              t.setDaemon(true);
              return t;
            });
    try {
      SharedDomains domains = new SharedDomains();
      TableReader exp =
          new TableReader(expected, CheckAccumulator.EXPECTED, acc.part(), tmp, domains);
      TableReader act = new TableReader(actual, CheckAccumulator.ACTUAL, acc.part(), tmp, domains);
      Future<?> fe = pool.submit(exp);
      Future<?> fa = pool.submit(act);
      TableDiff.diffRaw(exp.cells(), act.cells(), skip, listener);
      get(fe);
      get(fa);
      acc.merge(exp.violations);
      acc.merge(act.violations);
    } finally {
      pool.shutdownNow();
      try {
        pool.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      deleteRecursively(tmp);
    }
  }

  private static void get(Future<?> f) {
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException r) {
        throw r;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
  }

  /**
   * Reads one table in a thread of its own: checks its row invariants, collects its URI facts and,
   * at the end, joins them; hands the cells on in batches to the merge ({@link #cells()}).
   */
  private static final class TableReader implements Runnable {
    private static final RawCell[] END = new RawCell[0];
    private static final int BATCH = 1024;

    private final Source source;
    private final SharedDomains domains;
    private final String table;
    private final CheckAccumulator violations;
    private final Path dir;
    private final BlockingQueue<RawCell[]> queue = new ArrayBlockingQueue<>(8);
    private volatile Throwable failure;

    TableReader(
        Source source, String table, CheckAccumulator violations, Path tmp, SharedDomains domains) {
      this.source = source;
      this.domains = domains;
      this.table = table;
      this.violations = violations;
      this.dir = tmp.resolve(table);
    }

    @Override
    public void run() {
      long start = System.nanoTime();
      try (FactJoin facts = new FactJoin(table, dir, domains)) {
        RowInvariants rows = new RowInvariants(table, violations, facts);
        try (Cells s = source.open()) {
          RawCell[] batch = new RawCell[BATCH];
          int n = 0;
          while (s.hasNext()) {
            RawCell c = s.next();
            rows.accept(c);
            batch[n++] = c;
            if (n == BATCH) {
              queue.put(batch);
              batch = new RawCell[BATCH];
              n = 0;
            }
          }
          if (n > 0) {
            queue.put(java.util.Arrays.copyOf(batch, n));
          }
        }
        queue.put(END);
        long read = System.nanoTime();
        rows.finish();
        facts.check(violations);
        log.info(
            "check: the {} table read in {} ms, its URI facts joined ({} sorted runs) in {} ms",
            table,
            (read - start) / 1_000_000,
            facts.runs(),
            (System.nanoTime() - read) / 1_000_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException | Error e) {
        failure = e;
        queue.clear(); // the merge stops at the failure: room for the end mark
        queue.offer(END);
        throw e;
      }
    }

    /** The table's cells, in key order, as the reader hands them on. */
    Iterator<RawCell> cells() {
      return new Iterator<>() {
        private RawCell[] batch = new RawCell[0];
        private int i;

        @Override
        public boolean hasNext() {
          while (batch != END && i == batch.length) {
            try {
              batch = queue.take();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IllegalStateException("interrupted", e);
            }
            i = 0;
          }
          Throwable f = failure;
          if (f instanceof RuntimeException r) {
            throw r; // as the scanner threw it (e.g. StoreException: no such table)
          }
          if (f instanceof Error err) {
            throw err;
          }
          return batch != END;
        }

        @Override
        public RawCell next() {
          if (!hasNext()) {
            throw new java.util.NoSuchElementException();
          }
          return batch[i++];
        }
      };
    }
  }

  private static void deleteRecursively(Path dir) {
    try {
      LocalFiles.deleteRecursively(dir);
    } catch (IOException e) {
      log.warn("could not delete the check's temporary directory {}: {}", dir, e.toString());
    }
  }

  /** The cells of a range of a table, in key order. Close it to release its scanner. */
  public static Scan cells(Connector conn, String table, Range range) {
    Scanner s;
    try {
      s = conn.createScanner(table, Authorizations.EMPTY);
    } catch (TableNotFoundException e) {
      throw new StoreException("no table " + table, e);
    }
    try {
      s.setRange(range);
      s.setBatchSize(10_000);
      s.setReadaheadThreshold(1);
      return new Scan(s, s.iterator());
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** One table's cells in key order, opened in the thread that reads them. */
  interface Source {
    Cells open();
  }

  /** Cells in key order; {@link #close()} releases what reads them. */
  interface Cells extends Iterator<RawCell>, AutoCloseable {
    @Override
    void close();
  }

  /** The cells one scanner reads; {@link #close()} releases the scanner. */
  public static final class Scan implements Cells {
    private final Scanner scanner;
    private final Iterator<Map.Entry<Key, Value>> it;

    private Scan(Scanner scanner, Iterator<Map.Entry<Key, Value>> it) {
      this.scanner = scanner;
      this.it = it;
    }

    @Override
    public boolean hasNext() {
      return it.hasNext();
    }

    @Override
    public RawCell next() {
      return raw(it.next());
    }

    @Override
    public void close() {
      scanner.close();
    }
  }

  /** The bytes of a cell a scanner returned (the key's own arrays where they fit exactly). */
  static RawCell raw(Map.Entry<Key, Value> e) {
    Key k = e.getKey();
    return new RawCell(
        bytes(k.getRowData()),
        bytes(k.getColumnFamilyData()),
        bytes(k.getColumnQualifierData()),
        e.getValue().get());
  }

  private static byte[] bytes(ByteSequence b) {
    if (b.isBackedByArray() && b.offset() == 0 && b.length() == b.getBackingArray().length) {
      return b.getBackingArray(); // the key's own array, not copied
    }
    return b.toArray();
  }
}
