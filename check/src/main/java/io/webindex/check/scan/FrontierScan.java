package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.FrontierCheck;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares the frontier tables of two query tables ({@link FrontierCheck}) through one scanner
 * each, in this process, whatever mode compared the query tables.
 */
public final class FrontierScan {
  private static final Logger log = LoggerFactory.getLogger(FrontierScan.class);

  private FrontierScan() {}

  /**
   * Compares the frontier table of {@code expected} with that of {@code actual}. Without the
   * expected one (a run recomputed before the frontier existed) there is nothing to compare and it
   * returns false; a missing actual one compares as empty.
   *
   * @return whether the frontier tables were compared
   */
  public static boolean run(
      Connector conn, String expected, String actual, Exclusions skip, CheckAccumulator acc) {
    String e = FrontierSchema.frontierTable(expected);
    String a = FrontierSchema.frontierTable(actual);
    if (!conn.tableOperations().exists(e)) {
      log.warn(
          "check: the run's table {} has no frontier table {}: frontiers not compared",
          expected,
          e);
      return false;
    }
    Scanner es = scanner(conn, e);
    Scanner as = conn.tableOperations().exists(a) ? scanner(conn, a) : null;
    try {
      new FrontierCheck(skip, acc)
          .run(
              cells(es.iterator()),
              as == null ? Collections.emptyIterator() : cells(as.iterator()));
    } finally {
      es.close();
      if (as != null) {
        as.close();
      }
    }
    return true;
  }

  private static Scanner scanner(Connector conn, String table) {
    try {
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      s.setBatchSize(10_000);
      return s;
    } catch (TableNotFoundException e) {
      throw new StoreException("no table " + table, e);
    }
  }

  private static Iterator<Cell> cells(Iterator<Map.Entry<Key, Value>> entries) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public Cell next() {
        Map.Entry<Key, Value> en = entries.next();
        Key k = en.getKey();
        return new Cell(
            text(k.getRowData().toArray()),
            text(k.getColumnFamilyData().toArray()),
            text(k.getColumnQualifierData().toArray()),
            text(en.getValue().get()));
      }
    };
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
