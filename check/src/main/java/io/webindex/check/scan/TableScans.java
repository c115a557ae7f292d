package io.webindex.check.scan;

import io.webindex.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;

/** The one scanner per table that the history and frontier comparisons read through. */
final class TableScans {
  private TableScans() {}

  /** A scanner over the whole of {@code table}, in batches of 10,000 entries. */
  static Scanner scanner(Connector conn, String table) {
    try {
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      s.setBatchSize(10_000);
      return s;
    } catch (TableNotFoundException e) {
      throw new StoreException("no table " + table, e);
    }
  }

  /** The entries of {@code entries}, each turned into a {@code T} as it is read. */
  static <T> Iterator<T> map(
      Iterator<Map.Entry<Key, Value>> entries, Function<Map.Entry<Key, Value>, T> f) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public T next() {
        return f.apply(entries.next());
      }
    };
  }

  static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
