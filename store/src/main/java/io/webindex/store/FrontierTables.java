package io.webindex.store;

import io.webindex.core.schema.FrontierSchema;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.io.Text;

/**
 * The frontier table that goes with each run's query table ({@link FrontierSchema#frontierTable}):
 * created with it, dropped with it. Its cells have one version each (Accumulo's default versioning
 * iterator), like the query table's.
 */
public final class FrontierTables {
  private FrontierTables() {}

  /**
   * Creates the frontier table of {@code queryTable}, split at {@code splits} (queue rows).
   *
   * @throws StoreException when it exists already: a run only writes into fresh tables
   */
  public static String createFresh(Connector conn, String queryTable, SortedSet<Text> splits) {
    return CompanionTables.createFresh(
        conn, FrontierSchema.frontierTable(queryTable), Map.of(), splits);
  }

  /** As {@link #createFresh(Connector, String, SortedSet)}, unsplit. */
  public static String createFresh(Connector conn, String queryTable) {
    return createFresh(conn, queryTable, new TreeSet<>());
  }

  /**
   * Creates the frontier table of {@code queryTable} unless it exists (also when another process
   * creates it at the same moment).
   *
   * @return whether this call created it
   */
  public static boolean createIfMissing(Connector conn, String queryTable) {
    return CompanionTables.createIfMissing(
        conn, FrontierSchema.frontierTable(queryTable), Map.of());
  }

  /** Whether the frontier table of {@code queryTable} exists. */
  public static boolean exists(Connector conn, String queryTable) {
    return conn.tableOperations().exists(FrontierSchema.frontierTable(queryTable));
  }

  /** Drops the frontier table of {@code queryTable} if it exists. */
  public static void dropIfExists(Connector conn, String queryTable) {
    CompanionTables.dropIfExists(conn, FrontierSchema.frontierTable(queryTable));
  }
}
