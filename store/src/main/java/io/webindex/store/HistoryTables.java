package io.webindex.store;

import io.webindex.core.schema.HistorySchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.admin.NewTableConfiguration;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.iterators.IteratorUtil.IteratorScope;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.io.Text;

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
    return createFresh(conn, queryTable, versions, new TreeSet<>());
  }

  /**
   * Creates the history table of {@code queryTable}, keeping {@code versions} versions, split at
   * {@code splits} (its rows are URI keys: the recompute splits it where it splits the URIs).
   *
   * @throws StoreException when it exists already: a run only writes into fresh tables
   */
  public static String createFresh(
      Connector conn, String queryTable, int versions, SortedSet<Text> splits) {
    String table = HistorySchema.historyTable(queryTable);
    try {
      conn.tableOperations()
          .create(table, new NewTableConfiguration().setProperties(versioning(versions)));
      if (!splits.isEmpty()) {
        conn.tableOperations().addSplits(table, splits);
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

  /** One URI's urc series as read: its row and (timestamp, urc) pairs, newest first. */
  public interface UrcSeriesSink {
    void accept(String uriKey, long[] timestampAndUrc) throws IOException;
  }

  /**
   * Streams the urc series of every URI of the history table of {@code queryTable}, in row order,
   * as its versioning iterator keeps them (the newest versions).
   *
   * @return the number of points read
   * @throws StoreException when the table cannot be read
   */
  public static long readUrcSeries(Connector conn, String queryTable, UrcSeriesSink sink)
      throws IOException {
    return readUrcSeries(conn, queryTable, new Range(), sink);
  }

  /**
   * The ranges of the tablets of the history table of {@code queryTable}, in row order, to read
   * them in parallel ({@link #readUrcSeries(Connector, String, Range, UrcSeriesSink)}).
   */
  public static List<Range> tabletRanges(Connector conn, String queryTable) {
    String table = HistorySchema.historyTable(queryTable);
    try {
      List<Range> out = new ArrayList<>();
      Text prev = null;
      for (Text split : conn.tableOperations().listSplits(table)) {
        out.add(new Range(prev, false, split, true));
        prev = split;
      }
      out.add(new Range(prev, false, null, true));
      return out;
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
      throw new StoreException("cannot list the tablets of " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * As {@link #readUrcSeries(Connector, String, UrcSeriesSink)}, the rows of {@code range} only.
   */
  public static long readUrcSeries(
      Connector conn, String queryTable, Range range, UrcSeriesSink sink) throws IOException {
    String table = HistorySchema.historyTable(queryTable);
    long points = 0;
    try {
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      try {
        s.setRange(range);
        s.fetchColumnFamily(new Text(HistorySchema.FAM_URC));
        s.setBatchSize(10_000);
        String row = null;
        long[] series = new long[32];
        int n = 0;
        for (Map.Entry<Key, Value> e : s) {
          String r = e.getKey().getRow().toString();
          if (!r.equals(row)) {
            if (row != null) {
              sink.accept(row, Arrays.copyOf(series, n));
            }
            row = r;
            n = 0;
          }
          if (n + 2 > series.length) {
            series = Arrays.copyOf(series, series.length * 2);
          }
          series[n++] = e.getKey().getTimestamp();
          series[n++] = HistorySchema.decodeUrc(e.getValue().toString());
          points++;
        }
        if (row != null) {
          sink.accept(row, Arrays.copyOf(series, n));
        }
      } finally {
        s.close();
      }
    } catch (TableNotFoundException e) {
      throw new StoreException("cannot read table " + table + ": " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new StoreException("a bad urc point in " + table + ": " + e.getMessage(), e);
    }
    return points;
  }
}
