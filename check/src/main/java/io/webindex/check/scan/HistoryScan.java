package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.HistoryCheck;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.schema.HistorySchema;
import io.webindex.store.Cells;
import io.webindex.store.HistoryTables;
import org.apache.accumulo.core.client.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares the history tables of two query tables ({@link HistoryCheck}) in this process, whatever
 * mode compared the query tables, through a scanner each or from their files ({@link
 * TableScans.Reader}): either returns the versions each table's versioning iterator keeps, and the
 * check holds one row of each at a time.
 */
final class HistoryScan {
  private static final Logger log = LoggerFactory.getLogger(HistoryScan.class);

  private HistoryScan() {}

  /**
   * Compares the history table of {@code expected} with that of {@code actual}, each checked by the
   * rule it records ({@link HistoryTables#settings}; {@code configured} for a table that records
   * none, and for a missing actual one, which compares as empty). Without the expected one (a run
   * recomputed before crawl history existed) there is nothing to compare and it returns false.
   *
   * @return whether the history tables were compared
   */
  static boolean run(
      Connector conn,
      TableScans.Reader reader,
      String expected,
      String actual,
      HistorySettings configured,
      Exclusions skip,
      CheckAccumulator acc) {
    String e = HistorySchema.historyTable(expected);
    String a = HistorySchema.historyTable(actual);
    if (!reader.exists(e)) {
      log.warn(
          "check: the run's table {} has no history table {}: histories not compared", expected, e);
      return false;
    }
    boolean actualExists = reader.exists(a);
    HistoryCheck check =
        new HistoryCheck(
            rule(conn, expected, configured),
            actualExists ? rule(conn, actual, configured) : configured,
            skip,
            acc);
    TableScans.both(reader, e, a, Cells::timedFromEntry, check::run);
    return true;
  }

  /** The rule the history table of {@code queryTable} records, else {@code configured}. */
  private static HistorySettings rule(
      Connector conn, String queryTable, HistorySettings configured) {
    return HistoryTables.settings(conn, queryTable)
        .orElseGet(
            () -> {
              log.warn(
                  "check: the history table {} records no settings (created by an older webindex):"
                      + " checking it by this configuration's",
                  HistorySchema.historyTable(queryTable));
              return configured;
            });
  }
}
