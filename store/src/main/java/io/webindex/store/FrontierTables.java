package io.webindex.store;

import io.webindex.core.schema.FrontierSchema;
import java.util.Map;
import java.util.TreeSet;
import org.apache.accumulo.core.client.Connector;

/**
 * The frontier table that goes with each run's query table ({@link FrontierSchema#frontierTable}):
 * created with it, dropped with it. Its cells have one version each (Accumulo's default versioning
 * iterator), like the query table's.
 */
public final class FrontierTables {
  private FrontierTables() {}

  /**
   * Creates the frontier table of {@code queryTable}.
   *
   * @throws StoreException when it exists already: a run only writes into fresh tables
   */
  public static String createFresh(Connector conn, String queryTable) {
    return CompanionTables.createFresh(
        conn, FrontierSchema.frontierTable(queryTable), Map.of(), new TreeSet<>());
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
}
