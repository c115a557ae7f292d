package io.webindex.store;

import io.webindex.core.schema.DumpFormat;
import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;

/**
 * Writes a whole table in the readable dump format ({@link DumpFormat}): one line per cell, in key
 * order, each terminated by {@code \n}.
 */
public final class TableDump {
  /** Key-values fetched per round trip; a dump streams, it never holds the table. */
  static final int BATCH_SIZE = 10_000;

  private TableDump() {}

  /**
   * Scans {@code table} in key order and writes {@code DumpFormat.line(cell) + "\n"} per cell to
   * {@code out}, which is flushed (not closed). Pass a buffered writer.
   *
   * @return the number of cells written
   * @throws StoreException when the table does not exist
   * @throws IOException when writing fails
   */
  public static long dump(Connector connector, String table, Writer out) throws IOException {
    long n = 0;
    try (Scanner scanner = scanner(connector, table)) {
      scanner.setBatchSize(BATCH_SIZE);
      for (Map.Entry<Key, Value> e : scanner) {
        out.write(DumpFormat.line(Cells.fromEntry(e.getKey(), e.getValue())));
        out.write('\n');
        n++;
      }
    }
    out.flush();
    return n;
  }

  static Scanner scanner(Connector connector, String table) {
    try {
      return connector.createScanner(table, Authorizations.EMPTY);
    } catch (TableNotFoundException e) {
      throw new StoreException("no table '" + table + "' in Accumulo", e);
    }
  }
}
