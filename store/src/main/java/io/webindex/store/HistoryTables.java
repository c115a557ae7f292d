package io.webindex.store;

import io.webindex.core.schema.HistorySchema;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.admin.NewTableConfiguration;
import org.apache.accumulo.core.iterators.IteratorUtil.IteratorScope;

/**
 * The crawl-history table that goes with each run's query table ({@link
 * HistorySchema#historyTable}): created with it, dropped with it. Its versioning iterator keeps the
 * newest {@code versions} versions of every cell (crawls and urc points by their timestamps), in
 * every scope, so a scan, a flush and a compaction all keep the same ones.
 */
public final class HistoryTables {
  private HistoryTables() {}

  /** The table properties that keep {@code versions} versions in every scope. */
  static Map<String, String> versioning(int versions) {
    if (versions < 1) {
      throw new IllegalArgumentException("keep at least one version, not " + versions);
    }
    Map<String, String> props = new HashMap<>();
    for (IteratorScope scope : EnumSet.allOf(IteratorScope.class)) {
      props.put(
          "table.iterator." + scope.name() + ".vers.opt.maxVersions", Integer.toString(versions));
    }
    return props;
  }

  /**
   * Creates the history table of {@code queryTable}, keeping {@code versions} versions.
   *
   * @throws StoreException when it exists already: a run only writes into fresh tables
   */
  public static String createFresh(Connector conn, String queryTable, int versions) {
    String table = HistorySchema.historyTable(queryTable);
    try {
      conn.tableOperations()
          .create(table, new NewTableConfiguration().setProperties(versioning(versions)));
      return table;
    } catch (TableExistsException e) {
      throw new StoreException(
          "table " + table + " exists already; a run only writes into a fresh table", e);
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new StoreException("cannot create table " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * Creates the history table of {@code queryTable}, keeping {@code versions} versions, unless it
   * exists (also when another process creates it at the same moment).
   *
   * @return whether this call created it
   */
  public static boolean createIfMissing(Connector conn, String queryTable, int versions) {
    String table = HistorySchema.historyTable(queryTable);
    if (conn.tableOperations().exists(table)) {
      return false;
    }
    try {
      conn.tableOperations()
          .create(table, new NewTableConfiguration().setProperties(versioning(versions)));
      return true;
    } catch (TableExistsException e) {
      return false;
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new StoreException("cannot create table " + table + ": " + e.getMessage(), e);
    }
  }

  /** Whether the history table of {@code queryTable} exists. */
  public static boolean exists(Connector conn, String queryTable) {
    return conn.tableOperations().exists(HistorySchema.historyTable(queryTable));
  }

  /** Drops the history table of {@code queryTable} if it exists. */
  public static void dropIfExists(Connector conn, String queryTable) {
    String table = HistorySchema.historyTable(queryTable);
    try {
      if (conn.tableOperations().exists(table)) {
        conn.tableOperations().delete(table);
      }
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
      throw new StoreException("cannot drop table " + table + ": " + e.getMessage(), e);
    }
  }
}
