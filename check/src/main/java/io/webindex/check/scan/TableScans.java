package io.webindex.check.scan;

import io.webindex.store.StoreException;
import java.util.Iterator;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;

/**
 * How the history and frontier comparisons read their two tables: through a {@link Reader} (one
 * scanner per table, or the table's files read in this process: {@link FileCheck}), every entry
 * turned into a cell as it is read.
 */
final class TableScans {
  private TableScans() {}

  /** A table's entries in key order; {@link #close()} releases what reads them. */
  interface Entries extends Iterator<Map.Entry<Key, Value>>, AutoCloseable {
    @Override
    void close();
  }

  /** Where a comparison reads whole tables. */
  interface Reader {
    /** Whether {@code table} can be read (it existed when the reader was made, for files). */
    boolean exists(String table);

    /** The entries of {@code table}, which {@link #exists} says exists. */
    Entries open(String table);
  }

  /** A reader through the tablet servers: one scanner per table, in batches of 10,000 entries. */
  static Reader scanners(Connector conn) {
    return new Reader() {
      @Override
      public boolean exists(String table) {
        return conn.tableOperations().exists(table);
      }

      @Override
      public Entries open(String table) {
        Scanner s;
        try {
          s = conn.createScanner(table, Authorizations.EMPTY);
        } catch (TableNotFoundException e) {
          throw new StoreException("no table " + table, e);
        }
        s.setBatchSize(10_000);
        Iterator<Map.Entry<Key, Value>> it = s.iterator();
        return new Entries() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Map.Entry<Key, Value> next() {
            return it.next();
          }

          @Override
          public void close() {
            s.close();
          }
        };
      }
    };
  }

  /** How many batches of cells each table is read ahead of the comparison. */
  private static final int BATCHES = 16;

  /**
   * Reads {@code expected} and {@code actual} through {@code reader} (a missing actual table reads
   * as empty), each entry turned into a {@code T} by {@code cell}, and hands both streams to {@code
   * compare}, each read in a thread of its own ({@link ReadAhead}); what reads them is closed on
   * every path.
   */
  static <T> void both(
      Reader reader,
      String expected,
      String actual,
      BiFunction<Key, Value, T> cell,
      BiConsumer<Iterator<T>, Iterator<T>> compare) {
    try (Entries es = reader.open(expected);
        Entries as = reader.exists(actual) ? reader.open(actual) : null;
        // each table read and decoded in a thread of its own, ended before the tables close
        ReadAhead<T> e =
            new ReadAhead<>(map(es, cell), "webindex-check-read-" + expected, BATCHES);
        ReadAhead<T> a =
            new ReadAhead<>(
                as == null ? map(EMPTY, cell) : map(as, cell),
                "webindex-check-read-" + actual,
                BATCHES)) {
      compare.accept(e, a);
    }
  }

  private static final Entries EMPTY =
      new Entries() {
        @Override
        public boolean hasNext() {
          return false;
        }

        @Override
        public Map.Entry<Key, Value> next() {
          throw new java.util.NoSuchElementException();
        }

        @Override
        public void close() {}
      };

  private static <T> Iterator<T> map(
      Iterator<Map.Entry<Key, Value>> entries, BiFunction<Key, Value, T> f) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public T next() {
        Map.Entry<Key, Value> e = entries.next();
        return f.apply(e.getKey(), e.getValue());
      }
    };
  }
}
