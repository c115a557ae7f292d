package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.CheckListener;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RawCell;
import io.webindex.check.engine.RowInvariants;
import io.webindex.check.engine.TableDiff;
import io.webindex.core.files.LocalFiles;
import io.webindex.core.schema.Cell;
import io.webindex.core.url.Domains;
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
   * table's invariant violations are collected apart (each table is read in a thread of its own,
   * its invariants checked in another beside it) and added to {@code acc} after them, those of the
   * expected table first. {@code listener} passes what it receives on to {@code acc}.
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
    run(expected, actual, skip, acc, listener, () -> {});
  }

  /**
   * As {@link #run(Source, Source, Exclusions, CheckAccumulator, CheckListener)}, and {@code
   * alongside} runs in the calling thread once both tables are read and merged, while their URI
   * facts are joined; it has ended when this returns (also when this throws).
   *
   * <p>When the actual table is a {@link Source#fixed fixed} snapshot, its invariants are not
   * checked while it is read: if the merge finds the two tables hold the same cells, everything the
   * expected table's invariants find is found, the same, in the actual table (the invariants are a
   * function of the cells' text), and it is reported for both; only if they differ is the actual
   * table read a second time to check its own. A table read through a scanner may change between
   * two reads, so its invariants are checked on the cells the merge compares, as they are read.
   */
  static void run(
      Source expected,
      Source actual,
      Exclusions skip,
      CheckAccumulator acc,
      CheckListener listener,
      Runnable alongside) {
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
      boolean later = actual.fixed(); // the actual table's invariants: only if the tables differ
      CheckAccumulator expViolations = acc.part();
      CheckAccumulator actViolations = acc.part();
      CheckAccumulator mirrored = acc.part(); // the expected table's findings, as the actual's
      TableReader exp =
          new TableReader(
              expected,
              CheckAccumulator.EXPECTED,
              later ? mirror(expViolations, mirrored) : expViolations,
              tmp,
              true,
              true);
      TableReader act =
          new TableReader(actual, CheckAccumulator.ACTUAL, actViolations, tmp, !later, true);
      Future<?> fe = pool.submit(exp);
      Future<?> fa = pool.submit(act);
      boolean same = TableDiff.diffRaw(exp.cells(), act.cells(), skip, listener);
      get(fa);
      Future<?> again = null;
      if (later && !same) {
        log.info("check: the tables differ: the actual table is read again for its invariants");
        again =
            pool.submit(
                new TableReader(actual, CheckAccumulator.ACTUAL, actViolations, tmp, true, false));
      }
      if (fe.isDone()) {
        get(fe); // the expected table's failure first, if it has failed already
      }
      alongside.run();
      get(fe);
      if (again != null) {
        get(again);
      }
      acc.merge(expViolations);
      acc.merge(later && same ? mirrored : actViolations);
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

  /**
   * Passes the expected table's invariant violations to {@code expected}, and each also to {@code
   * actual} as found in the actual table.
   */
  private static CheckListener mirror(CheckAccumulator expected, CheckAccumulator actual) {
    return new CheckListener() {
      @Override
      public void compared(String range, boolean skipped) {
        expected.compared(range, skipped);
      }

      @Override
      public void difference(Kind kind, Cell e, Cell a) {
        expected.difference(kind, e, a);
      }

      @Override
      public void violation(String table, Finding f) {
        expected.violation(table, f);
        actual.violation(CheckAccumulator.ACTUAL, f.in(CheckAccumulator.ACTUAL));
      }
    };
  }

  private static void get(Future<?> f) {
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Thrown.rethrow(e.getCause());
      throw new IllegalStateException(e);
    }
  }

  /**
   * Reads one table in a thread of its own: checks its row invariants, collects its URI facts and,
   * at the end, joins them (unless told not to check them); hands the cells on in batches to the
   * merge ({@link #cells()}), unless told not to.
   */
  private static final class TableReader implements Runnable {
    private static final RawCell[] END = new RawCell[0];
    private static final int BATCH = 1024;

    /** The hosts whose domains a table's fact join remembers (a few MB). */
    private static final int HOSTS = 1 << 16;

    private final Source source;
    private final String table;
    private final CheckListener violations;
    private final Path dir;
    private final boolean invariants;
    private final boolean handOn;
    private final BlockingQueue<RawCell[]> queue = new ArrayBlockingQueue<>(8);
    private volatile Throwable failure;

    TableReader(
        Source source,
        String table,
        CheckListener violations,
        Path tmp,
        boolean invariants,
        boolean handOn) {
      this.source = source;
      this.table = table;
      this.violations = violations;
      this.dir = tmp.resolve(table);
      this.invariants = invariants;
      this.handOn = handOn;
    }

    @Override
    public void run() {
      long start = System.nanoTime();
      Invariants checker = null;
      Thread apart = null;
      try {
        checker = invariants ? new Invariants() : null;
        if (checker != null && handOn) {
          Thread t = new Thread(checker::drain, "webindex-check-invariants-" + table);
          t.setDaemon(true);
          t.start();
          apart = t;
        }
        try (Cells s = source.open()) {
          RawCell[] batch = new RawCell[BATCH];
          int n = 0;
          while (s.hasNext()) {
            RawCell c = s.next();
            if (!handOn) {
              checker.rows.accept(c);
              if (++n == BATCH) {
                n = 0;
                stopWhenInterrupted();
              }
              continue;
            }
            batch[n++] = c;
            if (n == BATCH) {
              handOn(batch, checker);
              batch = new RawCell[BATCH];
              n = 0;
            }
          }
          if (handOn && n > 0) {
            handOn(java.util.Arrays.copyOf(batch, n), checker);
          }
        }
        if (handOn) {
          handOn(END, checker);
        }
        long read = System.nanoTime();
        if (checker == null) {
          log.info("check: the {} table read in {} ms", table, (read - start) / 1_000_000);
          return;
        }
        if (apart != null) {
          apart.join();
          checker.rethrow();
        } else {
          checker.finish();
        }
        log.info(
            "check: the {} table read in {} ms{}, its URI facts joined ({} sorted runs) in {} ms",
            table,
            (read - start) / 1_000_000,
            handOn ? "" : " again",
            checker.facts.runs(),
            checker.joinMs);
      } catch (InterruptedException e) {
        if (apart != null) {
          checker.abandon(apart, e);
        }
        Thread.currentThread().interrupt();
      } catch (RuntimeException | Error e) {
        failure = e;
        queue.clear(); // the merge stops at the failure: room for the end mark
        queue.offer(END);
        if (apart != null) {
          checker.abandon(apart, e);
        }
        throw e;
      } finally {
        if (checker != null && apart == null) {
          checker.facts.close();
        }
      }
    }

    /**
     * Hands a batch on to the merge and, when they are checked apart, to the invariants; throws
     * what the invariants have thrown, so that the merge stops there.
     */
    private void handOn(RawCell[] batch, Invariants checker) throws InterruptedException {
      if (checker != null) {
        checker.rethrow();
      }
      queue.put(batch);
      if (checker != null) {
        checker.batches.put(batch);
      }
    }

    /**
     * The table's invariants: its row invariants and its URI facts, joined at the end. While the
     * cells are handed on to the merge, in a thread of their own ({@link #drain}), fed the same
     * batches: reading the files and checking the invariants then take a core each.
     */
    private final class Invariants {
      final BlockingQueue<RawCell[]> batches = new ArrayBlockingQueue<>(8);
      final FactJoin facts = new FactJoin(table, dir, Domains.remembering(HOSTS));
      final RowInvariants rows = new RowInvariants(table, violations, facts);
      private volatile Throwable failed;
      long joinMs;

      /** Ends the row invariants and joins the facts (stopping when interrupted). */
      void finish() {
        rows.finish();
        long t = System.nanoTime();
        facts.check(violations);
        joinMs = (System.nanoTime() - t) / 1_000_000;
      }

      /**
       * Checks the batches to the end mark, then finishes; after a failure (its own, or the
       * reader's: {@link #abandon}) takes the rest without checking them, so the reader never waits
       * on it; always closes the facts.
       */
      void drain() {
        try {
          while (true) {
            RawCell[] b = batches.take();
            if (b == END) {
              break;
            }
            if (failed == null) {
              try {
                for (RawCell c : b) {
                  rows.accept(c);
                }
              } catch (Throwable e) {
                failed = e;
              }
            }
          }
          if (failed == null) {
            finish();
          }
        } catch (Throwable e) {
          if (failed == null) {
            failed = e;
          }
        } finally {
          facts.close();
        }
      }

      /**
       * The reader has failed or was interrupted: the invariants stop (at the next batch, or in the
       * fact join, interrupted) and do not finish; returns once their thread has ended.
       */
      void abandon(Thread apart, Throwable cause) {
        if (failed == null) {
          failed = cause;
        }
        batches.clear();
        batches.offer(END);
        apart.interrupt();
        boolean interrupted = false;
        while (apart.isAlive()) {
          try {
            apart.join();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }

      /** Throws what the invariants' thread threw, as it threw it. */
      void rethrow() {
        Thrown.rethrow(failed);
      }
    }

    /** Throws when this thread has been interrupted (the check has ended or failed). */
    private static void stopWhenInterrupted() throws InterruptedException {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("the check has ended");
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
          Thrown.rethrow(failure); // as the scanner threw it (e.g. StoreException: no table)
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

    /**
     * Whether every {@link #open} gives the same cells (a fixed snapshot, such as the files of an
     * offline clone), so that the table can be read a second time.
     */
    default boolean fixed() {
      return false;
    }
  }

  /** {@code source}, which gives the same cells every time it is opened. */
  static Source fixed(Source source) {
    return new Source() {
      @Override
      public Cells open() {
        return source.open();
      }

      @Override
      public boolean fixed() {
        return true;
      }
    };
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
