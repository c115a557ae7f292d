package io.webindex.store;

import io.webindex.core.history.Crawl;
import io.webindex.core.history.Schedule;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.TimedCell;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.PartialKey;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.hadoop.io.Text;

/**
 * Reads a URI's crawl history from the history table of a query table ({@link
 * HistorySchema#historyTable}): its schedule, its kept crawls newest first (paged) and its urc
 * series. Rows, columns and values are decoded only with {@link HistorySchema}.
 *
 * <p>A page is one isolated scan of the URI's row from the page's first crawl on: the crawls after
 * the cursor (Accumulo returns a column's versions newest first, so the cursor is the crawl time of
 * the last crawl printed, and the next page starts at the version just older), the {@code sched:}
 * cell and the {@code urc:} points. Families sort {@code crawl} &lt; {@code sched} &lt; {@code
 * urc}, so the scan reads at most the kept versions of each column ({@code
 * webindex.history.versions}, at most 1000) and the schedule, the crawls and the series are one
 * state of the row, also while Fluo's exporter writes to it. One crawl beyond the page is read to
 * tell whether the page's oldest crawl changed the signature of the crawl before it.
 */
public final class HistoryQuery {
  private static final String CURSOR = "h";
  private static final Text FAM_CRAWL = new Text(HistorySchema.FAM_CRAWL);
  private static final Text QUAL_EMPTY = new Text(HistorySchema.EMPTY);

  private final Connector connector;
  private final String queryTable;
  private final String table;

  /**
   * Whether a crawl changed the content compared with the crawl before it: {@code FIRST} for the
   * URI's first crawl, {@code UNKNOWN} when the crawl before it is no longer kept.
   */
  public enum Change {
    CHANGED("changed"),
    UNCHANGED("unchanged"),
    FIRST("first"),
    UNKNOWN("unknown");

    private final String word;

    Change(String word) {
      this.word = word;
    }

    /** The word the command line prints. */
    public String word() {
      return word;
    }

    /** The JSON value: true, false, or null when there is nothing (kept) to compare with. */
    public Boolean changed() {
      return switch (this) {
        case CHANGED -> Boolean.TRUE;
        case UNCHANGED -> Boolean.FALSE;
        default -> null;
      };
    }
  }

  /** One kept crawl and whether it changed the content. */
  public record KeptCrawl(Crawl crawl, Change change) {}

  /** One point of the urc series: the batch run's start (its snapshot time) and its urc. */
  public record UrcPoint(long runMillis, long urc) {}

  /**
   * One page of a URI's history: the history table, the URI key and URL, whether the table has
   * anything of it, its schedule (null when it was never crawled: only linked to), its kept crawls
   * newest first, the cursor of the next page (or null) and its urc series oldest first.
   */
  public record HistoryAnswer(
      String table,
      String uri,
      String url,
      boolean known,
      Schedule schedule,
      List<KeptCrawl> crawls,
      String next,
      List<UrcPoint> urc) {}

  /**
   * A reader of the history table of {@code queryTable}.
   *
   * @throws StoreException when the history table does not exist
   */
  public HistoryQuery(Connector connector, String queryTable) {
    this.connector = Objects.requireNonNull(connector, "connector");
    this.queryTable = Objects.requireNonNull(queryTable, "queryTable");
    this.table = HistorySchema.historyTable(queryTable);
    if (!connector.tableOperations().exists(table)) {
      throw new StoreException(
          "no crawl history table '"
              + table
              + "' in Accumulo (a recompute creates it with the query table '"
              + queryTable
              + "')");
    }
  }

  /** The history table read. */
  public String table() {
    return table;
  }

  /** The query table whose history this is. */
  public String queryTable() {
    return queryTable;
  }

  /**
   * A page of the history of {@code url} (read as {@link QueryService#inlinks} reads it: a URL
   * normalised as the index does, or a URI key): at most {@code limit} crawls, newest first, after
   * the crawl that printed {@code after}.
   *
   * @throws IllegalArgumentException when {@code url} is not a valid http(s) URL or URI key, the
   *     limit is out of range or the cursor is not one of this query
   */
  public HistoryAnswer history(String url, int limit, String after) {
    QueryService.checkLimit(limit);
    Long before = after == null ? null : parseCursor(after);
    List<String> candidates = QueryService.uriCandidates(url);
    HistoryAnswer first = null;
    for (String candidate : candidates) {
      HistoryAnswer a = read(candidate, limit, before);
      if (a.known()) {
        return a;
      }
      if (first == null) {
        first = a;
      }
    }
    return first;
  }

  private HistoryAnswer read(String uri, int limit, Long before) {
    String row = HistorySchema.row(uri);
    Text r = new Text(row);
    Key start =
        before == null
            ? new Key(r)
            : new Key(r, FAM_CRAWL, QUAL_EMPTY, before - 1); // versions older than the cursor
    Key end = new Key(r).followingKey(PartialKey.ROW);
    List<Crawl> crawls = new ArrayList<>(limit + 1);
    Schedule schedule = null;
    List<UrcPoint> urc = new ArrayList<>();
    boolean any = false;
    try (Scanner scanner = TableDump.scanner(connector, table)) {
      scanner.enableIsolation();
      scanner.setRange(new Range(start, true, end, false));
      Iterator<Map.Entry<Key, Value>> it = scanner.iterator();
      while (it.hasNext()) {
        Map.Entry<Key, Value> e = it.next();
        TimedCell c = Cells.timedFromEntry(e.getKey(), e.getValue());
        any = true;
        switch (c.family()) {
          case HistorySchema.FAM_CRAWL -> {
            if (crawls.size() <= limit) {
              crawls.add(decode(c, () -> HistorySchema.decodeCrawl(c.timestamp(), c.value())));
            }
          }
          case HistorySchema.FAM_SCHED -> {
            if (schedule == null) { // the newest version is the schedule
              schedule = decode(c, () -> HistorySchema.decodeSchedule(c.value()));
            }
          }
          case HistorySchema.FAM_URC ->
              urc.add(
                  new UrcPoint(c.timestamp(), decode(c, () -> HistorySchema.decodeUrc(c.value()))));
          default -> {
            // a column of a later version of the layout: not part of this answer
          }
        }
      }
    } catch (RuntimeException e) {
      throw refused(e);
    }
    if (before != null && !any) {
      // the cursor's range is only the older crawls and what follows them; the row may still be
      // known, which the caller cannot tell from an empty page of a known row: read the header
      any = rowExists(r);
    }
    Collections.reverse(urc);
    List<KeptCrawl> kept = changes(crawls, limit, schedule);
    String next = null;
    if (crawls.size() > limit) {
      next = encodeCursor(crawls.get(limit - 1).crawledMillis());
    }
    return new HistoryAnswer(table, uri, urlOf(uri), any, schedule, kept, next, List.copyOf(urc));
  }

  /**
   * The page's crawls (at most {@code limit} of {@code newestFirst}) with their change against the
   * crawl before each: the next one in the list, else the URI's first crawl or unknown.
   */
  static List<KeptCrawl> changes(List<Crawl> newestFirst, int limit, Schedule schedule) {
    List<KeptCrawl> out = new ArrayList<>(Math.min(limit, newestFirst.size()));
    for (int i = 0; i < newestFirst.size() && i < limit; i++) {
      Crawl c = newestFirst.get(i);
      Change change;
      if (i + 1 < newestFirst.size()) {
        boolean changed = !c.signature().equals(newestFirst.get(i + 1).signature());
        change = changed ? Change.CHANGED : Change.UNCHANGED;
      } else if (schedule != null && c.crawledMillis() == schedule.firstCrawlMillis()) {
        change = Change.FIRST;
      } else {
        change = Change.UNKNOWN;
      }
      out.add(new KeptCrawl(c, change));
    }
    return List.copyOf(out);
  }

  private boolean rowExists(Text row) {
    try (Scanner scanner = TableDump.scanner(connector, table)) {
      scanner.setRange(new Range(row));
      scanner.setBatchSize(1);
      return scanner.iterator().hasNext();
    } catch (RuntimeException e) {
      throw refused(e);
    }
  }

  /**
   * A scan Accumulo refused (the user may not read the history table: Accumulo's scanner wraps the
   * refusal in a RuntimeException) as a {@link StoreException} that says so; anything else as it
   * is.
   */
  private RuntimeException refused(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AccumuloSecurityException s) {
        return new StoreException(
            "cannot read table '" + table + "': " + s.getSecurityErrorCode(), e);
      }
    }
    return e;
  }

  // ------------------------------------------------------------------ cursors

  /** The cursor after a crawl at {@code crawledMillis}: opaque, shell-safe. */
  static String encodeCursor(long crawledMillis) {
    return QueryService.encodeCursor(CURSOR, Long.toString(crawledMillis));
  }

  static long parseCursor(String cursor) {
    String position = QueryService.decodeCursor(cursor, CURSOR);
    long ms;
    try {
      ms = Long.parseLong(position);
    } catch (NumberFormatException e) {
      throw QueryService.badCursor(cursor);
    }
    if (ms == Long.MIN_VALUE) {
      throw QueryService.badCursor(cursor);
    }
    return ms;
  }

  // ------------------------------------------------------------------ decoding

  private interface Decoder<T> {
    T decode();
  }

  private <T> T decode(TimedCell c, Decoder<T> d) {
    try {
      return d.decode();
    } catch (IllegalArgumentException e) {
      throw new StoreException(
          "table '"
              + table
              + "' is not a history table: "
              + c.row()
              + " "
              + c.family()
              + ":"
              + c.qualifier()
              + " @"
              + c.timestamp()
              + ": "
              + e.getMessage());
    }
  }

  private static String urlOf(String uriKey) {
    try {
      return WebUrl.fromKey(uriKey).toString();
    } catch (InvalidUrlException e) {
      return uriKey;
    }
  }
}
