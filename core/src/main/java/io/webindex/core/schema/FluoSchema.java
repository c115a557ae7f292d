package io.webindex.core.schema;

import io.webindex.core.model.UriState;
import io.webindex.core.model.UriUpdate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The codec for the Fluo application's table (docs/tables.md). The {@code um:} and {@code dm:} rows
 * and the {@code eq:} queue are laid out by the fluo-recipes combine and export queues under these
 * ids; the values they hold are encoded here.
 *
 * <ul>
 *   <li>{@code p:<uri>} {@code page:cur} — the current version of the page in stored JSON (see
 *       {@link io.webindex.core.json.PageJson#toStoredJson}), deletions included as tombstones.
 *   <li>{@code um} — URI key → its state and its crawl history's next fetch, {@code
 *       <urc>,<crawled>[,<next fetch ms>]} ({@link #encodeUriSum}: the combination of every {@link
 *       UriUpdate} of the URI, from which its frontier entry is derived too); the updates one
 *       transaction adds to one of the queue's buckets in one entry ({@link #encodeUriUpdates}).
 *   <li>{@code dm} — reversed domain → number of seen URIs (decimal).
 *   <li>{@code h:<uri>} {@code hist:all} — the URI's full crawl history, every crawl with its
 *       winning page version (encoded by {@link HistorySchema#encodeFullHistory}).
 *   <li>{@code eq} — updates for the query table.
 *   <li>{@code meta:loader loader:applied} — the highest batch fully applied (decimal); a batch run
 *       seeds it with its snapshot.
 * </ul>
 */
public final class FluoSchema {
  /** A page's row: the query table's page row ({@link QuerySchema#PAGE_PREFIX}). */
  public static final String PAGE_PREFIX = QuerySchema.PAGE_PREFIX;

  /** The family of a page's current version: the query table's ({@link QuerySchema#FAM_PAGE}). */
  public static final String FAM_PAGE = QuerySchema.FAM_PAGE;

  /**
   * The qualifier of a page's current version: the query table's ({@link QuerySchema#QUAL_CUR}).
   */
  public static final String QUAL_CUR = QuerySchema.QUAL_CUR;

  /** A URI's crawl-history row. */
  public static final String HIST_PREFIX = "h:";

  public static final String FAM_HIST = "hist";
  public static final String QUAL_ALL = "all";

  public static final String URI_MAP_ID = "um";
  public static final String DOMAIN_MAP_ID = "dm";
  public static final String EXPORT_QUEUE_ID = "eq";

  /** The prefix of the application's own bookkeeping rows. */
  public static final String META_PREFIX = "meta:";

  /** Row and column of the loader's resume point: the highest batch fully applied. */
  public static final String META_LOADER_ROW = META_PREFIX + "loader";

  public static final String FAM_LOADER = "loader";
  public static final String QUAL_APPLIED = "applied";

  private FluoSchema() {}

  /**
   * Whether a row of the Fluo table holds the application's state (pages, the two combine queues'
   * data, bookkeeping), as a batch run's seed writes it; other rows are queue traffic.
   */
  public static boolean isStateRow(String row) {
    return row.startsWith(PAGE_PREFIX)
        || row.startsWith(HIST_PREFIX)
        || row.startsWith(URI_MAP_ID + ":")
        || row.startsWith(DOMAIN_MAP_ID + ":")
        || row.startsWith(META_PREFIX);
  }

  public static String pageRow(String uriKey) {
    return PAGE_PREFIX + uriKey;
  }

  public static String uriKeyOfPageRow(String row) {
    if (!row.startsWith(PAGE_PREFIX) || row.length() == PAGE_PREFIX.length()) {
      throw new IllegalArgumentException("not a Fluo page row: " + row);
    }
    return row.substring(PAGE_PREFIX.length());
  }

  public static String histRow(String uriKey) {
    return HIST_PREFIX + uriKey;
  }

  public static String uriKeyOfHistRow(String row) {
    if (!row.startsWith(HIST_PREFIX) || row.length() == HIST_PREFIX.length()) {
      throw new IllegalArgumentException("not a Fluo history row: " + row);
    }
    return row.substring(HIST_PREFIX.length());
  }

  public static String encodeUriDelta(UriState.Delta d) {
    return d.urc() + "," + d.crawled();
  }

  public static UriState.Delta decodeUriDelta(String s) {
    int comma = s.indexOf(',');
    if (comma < 0) {
      throw new IllegalArgumentException("not <urc>,<crawled>: " + s);
    }
    return new UriState.Delta(
        Long.parseLong(s.substring(0, comma)), Long.parseLong(s.substring(comma + 1)));
  }

  /**
   * A URI's sum in the {@code um} queue — its {@code (urc, crawled)} and its crawl history's next
   * fetch, the combination of all its {@link UriUpdate}s — or one update's value in a queue entry:
   * {@code <urc>,<crawled>}, followed by {@code ,<next fetch ms>} when it has one.
   */
  public static String encodeUriSum(UriUpdate u) {
    String delta = encodeUriDelta(u.delta());
    return u.nextFetchMillis() == null ? delta : delta + "," + u.nextFetchMillis().longValue();
  }

  /** The sum or update {@link #encodeUriSum} wrote. */
  public static UriUpdate decodeUriSum(String s) {
    int first = s.indexOf(',');
    int second = first < 0 ? -1 : s.indexOf(',', first + 1);
    try {
      return second < 0
          ? UriUpdate.of(decodeUriDelta(s))
          : new UriUpdate(
              decodeUriDelta(s.substring(0, second)), Long.parseLong(s.substring(second + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not <urc>,<crawled>[,<next fetch ms>]: " + s, e);
    }
  }

  /**
   * The URI updates one transaction adds to one bucket of the {@code um} queue, one line per URI:
   * {@code <uri key> <urc>,<crawled>}, followed by {@code ,<next fetch ms>} when the update carries
   * a next fetch ({@link UriUpdate}), in the map's order. A URI key holds no line break (it is a
   * canonical URL: whitespace is percent-encoded or stripped).
   */
  public static String encodeUriUpdates(Map<String, UriUpdate> updates) {
    StringBuilder sb = new StringBuilder(updates.size() * 48);
    for (Map.Entry<String, UriUpdate> e : updates.entrySet()) {
      String key = e.getKey();
      if (key.isEmpty() || key.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("not a URI key: " + key);
      }
      sb.append(key).append(' ').append(encodeUriSum(e.getValue())).append('\n');
    }
    return sb.toString();
  }

  /** The URI updates {@link #encodeUriUpdates} wrote, in its order. */
  public static Map<String, UriUpdate> decodeUriUpdates(String s) {
    Map<String, UriUpdate> updates = new LinkedHashMap<>();
    int start = 0;
    while (start < s.length()) {
      int end = s.indexOf('\n', start);
      if (end < 0) {
        throw new IllegalArgumentException("URI updates not ending in a line break: " + s);
      }
      int sp = s.lastIndexOf(' ', end);
      if (sp <= start) {
        throw notAnUpdateLine(s, start, end, null);
      }
      String key = s.substring(start, sp);
      UriUpdate u;
      try {
        u = decodeUriSum(s.substring(sp + 1, end));
      } catch (IllegalArgumentException e) {
        throw notAnUpdateLine(s, start, end, e);
      }
      if (updates.put(key, u) != null) {
        throw new IllegalArgumentException("a URI twice in one entry of URI updates: " + key);
      }
      start = end + 1;
    }
    return updates;
  }

  /** The error for line {@code s[start, end)} of URI updates (built only when there is one). */
  private static IllegalArgumentException notAnUpdateLine(
      String s, int start, int end, Exception cause) {
    return new IllegalArgumentException(
        "not <uri key> <urc>,<crawled>[,<next fetch>]: " + s.substring(start, end), cause);
  }
}
