package io.webindex.core.schema;

import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.frontier.Frontiers;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;

/**
 * The codec of the frontier table that goes with each query table ({@code <table>_frontier},
 * docs/tables.md): one cell per URI in the frontier, in the row of its queue, ordered the way a
 * queue is served.
 *
 * <pre>
 * q:&lt;queue&gt;   due:&lt;hex16(due ms)&gt;:&lt;enc(urc)&gt;:&lt;uri key&gt;   &lt;URL&gt;
 * </pre>
 *
 * <p>The due time is 16 lower-case hex digits of its epoch milliseconds (ascending), the urc the
 * order-inverting {@link CountCodec} (highest first), so a scan of a queue's row returns its URIs
 * in {@link FrontierEntry#QUEUE_ORDER}; both have a fixed width, so a ':' in a URI key is never
 * ambiguous. The value is the URL handed out. Every cell has exactly one version.
 */
public final class FrontierSchema {
  public static final String TABLE_SUFFIX = "_frontier";
  public static final String QUEUE_PREFIX = "q:";
  public static final String FAM_DUE = "due";

  private static final int DUE_WIDTH = CountCodec.WIDTH;

  private FrontierSchema() {}

  /** The frontier table of a query table. */
  public static String frontierTable(String queryTable) {
    return queryTable + TABLE_SUFFIX;
  }

  /** The row of a queue. */
  public static String queueRow(String queue) {
    if (queue.isEmpty()) {
      throw new IllegalArgumentException("an empty queue");
    }
    return QUEUE_PREFIX + queue;
  }

  /** The queue of a row, as {@link #queueRow} wrote it. */
  public static String queueOfRow(String row) {
    if (!row.startsWith(QUEUE_PREFIX) || row.length() == QUEUE_PREFIX.length()) {
      throw new IllegalArgumentException("not a queue row: " + row);
    }
    return row.substring(QUEUE_PREFIX.length());
  }

  /** The cell of a frontier entry. */
  public static Cell cell(FrontierEntry e) {
    return new Cell(queueRow(e.queue()), FAM_DUE, qualifier(e), Frontiers.urlOf(e.uriKey()));
  }

  /** The column of a frontier entry (to delete it). */
  public static Cell.Column column(FrontierEntry e) {
    return new Cell.Column(queueRow(e.queue()), FAM_DUE, qualifier(e));
  }

  /** {@code <hex16(due)>:<enc(urc)>:<uri key>}. */
  static String qualifier(FrontierEntry e) {
    return encodeDue(e.dueMillis()) + ':' + CountCodec.encode(e.urc()) + ':' + e.uriKey();
  }

  /** 16 lower-case hex digits of a non-negative epoch millisecond, ascending in byte order. */
  public static String encodeDue(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("a negative due time " + millis);
    }
    return CountCodec.hex16(millis);
  }

  /** Decodes {@link #encodeDue}'s form. */
  public static long decodeDue(CharSequence s) {
    if (s.length() != DUE_WIDTH) {
      throw new IllegalArgumentException("an encoded due time has 16 digits: " + s);
    }
    return CountCodec.parseHex16(s, 0, "encoded due time");
  }

  /**
   * The frontier entry of a cell of the frontier table.
   *
   * @throws IllegalArgumentException naming what is wrong when the cell is not one {@link #cell}
   *     writes (row, family, qualifier, the queue of its URI, or its URL)
   */
  public static FrontierEntry decode(Cell c) {
    String queue = queueOfRow(c.row());
    if (!c.family().equals(FAM_DUE)) {
      throw new IllegalArgumentException("not a column of the frontier table: " + c.family());
    }
    String q = c.qualifier();
    int urcAt = DUE_WIDTH + 1;
    int keyAt = urcAt + CountCodec.WIDTH + 1;
    if (q.length() <= keyAt || q.charAt(DUE_WIDTH) != ':' || q.charAt(keyAt - 1) != ':') {
      throw new IllegalArgumentException("not a frontier qualifier: " + q);
    }
    long due = decodeDue(q.subSequence(0, DUE_WIDTH));
    long urc = CountCodec.decode(q.subSequence(urcAt, urcAt + CountCodec.WIDTH));
    String key = q.substring(keyAt);
    // the key parsed once for both checks (Frontiers.queueOf and urlOf parse it each)
    WebUrl parsed;
    try {
      parsed = WebUrl.fromKey(key);
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException("not a URI key: " + key, e);
    }
    String expectedQueue = parsed.host();
    if (!expectedQueue.equals(queue)) {
      throw new IllegalArgumentException(
          "URI " + key + " belongs to queue " + expectedQueue + ", not " + queue);
    }
    String url = parsed.toString();
    if (!url.equals(c.value())) {
      throw new IllegalArgumentException("the URL of " + key + " is " + url + ", not " + c.value());
    }
    return new FrontierEntry(key, queue, due, urc);
  }
}
