package io.webindex.core.schema;

import io.webindex.core.frontier.ops.Lease;
import io.webindex.core.frontier.ops.QueueState;
import io.webindex.core.frontier.ops.UrlRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The codec of the frontier's operational table ({@code <prefix>_frontier_ops}, docs/tables.md):
 * one table per index (it outlives the runs' cut-overs), one row per queue of a crawl with the
 * queue's whole state, so that one conditional mutation covers it, and one row for the frontier as
 * a whole.
 *
 * <pre>
 * s:                              cfg:active         true | false          (absent: active)
 * s:                              cfg:delay          &lt;seconds&gt;             default delay of every queue
 * q:&lt;crawl&gt;:&lt;queue&gt;               cfg:delay          &lt;seconds&gt;             the queue's own delay
 *                                 cfg:blocked        &lt;epoch s&gt;             blocked until then
 *                                 cfg:limit          &lt;n&gt;                   crawl limit
 *                                 cfg:last           &lt;epoch ms&gt;            last hand-out
 *                                 cfg:stamp          &lt;stamp&gt;               replaced by every write
 *                                 lease:&lt;uri key&gt;    &lt;until ms&gt; &lt;owner&gt;
 *                                 url:&lt;uri key&gt;      &lt;state&gt; &lt;due ms&gt; &lt;basis ms | -&gt; &lt;metadata&gt; &lt;URL&gt;
 * </pre>
 *
 * <p>In a row, the crawl id has {@code %} and {@code :} percent-encoded ({@code %25}, {@code %3A}),
 * so the first {@code :} after it ends it and the queue key is the rest of the row. A record's
 * state is {@code discovered}, {@code known} or {@code completed}; its basis the URI's newest crawl
 * in the index when it was written ({@code -}: never crawled); its metadata {@code -} when empty,
 * else the entries in key order joined by {@code &}, each {@code key} (no values) or {@code
 * key=v1,v2,...}, where keys and values have {@code %}, space, {@code &}, {@code =}, {@code ,},
 * {@code -} and control characters percent-encoded (the one map that would be written empty, an
 * empty key without values, is written {@code &}); the URL is the rest of the value.
 */
public final class FrontierOpsSchema {
  public static final String TABLE_SUFFIX = "_frontier_ops";
  public static final String QUEUE_PREFIX = "q:";
  public static final String SERVICE_ROW = "s:";
  public static final String FAM_CFG = "cfg";
  public static final String FAM_LEASE = "lease";
  public static final String FAM_URL = "url";
  public static final String QUAL_ACTIVE = "active";
  public static final String QUAL_DELAY = "delay";
  public static final String QUAL_BLOCKED = "blocked";
  public static final String QUAL_LIMIT = "limit";
  public static final String QUAL_LAST = "last";
  public static final String QUAL_STAMP = "stamp";
  public static final String NONE = "-";

  /** The metadata of one empty key without values (which would otherwise be written empty). */
  private static final String ONLY_EMPTY_KEY = "&";

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private FrontierOpsSchema() {}

  /** The operational table of an index with table prefix {@code tablePrefix}. */
  public static String opsTable(String tablePrefix) {
    return tablePrefix + TABLE_SUFFIX;
  }

  // ---- rows

  /** A queue of a crawl, as its row names it. */
  public record QueueKey(String crawl, String queue) {
    public QueueKey {
      Objects.requireNonNull(crawl, "crawl");
      Objects.requireNonNull(queue, "queue");
      if (crawl.isEmpty() || queue.isEmpty()) {
        throw new IllegalArgumentException("an empty crawl id or queue key");
      }
    }
  }

  /** The crawl id as a row writes it: {@code %} and {@code :} percent-encoded. */
  public static String encodeCrawl(String crawl) {
    if (crawl.isEmpty()) {
      throw new IllegalArgumentException("an empty crawl id");
    }
    return crawl.replace("%", "%25").replace(":", "%3A");
  }

  /** Inverse of {@link #encodeCrawl}. */
  public static String decodeCrawl(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '%') {
        out.append(c);
      } else if (s.startsWith("%25", i)) {
        out.append('%');
        i += 2;
      } else if (s.startsWith("%3A", i)) {
        out.append(':');
        i += 2;
      } else {
        throw new IllegalArgumentException("not an encoded crawl id: " + s);
      }
    }
    return out.toString();
  }

  /** The row of a queue. */
  public static String queueRow(QueueKey q) {
    return crawlPrefix(q.crawl()) + q.queue();
  }

  /** The prefix of every row of a crawl's queues. */
  public static String crawlPrefix(String crawl) {
    return QUEUE_PREFIX + encodeCrawl(crawl) + ':';
  }

  /** The queue of a row, as {@link #queueRow} wrote it. */
  public static QueueKey queueOfRow(String row) {
    int colon = row.indexOf(':', QUEUE_PREFIX.length());
    if (!row.startsWith(QUEUE_PREFIX) || colon < 0) {
      throw new IllegalArgumentException("not a queue row of the operational table: " + row);
    }
    return new QueueKey(
        decodeCrawl(row.substring(QUEUE_PREFIX.length(), colon)), row.substring(colon + 1));
  }

  // ---- a queue's state

  /** The cells of a queue's state (in key order). */
  public static List<Cell> cells(QueueKey q, QueueState s) {
    String row = queueRow(q);
    List<Cell> out = new ArrayList<>();
    if (s.blockedUntilSeconds() != null) {
      out.add(new Cell(row, FAM_CFG, QUAL_BLOCKED, Long.toString(s.blockedUntilSeconds())));
    }
    if (s.delaySeconds() != null) {
      out.add(new Cell(row, FAM_CFG, QUAL_DELAY, Integer.toString(s.delaySeconds())));
    }
    if (s.lastHandOutMillis() != null) {
      out.add(new Cell(row, FAM_CFG, QUAL_LAST, Long.toString(s.lastHandOutMillis())));
    }
    if (s.limit() != null) {
      out.add(new Cell(row, FAM_CFG, QUAL_LIMIT, Long.toString(s.limit())));
    }
    if (s.stamp() != null) {
      out.add(new Cell(row, FAM_CFG, QUAL_STAMP, s.stamp()));
    }
    s.leases().forEach((k, l) -> out.add(new Cell(row, FAM_LEASE, k, encodeLease(l))));
    s.records().forEach((k, r) -> out.add(new Cell(row, FAM_URL, k, encodeRecord(r))));
    out.sort(Cell.ORDER);
    return out;
  }

  /**
   * The state of a queue from the cells of its row (in any order; none: {@link QueueState#EMPTY}).
   *
   * @throws IllegalArgumentException naming the cell, when one is not what {@link #cells} writes
   */
  public static QueueState decode(List<Cell> row) {
    Integer delay = null;
    Long blocked = null;
    Long limit = null;
    Long last = null;
    String stamp = null;
    SortedMap<String, Lease> leases = new TreeMap<>();
    SortedMap<String, UrlRecord> records = new TreeMap<>();
    for (Cell c : row) {
      try {
        switch (c.family()) {
          case FAM_CFG -> {
            switch (c.qualifier()) {
              case QUAL_DELAY -> delay = Integer.parseInt(c.value());
              case QUAL_BLOCKED -> blocked = Long.parseLong(c.value());
              case QUAL_LIMIT -> limit = Long.parseLong(c.value());
              case QUAL_LAST -> last = Long.parseLong(c.value());
              case QUAL_STAMP -> stamp = c.value();
              default -> throw new IllegalArgumentException("an unknown setting");
            }
          }
          case FAM_LEASE -> leases.put(c.qualifier(), decodeLease(c.value()));
          case FAM_URL -> records.put(c.qualifier(), decodeRecord(c.value()));
          default -> throw new IllegalArgumentException("an unknown family");
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "not a cell of the frontier's operational table ("
                + e.getMessage()
                + "): "
                + c.row()
                + ' '
                + c.family()
                + ':'
                + c.qualifier()
                + ' '
                + c.value(),
            e);
      }
    }
    return new QueueState(delay, blocked, limit, last, stamp, leases, records);
  }

  /**
   * The changes that turn the stored cells of {@code before} into those of {@code after}: a put for
   * each new or changed cell, a delete for each cell that goes.
   */
  public static List<CellChange> changes(QueueKey q, QueueState before, QueueState after) {
    Map<Cell.Column, Cell> old = new LinkedHashMap<>();
    for (Cell c : cells(q, before)) {
      old.put(c.column(), c);
    }
    List<CellChange> out = new ArrayList<>();
    for (Cell c : cells(q, after)) {
      Cell was = old.remove(c.column());
      if (was == null || !was.value().equals(c.value())) {
        out.add(CellChange.put(c));
      }
    }
    for (Cell.Column gone : old.keySet()) {
      out.add(new CellChange.Delete(gone));
    }
    return out;
  }

  /** The column of a queue's change stamp (what a conditional write of the row compares). */
  public static Cell.Column stampColumn(QueueKey q) {
    return new Cell.Column(queueRow(q), FAM_CFG, QUAL_STAMP);
  }

  // ---- the frontier's own row

  /**
   * The frontier-wide settings.
   *
   * @param active whether {@code GetURLs} hands out URLs
   * @param defaultDelaySeconds the delay of every queue without its own (null: the configured one)
   */
  public record ServiceState(boolean active, Integer defaultDelaySeconds) {
    public static final ServiceState DEFAULT = new ServiceState(true, null);
  }

  /** The cell of the active flag. */
  public static Cell activeCell(boolean active) {
    return new Cell(SERVICE_ROW, FAM_CFG, QUAL_ACTIVE, Boolean.toString(active));
  }

  /** The cell of the default delay. */
  public static Cell defaultDelayCell(int seconds) {
    if (seconds < 0) {
      throw new IllegalArgumentException("a negative delay " + seconds);
    }
    return new Cell(SERVICE_ROW, FAM_CFG, QUAL_DELAY, Integer.toString(seconds));
  }

  /** The frontier-wide settings from the cells of row {@link #SERVICE_ROW}. */
  public static ServiceState decodeService(List<Cell> row) {
    boolean active = true;
    Integer delay = null;
    for (Cell c : row) {
      if (!c.row().equals(SERVICE_ROW) || !c.family().equals(FAM_CFG)) {
        throw new IllegalArgumentException("not a cell of the frontier's own row: " + c);
      }
      switch (c.qualifier()) {
        case QUAL_ACTIVE -> {
          if (!c.value().equals("true") && !c.value().equals("false")) {
            throw new IllegalArgumentException("active is true or false: " + c.value());
          }
          active = Boolean.parseBoolean(c.value());
        }
        case QUAL_DELAY -> delay = Integer.parseInt(c.value());
        default -> throw new IllegalArgumentException("an unknown frontier setting: " + c);
      }
    }
    return new ServiceState(active, delay);
  }

  // ---- values

  /** {@code <until ms> <owner>}. */
  public static String encodeLease(Lease l) {
    return Long.toString(l.untilMillis()) + ' ' + l.owner();
  }

  public static Lease decodeLease(String v) {
    int sp = v.indexOf(' ');
    if (sp < 0) {
      throw new IllegalArgumentException("not <until ms> <owner>: " + v);
    }
    return new Lease(Long.parseLong(v.substring(0, sp)), v.substring(sp + 1));
  }

  /** {@code <state> <due ms> <basis ms | -> <metadata> <URL>}. */
  public static String encodeRecord(UrlRecord r) {
    return r.state().code()
        + ' '
        + r.dueMillis()
        + ' '
        + (r.basisMillis() == null ? NONE : Long.toString(r.basisMillis()))
        + ' '
        + encodeMetadata(r.metadata())
        + ' '
        + r.url();
  }

  public static UrlRecord decodeRecord(String v) {
    String[] f = v.split(" ", 5);
    if (f.length != 5) {
      throw new IllegalArgumentException(
          "not <state> <due ms> <basis ms | -> <metadata> <URL>: " + v);
    }
    return new UrlRecord(
        UrlRecord.State.ofCode(f[0]),
        Long.parseLong(f[1]),
        f[2].equals(NONE) ? null : Long.valueOf(f[2]),
        f[4],
        decodeMetadata(f[3]));
  }

  /** The metadata as a record writes it ({@code -}: none). */
  public static String encodeMetadata(Map<String, List<String>> metadata) {
    if (metadata.isEmpty()) {
      return NONE;
    }
    StringBuilder sb = new StringBuilder();
    boolean first = true;
    for (Map.Entry<String, List<String>> e : new TreeMap<>(metadata).entrySet()) {
      if (!first) {
        sb.append('&');
      }
      first = false;
      escape(e.getKey(), sb);
      List<String> values = e.getValue();
      for (int i = 0; i < values.size(); i++) {
        sb.append(i == 0 ? '=' : ',');
        escape(values.get(i), sb);
      }
    }
    return sb.length() == 0 ? ONLY_EMPTY_KEY : sb.toString();
  }

  /** Inverse of {@link #encodeMetadata}. */
  public static Map<String, List<String>> decodeMetadata(String s) {
    if (s.equals(NONE)) {
      return Map.of();
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty metadata is written " + NONE);
    }
    if (s.equals(ONLY_EMPTY_KEY)) {
      return Map.of("", List.of());
    }
    Map<String, List<String>> out = new TreeMap<>();
    for (String entry : s.split("&", -1)) {
      int eq = entry.indexOf('=');
      String key = unescape(eq < 0 ? entry : entry.substring(0, eq));
      List<String> values = new ArrayList<>();
      if (eq >= 0) {
        for (String v : entry.substring(eq + 1).split(",", -1)) {
          values.add(unescape(v));
        }
      }
      if (out.put(key, List.copyOf(values)) != null) {
        throw new IllegalArgumentException("metadata key " + key + " twice: " + s);
      }
    }
    return out;
  }

  private static boolean escaped(char c) {
    return c == '%' || c == ' ' || c == '&' || c == '=' || c == ',' || c == '-' || c < 0x20
        || c == 0x7f;
  }

  private static void escape(String s, StringBuilder sb) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (escaped(c)) {
        sb.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
      } else {
        sb.append(c);
      }
    }
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length()) {
          throw new IllegalArgumentException("a cut escape in metadata: " + s);
        }
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0 || !escaped((char) (hi * 16 + lo))) {
          throw new IllegalArgumentException("a bad escape in metadata: " + s);
        }
        out.append((char) (hi * 16 + lo));
        i += 2;
      } else if (escaped(c)) {
        throw new IllegalArgumentException("an unescaped '" + c + "' in metadata: " + s);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
