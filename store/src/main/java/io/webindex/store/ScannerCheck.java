package io.webindex.store;

import io.webindex.core.check.CheckAccumulator;
import io.webindex.core.check.Exclusions;
import io.webindex.core.check.InMemoryCheck;
import io.webindex.core.schema.Cell;
import java.util.Iterator;
import java.util.Map;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;

/** The consistency check in one process: one scanner per table, merged in key order. */
public final class ScannerCheck {
  private ScannerCheck() {}

  public static void run(
      Connector conn, String expected, String actual, Exclusions skip, CheckAccumulator acc) {
    InMemoryCheck.run(
        cells(conn, expected, new Range()), cells(conn, actual, new Range()), skip, acc);
  }

  /** The cells of a range of a table, in key order. */
  public static Iterator<Cell> cells(Connector conn, String table, Range range) {
    Scanner s;
    try {
      s = conn.createScanner(table, Authorizations.EMPTY);
    } catch (TableNotFoundException e) {
      throw new StoreException("no table " + table, e);
    }
    s.setRange(range);
    s.setBatchSize(10_000);
    Iterator<Map.Entry<Key, Value>> it = s.iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public Cell next() {
        Map.Entry<Key, Value> e = it.next();
        return Cells.fromEntry(e.getKey(), e.getValue());
      }
    };
  }
}
