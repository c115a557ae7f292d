package io.webindex.store;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.schema.HistorySchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.conf.Property;
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
 * every scope, so a scan, a flush and a compaction all keep the same ones; its {@code
 * table.custom.*} properties record the {@link HistorySettings} it is kept by.
 */
public final class HistoryTables {
  private HistoryTables() {}

  /** The prefix of the table properties Accumulo leaves to applications. */
  static final String CUSTOM = "table.custom.";

  /**
   * The table properties of a history table kept by {@code settings}: the versioning iterator
   * keeping its versions in every scope, and the settings themselves ({@code table.custom.*}), so
   * whoever reads or checks the table later knows the rule it was written by. And how its files are
   * read: the Fluo exporter writes every put on the condition that its column holds no version at
   * that timestamp yet, a point read of the tablet's files per put, so the table keeps its data
   * blocks in the tablet server's block cache and its compactions write them in {@link
   * WebindexConfig#RFILE_DATA_BLOCK_BYTES} (as the recompute writes its files; docs/performance.md
   * has what the check pays for that).
   */
  static Map<String, String> properties(HistorySettings settings) {
    Map<String, String> props = new HashMap<>();
    props.put(Property.TABLE_BLOCKCACHE_ENABLED.getKey(), "true");
    props.put(
        Property.TABLE_FILE_COMPRESSED_BLOCK_SIZE.getKey(),
        Integer.toString(WebindexConfig.RFILE_DATA_BLOCK_BYTES));
    for (IteratorScope scope : EnumSet.allOf(IteratorScope.class)) {
      props.put(
          "table.iterator." + scope.name() + ".vers.opt.maxVersions",
          Integer.toString(settings.versions()));
    }
    settings.properties().forEach((k, v) -> props.put(CUSTOM + k, v));
    return props;
  }

  /**
   * The settings the history table of {@code queryTable} was created with: those its properties
   * record, with the versions its scan-time versioning iterator keeps (an operator may have changed
   * them since); empty for a table created before the settings were recorded.
   *
   * @throws StoreException when the table cannot be read or its properties are damaged
   */
  public static Optional<HistorySettings> settings(Connector conn, String queryTable) {
    String table = HistorySchema.historyTable(queryTable);
    Map<String, String> custom = new HashMap<>();
    String scanVersions = null;
    try {
      for (Map.Entry<String, String> e : conn.tableOperations().getProperties(table)) {
        if (e.getKey().startsWith(CUSTOM)) {
          custom.put(e.getKey().substring(CUSTOM.length()), e.getValue());
        } else if (e.getKey().equals("table.iterator.scan.vers.opt.maxVersions")) {
          scanVersions = e.getValue();
        }
      }
    } catch (AccumuloException | TableNotFoundException e) {
      throw new StoreException("cannot read the properties of " + table + ": " + e.getMessage(), e);
    }
    if (!HistorySettings.recordedIn(custom)) {
      return Optional.empty();
    }
    if (scanVersions != null) {
      custom.put(HistorySettings.VERSIONS, scanVersions);
    }
    try {
      return Optional.of(HistorySettings.fromProperties(custom));
    } catch (IllegalArgumentException e) {
      throw new StoreException(
          "the crawl-history settings of " + table + " are damaged: " + e.getMessage(), e);
    }
  }

  /**
   * Creates the history table of {@code queryTable}, kept by {@code settings}.
   *
   * @throws StoreException when it exists already: a run only writes into fresh tables
   */
  public static String createFresh(Connector conn, String queryTable, HistorySettings settings) {
    return createFresh(conn, queryTable, settings, new TreeSet<>());
  }

  /**
   * Creates the history table of {@code queryTable}, kept by {@code settings}, split at {@code
   * splits} (its rows are URI keys: the recompute splits it where it splits the URIs).
   *
   * @throws StoreException when it exists already: a run only writes into fresh tables
   */
  public static String createFresh(
      Connector conn, String queryTable, HistorySettings settings, SortedSet<Text> splits) {
    return CompanionTables.createFresh(
        conn, HistorySchema.historyTable(queryTable), properties(settings), splits);
  }

  /**
   * Creates the history table of {@code queryTable}, kept by {@code settings}, unless it exists
   * (also when another process creates it at the same moment).
   *
   * @return whether this call created it
   */
  public static boolean createIfMissing(
      Connector conn, String queryTable, HistorySettings settings) {
    return CompanionTables.createIfMissing(
        conn, HistorySchema.historyTable(queryTable), properties(settings));
  }

  /** Whether the history table of {@code queryTable} exists. */
  public static boolean exists(Connector conn, String queryTable) {
    return conn.tableOperations().exists(HistorySchema.historyTable(queryTable));
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
