package io.webindex.check.scan;

import io.webindex.check.engine.CheckListener;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.InMemoryCheck;
import io.webindex.core.schema.Cell;
import io.webindex.store.Cells;
import io.webindex.store.StoreException;
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
      Connector conn, String expected, String actual, Exclusions skip, CheckListener acc) {
    try (Scan e = cells(conn, expected, new Range());
        Scan a = cells(conn, actual, new Range())) {
      InMemoryCheck.run(e, a, skip, acc);
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
      return new Scan(s, s.iterator());
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** The cells one scanner reads; {@link #close()} releases the scanner. */
  public static final class Scan implements Iterator<Cell>, AutoCloseable {
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
    public Cell next() {
      Map.Entry<Key, Value> e = it.next();
      return Cells.fromEntry(e.getKey(), e.getValue());
    }

    @Override
    public void close() {
      scanner.close();
    }
  }
}
