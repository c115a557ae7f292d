package io.webindex.store;

import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.accumulo.core.client.Connector;

/**
 * The tables of one run: its query table and the tables that go with it, its history table ({@link
 * HistoryTables}) and its frontier table ({@link FrontierTables}). A run creates them together, and
 * a failed run's clean-up and the retention drop them together.
 */
public final class RunTables {
  private RunTables() {}

  /** The tables that go with query table {@code queryTable}: its history and frontier tables. */
  public static List<String> companions(String queryTable) {
    return List.of(
        HistorySchema.historyTable(queryTable), FrontierSchema.frontierTable(queryTable));
  }

  /**
   * Drops query table {@code queryTable} and the tables that go with it, those that exist.
   *
   * @return the tables dropped, the query table first
   * @throws StoreException when one cannot be dropped
   */
  public static List<String> dropAll(Connector conn, String queryTable) {
    List<String> all = new ArrayList<>();
    all.add(queryTable);
    all.addAll(companions(queryTable));
    List<String> dropped = new ArrayList<>();
    for (String t : all) {
      if (conn.tableOperations().exists(t)) {
        BulkImport.dropIfExists(conn, t);
        dropped.add(t);
      }
    }
    return dropped;
  }
}
