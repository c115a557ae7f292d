package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.FrontierCheck;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FrontierSchema;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
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
    Scanner es = TableScans.scanner(conn, e);
    Scanner as = conn.tableOperations().exists(a) ? TableScans.scanner(conn, a) : null;
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

  private static Iterator<Cell> cells(Iterator<Map.Entry<Key, Value>> entries) {
    return TableScans.map(
        entries,
        en -> {
          Key k = en.getKey();
          return new Cell(
              TableScans.text(k.getRowData().toArray()),
              TableScans.text(k.getColumnFamilyData().toArray()),
              TableScans.text(k.getColumnQualifierData().toArray()),
              TableScans.text(en.getValue().get()));
        });
  }
}
