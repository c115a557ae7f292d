package io.webindex.store;

import java.util.Map;
import java.util.SortedSet;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.conf.Property;
import org.apache.hadoop.io.Text;

/**
 * A run's query table: created fresh by the run (and bulk imported into), then kept by the Fluo
 * application's exports until a later run replaces it.
 */
public final class QueryTables {
  private QueryTables() {}

  /**
   * The table properties of a query table: its data blocks are kept in the tablet server's block
   * cache. Every answer of the web application and of {@code query} is a short scan after a seek (a
   * page of the top list, of a domain, of a URI's inlinks); without the cache each seek read its
   * data block from the file again through the checksummed stream, byte by byte, which was most of
   * the tablet server's time under the web application (docs/performance.md). Fluo only writes to
   * the table and the check (in its files mode) reads the files themselves, so neither fills the
   * cache.
   */
  static Map<String, String> properties() {
    return Map.of(Property.TABLE_BLOCKCACHE_ENABLED.getKey(), "true");
  }

  /**
   * Creates {@code table} with the query table's properties, split at {@code splits}.
   *
   * @throws StoreException when it exists already: a run never writes into an existing table
   */
  public static void createFresh(Connector conn, String table, SortedSet<Text> splits) {
    CompanionTables.createFresh(conn, table, properties(), splits);
  }
}
