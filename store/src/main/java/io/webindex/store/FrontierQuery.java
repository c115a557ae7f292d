package io.webindex.store;

import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.frontier.ops.OpsView;
import io.webindex.core.frontier.ops.QueueState;
import io.webindex.core.frontier.service.UrlFrontier;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FrontierOpsSchema.QueueKey;
import io.webindex.core.schema.FrontierOpsSchema.ServiceState;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.store.frontier.OpsRows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeSet;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;

/**
 * What a fetcher would get next from the frontier table of a query table ({@link
 * FrontierSchema#frontierTable}), without taking leases: every queue's entries due at or before an
 * instant, at most {@code perHost} of each queue, the queues served round-robin until {@code limit}
 * URLs; and the frontier's totals (queues, URLs, URLs due).
 *
 * <p>The queues are ordered by their first due entry ({@link FrontierEntry#QUEUE_ORDER} of their
 * heads, then the queue name); the first round takes the head of each queue in that order, the
 * second round the second entry of each queue that has one due, and so on up to {@code perHost}
 * rounds. A queue's row already scans in {@code QUEUE_ORDER}, so its due entries are the first ones
 * of its row.
 *
 * <p>One scan of the whole table (row-isolated: a queue is read as one state of its row). Memory
 * stays within {@code limit} candidates plus at most {@code perHost} entries of the row being read:
 * adding a queue never brings back an entry that fell beyond the first {@code limit} of the
 * round-robin order (each entry's place is fixed by its round and its queue's head), so the
 * candidates beyond {@code limit} are dropped as the scan goes. A cell that does not decode is
 * skipped and counted.
 */
public final class FrontierQuery {
  /** The entries a fetcher gets of one queue per request unless told otherwise. */
  public static final int DEFAULT_PER_HOST = 1;

  private final Connector connector;
  private final String queryTable;
  private final String table;

  /** One URL handed out: its entry and its URL. */
  public record Due(FrontierEntry entry, String url) {}

  /**
   * The answer: the frontier table, the instant, the URLs in the order a fetcher gets them (none in
   * flight, none of a held queue), and the totals of the whole table: queues (rows with an entry),
   * URLs, URLs due at {@code atMillis}, the queues with an entry due; of the frontier service's
   * state at {@code atMillis}: the URLs in flight, the queues blocked, whether it hands out URLs at
   * all (active); and the cells that did not decode (skipped).
   */
  public record FrontierAnswer(
      String table,
      long atMillis,
      int limit,
      int perHost,
      List<Due> urls,
      long queues,
      long urlCount,
      long due,
      long dueQueues,
      long inFlight,
      long blockedQueues,
      boolean active,
      long skipped) {}

  /**
   * A reader of the frontier table of {@code queryTable}.
   *
   * @throws StoreException when the frontier table does not exist
   */
  public FrontierQuery(Connector connector, String queryTable) {
    this.connector = Objects.requireNonNull(connector, "connector");
    this.queryTable = Objects.requireNonNull(queryTable, "queryTable");
    this.table = FrontierSchema.frontierTable(queryTable);
    if (!connector.tableOperations().exists(table)) {
      throw new StoreException(
          "no frontier table '"
              + table
              + "' in Accumulo (a recompute creates it with the query table '"
              + queryTable
              + "')");
    }
  }

  /** The frontier table read. */
  public String table() {
    return table;
  }

  /** The query table whose frontier this is. */
  public String queryTable() {
    return queryTable;
  }

  /**
   * The next URLs due at {@code atMillis}: at most {@code limit}, at most {@code perHost} of each
   * queue, leaving out what {@code ops} holds back (URLs in flight, held queues).
   *
   * @throws IllegalArgumentException when a bound is out of range (1 to {@link
   *     QueryService#MAX_LIMIT}) or the instant is negative
   */
  public FrontierAnswer next(long atMillis, int limit, int perHost, OpsView ops) {
    checkBounds(atMillis, limit, perHost);
    try (Scanner scanner = TableDump.scanner(connector, table)) {
      scanner.enableIsolation();
      Iterator<Map.Entry<Key, Value>> it = scanner.iterator();
      Iterator<Cell> cells =
          new Iterator<>() {
            @Override
            public boolean hasNext() {
              return it.hasNext();
            }

            @Override
            public Cell next() {
              Map.Entry<Key, Value> e = it.next();
              return Cells.fromEntry(e.getKey(), e.getValue());
            }
          };
      return select(table, cells, atMillis, limit, perHost, ops);
    } catch (RuntimeException e) {
      throw refused(table, e);
    }
  }

  /**
   * The frontier service's state of the index's own crawl ({@code DEFAULT}) in its operational
   * table {@code opsTable} ({@link io.webindex.core.schema.FrontierOpsSchema#opsTable}); {@link
   * OpsView#NONE} when the table does not exist (no frontier service ever ran).
   *
   * @throws StoreException when Accumulo refuses the scan, or a cell does not decode
   */
  public static OpsView readOps(Connector connector, String opsTable) {
    if (!connector.tableOperations().exists(opsTable)) {
      return OpsView.NONE;
    }
    ServiceState service;
    SortedMap<QueueKey, QueueState> rows;
    try (Scanner scanner = TableDump.scanner(connector, opsTable)) {
      scanner.enableIsolation();
      service = OpsRows.service(scanner);
      rows = OpsRows.crawl(scanner, UrlFrontier.DEFAULT_CRAWL, null);
    } catch (IllegalArgumentException bad) {
      throw new StoreException("table '" + opsTable + "': " + bad.getMessage(), bad);
    } catch (RuntimeException e) {
      throw refused(opsTable, e);
    }
    Map<String, QueueState> queues = new HashMap<>();
    rows.forEach((q, state) -> queues.put(q.queue(), state));
    return new OpsView(service.active(), queues);
  }

  static void checkBounds(long atMillis, int limit, int perHost) {
    QueryService.checkLimit(limit);
    if (perHost < 1 || perHost > QueryService.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "per-host must be between 1 and " + QueryService.MAX_LIMIT + ": " + perHost);
    }
    if (atMillis < 0) {
      throw new IllegalArgumentException("an instant before 1970: " + atMillis);
    }
  }

  /** A candidate: its round (0 for a queue's head) and its queue's head decide its place. */
  private record Candidate(int round, FrontierEntry head, Due due) {}

  private static final Comparator<Candidate> ROUND_ROBIN =
      Comparator.comparingInt(Candidate::round)
          .thenComparing(Candidate::head, FrontierEntry.QUEUE_ORDER)
          .thenComparing(c -> c.head().queue());

  /**
   * The answer from the frontier table's cells in key order (rows of queues, each in {@code
   * QUEUE_ORDER}).
   */
  static FrontierAnswer select(
      String table, Iterator<Cell> cells, long atMillis, int limit, int perHost, OpsView ops) {
    checkBounds(atMillis, limit, perHost);
    int take = Math.min(limit, perHost);
    TreeSet<Candidate> chosen = new TreeSet<>(ROUND_ROBIN);
    List<Due> row = new ArrayList<>(take);
    String rowName = null;
    boolean rowCounted = false;
    boolean rowHasDue = false;
    long queues = 0;
    long urls = 0;
    long due = 0;
    long dueQueues = 0;
    long skipped = 0;
    while (cells.hasNext()) {
      Cell c = cells.next();
      if (!c.row().equals(rowName)) {
        offer(chosen, row, limit);
        row.clear();
        rowName = c.row();
        rowCounted = false;
        rowHasDue = false;
      }
      FrontierEntry e;
      try {
        e = FrontierSchema.decode(c);
      } catch (IllegalArgumentException bad) {
        skipped++;
        continue;
      }
      if (!rowCounted) {
        queues++;
        rowCounted = true;
      }
      urls++;
      if (e.dueMillis() <= atMillis) {
        due++;
        if (!rowHasDue) {
          dueQueues++;
          rowHasDue = true;
        }
        if (row.size() < take
            && !ops.held(e.queue(), atMillis)
            && !ops.inFlight(e.queue(), e.uriKey(), atMillis)) {
          row.add(new Due(e, c.value()));
        }
      }
    }
    offer(chosen, row, limit);
    List<Due> out = new ArrayList<>(chosen.size());
    for (Candidate c : chosen) {
      out.add(c.due());
    }
    return new FrontierAnswer(
        table,
        atMillis,
        limit,
        perHost,
        List.copyOf(out),
        queues,
        urls,
        due,
        dueQueues,
        ops.inFlight(atMillis),
        ops.blockedQueues(atMillis),
        ops.active(),
        skipped);
  }

  /** Adds a queue's due entries (a prefix of its order) and drops what falls beyond the limit. */
  private static void offer(TreeSet<Candidate> chosen, List<Due> row, int limit) {
    if (row.isEmpty()) {
      return;
    }
    FrontierEntry head = row.get(0).entry();
    for (int i = 0; i < row.size(); i++) {
      chosen.add(new Candidate(i, head, row.get(i)));
    }
    while (chosen.size() > limit) {
      chosen.pollLast();
    }
  }

  /**
   * A scan of {@code table} that Accumulo refused (the user may not read it) as a {@link
   * StoreException} that says so; anything else as it is.
   */
  private static RuntimeException refused(String table, RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AccumuloSecurityException s) {
        return new StoreException(
            "cannot read table '" + table + "': " + s.getSecurityErrorCode(), e);
      }
    }
    return e;
  }
}
