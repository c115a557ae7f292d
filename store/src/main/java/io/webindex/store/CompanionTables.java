package io.webindex.store;

import java.util.Map;
import java.util.SortedSet;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.admin.NewTableConfiguration;
import org.apache.hadoop.io.Text;

/**
 * How a run's tables are created: the query table ({@link QueryTables}) fresh by the run, the
 * tables that go with it (its history and frontier tables) fresh by the run or by the Fluo exporter
 * when missing; all dropped with the run.
 */
final class CompanionTables {
  private CompanionTables() {}

  /**
   * Creates {@code table} with {@code props}, split at {@code splits}.
   *
   * @throws StoreException when it exists already: a run only writes into fresh tables
   */
  static String createFresh(
      Connector conn, String table, Map<String, String> props, SortedSet<Text> splits) {
    try {
      conn.tableOperations().create(table, new NewTableConfiguration().setProperties(props));
      if (!splits.isEmpty()) {
        // the client may not know the table yet (BulkImport.onFreshTable)
        BulkImport.onFreshTable(() -> conn.tableOperations().addSplits(table, splits));
      }
      return table;
    } catch (TableExistsException e) {
      throw new StoreException(
          "table " + table + " exists already; a run only writes into a fresh table", e);
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
      throw new StoreException("cannot create table " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * Creates {@code table} with {@code props} unless it exists, and returns once this client knows
   * it ({@link BulkImport#createIfMissing}).
   *
   * @return whether this call created it
   */
  static boolean createIfMissing(Connector conn, String table, Map<String, String> props) {
    try {
      return BulkImport.createIfMissing(conn, table, props);
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new StoreException("cannot create table " + table + ": " + e.getMessage(), e);
    }
  }
}
