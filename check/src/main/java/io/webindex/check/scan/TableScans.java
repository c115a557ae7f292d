package io.webindex.check.scan;

import io.webindex.store.StoreException;
import java.util.Collections;
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
 * How the history and frontier comparisons read their two tables: one scanner per table, in this
 * process, every entry turned into a cell as it is read.
 */
final class TableScans {
  private TableScans() {}

  /**
   * Reads {@code expected} and {@code actual} (a missing actual table reads as empty), each entry
   * turned into a {@code T} by {@code cell}, and hands both streams to {@code compare}; the
   * scanners are closed on every path.
   */
  static <T> void both(
      Connector conn,
      String expected,
      String actual,
      BiFunction<Key, Value, T> cell,
      BiConsumer<Iterator<T>, Iterator<T>> compare) {
    Scanner es = scanner(conn, expected);
    Scanner as = conn.tableOperations().exists(actual) ? scanner(conn, actual) : null;
    try {
      compare.accept(
          map(es.iterator(), cell),
          as == null ? Collections.emptyIterator() : map(as.iterator(), cell));
    } finally {
      es.close();
      if (as != null) {
        as.close();
      }
    }
  }

  /** A scanner over the whole of {@code table}, in batches of 10,000 entries. */
  private static Scanner scanner(Connector conn, String table) {
    try {
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      s.setBatchSize(10_000);
      return s;
    } catch (TableNotFoundException e) {
      throw new StoreException("no table " + table, e);
    }
  }

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
