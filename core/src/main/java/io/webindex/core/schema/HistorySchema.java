package io.webindex.core.schema;

import io.webindex.core.history.Crawl;
import io.webindex.core.history.CrawlStatus;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.Schedule;
import io.webindex.core.model.PageVersion;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one codec for the history table (docs/tables.md) and for the Fluo application's full crawl
 * histories: every row, column and value of them is built and parsed here and nowhere else.
 *
 * <p>Each query table {@code <t>} has a history table {@code <t>_history} ({@link #historyTable})
 * whose versioning iterator keeps {@code webindex.history.versions} versions of every cell. Its
 * rows are URI keys (reversed host first, so a domain's URIs sort together), with three columns,
 * all with an empty qualifier:
 *
 * <pre>
 * &lt;uri&gt;  crawl:  ts = crawl time (ms)         &lt;status&gt; &lt;signature or -&gt; &lt;outlinks&gt;   one version per crawl
 * &lt;uri&gt;  sched:  ts = 0 (recompute) or export  first=&lt;iso&gt; last=&lt;iso&gt; crawls=&lt;n&gt; changes=&lt;n&gt;
 *                                              interval=&lt;s&gt; next=&lt;iso&gt; modified=&lt;iso&gt;
 * &lt;uri&gt;  urc:    ts = a batch run's start (ms)  &lt;urc&gt;                                 one version per run
 * </pre>
 *
 * <p>Instants in values are ISO-8601 in UTC with exactly three fraction digits ({@code
 * 2015-04-18T03:35:13.000Z}).
 *
 * <p>The Fluo application keeps a URI's <em>full</em> history (not only the newest versions: the
 * schedule needs all of them) in row {@code h:<uri>}, column {@code hist:all} ({@link
 * FluoSchema#histRow}): one line per crawl, oldest first, joined by {@code \n}:
 *
 * <pre>
 * &lt;crawl ms&gt; &lt;ns within the ms&gt; &lt;status&gt; &lt;signature or -&gt; &lt;outlinks&gt; &lt;batch&gt; &lt;offset&gt; &lt;file&gt;
 * </pre>
 *
 * where the ms, the ns, batch, offset and file name the winning page version of that millisecond
 * (its crawl instant is the ms plus the ns); the file name is the rest of the line, with {@code \},
 * newline and carriage return written {@code \\}, {@code \n}, {@code \r}.
 */
public final class HistorySchema {
  /** The suffix of a query table's history table. */
  public static final String TABLE_SUFFIX = "_history";

  public static final String FAM_CRAWL = "crawl";
  public static final String FAM_SCHED = "sched";
  public static final String FAM_URC = "urc";
  public static final String EMPTY = "";

  /** The timestamp of the {@code sched:} cell a batch recompute writes. */
  public static final long SCHED_BATCH_TIMESTAMP = 0L;

  /** The default number of versions the history table keeps ({@code webindex.history.versions}). */
  public static final int DEFAULT_VERSIONS = 16;

  /** The written form of the empty signature (a deletion). */
  public static final String NO_SIGNATURE = "-";

  private static final DateTimeFormatter ISO_MS =
      new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

  private static final List<String> SCHED_FIELDS =
      List.of("first", "last", "crawls", "changes", "interval", "next", "modified");

  private HistorySchema() {}

  /** The history table of a query table. */
  public static String historyTable(String queryTable) {
    return queryTable + TABLE_SUFFIX;
  }

  /** The history table's row of a URI. */
  public static String row(String uriKey) {
    if (uriKey.isEmpty()) {
      throw new IllegalArgumentException("an empty URI key");
    }
    return uriKey;
  }

  // ---- cells

  /** The {@code crawl:} version of one crawl. */
  public static TimedCell crawlCell(String uriKey, Crawl crawl) {
    return new TimedCell(row(uriKey), FAM_CRAWL, EMPTY, crawl.crawledMillis(), encodeCrawl(crawl));
  }

  /** The {@code sched:} cell of a schedule, at {@code timestamp}. */
  public static TimedCell scheduleCell(String uriKey, Schedule s, long timestamp) {
    return new TimedCell(row(uriKey), FAM_SCHED, EMPTY, timestamp, encodeSchedule(s));
  }

  /** The {@code urc:} point of a batch run started at {@code runStartedMillis}. */
  public static TimedCell urcCell(String uriKey, long runStartedMillis, long urc) {
    return new TimedCell(row(uriKey), FAM_URC, EMPTY, runStartedMillis, encodeUrc(urc));
  }

  // ---- values

  /**
   * {@code <status> <signature or -> <outlinks>}, e.g. {@code ok sha1:F6TC… 12}, {@code gone - 0}.
   */
  public static String encodeCrawl(Crawl c) {
    return c.status().code() + ' ' + signatureField(c.signature()) + ' ' + c.outlinks();
  }

  /** The crawl of a {@code crawl:} version at timestamp {@code ts} (inverse of encodeCrawl). */
  public static Crawl decodeCrawl(long ts, String value) {
    String[] f = value.split(" ", -1);
    if (f.length != 3) {
      throw new IllegalArgumentException("not <status> <signature> <outlinks>: " + value);
    }
    try {
      return new Crawl(ts, CrawlStatus.ofCode(f[0]), signatureOf(f[1]), Integer.parseInt(f[2]));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad crawl value '" + value + "': " + e.getMessage(), e);
    }
  }

  public static String encodeSchedule(Schedule s) {
    return "first="
        + iso(s.firstCrawlMillis())
        + " last="
        + iso(s.lastCrawlMillis())
        + " crawls="
        + s.crawls()
        + " changes="
        + s.changes()
        + " interval="
        + s.intervalSeconds()
        + " next="
        + iso(s.nextFetchMillis())
        + " modified="
        + iso(s.lastModifiedMillis());
  }

  /** {@code name=} of each field of a schedule, in its order. */
  private static final String[] SCHED_PREFIXES =
      SCHED_FIELDS.stream().map(f -> f + "=").toArray(String[]::new);

  /**
   * The schedule of a {@code sched:} value (inverse of encodeSchedule): its seven space-separated
   * {@code name=value} fields, read in place (the check reads one per URI).
   */
  public static Schedule decodeSchedule(String value) {
    int spaces = 0;
    for (int i = value.indexOf(' '); i >= 0; i = value.indexOf(' ', i + 1)) {
      spaces++;
    }
    if (spaces != SCHED_PREFIXES.length - 1) {
      throw new IllegalArgumentException("not a schedule: " + value);
    }
    String[] v = new String[SCHED_PREFIXES.length];
    int start = 0;
    for (int i = 0; i < v.length; i++) {
      int end = i == v.length - 1 ? value.length() : value.indexOf(' ', start);
      String prefix = SCHED_PREFIXES[i];
      if (!value.startsWith(prefix, start)) { // a prefix has no space: then it is in the field
        throw new IllegalArgumentException(
            "schedule field " + (i + 1) + " is not " + prefix + ": " + value);
      }
      v[i] = value.substring(start + prefix.length(), end);
      start = end + 1;
    }
    try {
      return new Schedule(
          parseIso(v[0]),
          parseIso(v[1]),
          Integer.parseInt(v[2]),
          Integer.parseInt(v[3]),
          Long.parseLong(v[4]),
          parseIso(v[5]),
          parseIso(v[6]));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad schedule '" + value + "': " + e.getMessage(), e);
    }
  }

  public static String encodeUrc(long urc) {
    if (urc < 0) {
      throw new IllegalArgumentException("negative urc " + urc);
    }
    return Long.toString(urc);
  }

  public static long decodeUrc(String value) {
    long urc;
    try {
      urc = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a urc: " + value, e);
    }
    if (urc < 0 || !value.equals(Long.toString(urc))) {
      throw new IllegalArgumentException("not a urc: " + value);
    }
    return urc;
  }

  /** An instant in milliseconds as the history values write it. */
  public static String iso(long millis) {
    return ISO_MS.format(Instant.ofEpochMilli(millis));
  }

  /**
   * The milliseconds of an instant written by {@link #iso}; any other ISO-8601 instant {@link
   * Instant#parse} reads is read as it reads it.
   */
  public static long parseIso(String s) {
    long ms = parseIsoMillis(s);
    if (ms != Long.MIN_VALUE) {
      return ms;
    }
    try {
      return Instant.parse(s).toEpochMilli();
    } catch (DateTimeException | ArithmeticException e) {
      throw new IllegalArgumentException("not an ISO-8601 instant: " + s, e);
    }
  }

  /**
   * {@link #iso}'s own form, {@code yyyy-MM-ddTHH:mm:ss.SSSZ} with a valid date and a time of day
   * within 00:00:00–23:59:59, read without {@link Instant#parse}'s general parser (which the check
   * spent a fifth of its history comparison in); {@code Long.MIN_VALUE} for anything else, which
   * {@link #parseIso} leaves to {@link Instant#parse} (24:00, a leap second, other precisions).
   */
  private static long parseIsoMillis(String s) {
    if (s.length() != 24
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || s.charAt(10) != 'T'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':'
        || s.charAt(19) != '.'
        || s.charAt(23) != 'Z') {
      return Long.MIN_VALUE;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 2);
    int day = digits(s, 8, 2);
    int hour = digits(s, 11, 2);
    int minute = digits(s, 14, 2);
    int second = digits(s, 17, 2);
    int milli = digits(s, 20, 3);
    if ((year | month | day | hour | minute | second | milli) < 0
        || month < 1
        || month > 12
        || day < 1
        || day > java.time.YearMonth.of(year, month).lengthOfMonth()
        || hour > 23
        || minute > 59
        || second > 59) {
      return Long.MIN_VALUE;
    }
    long days = java.time.LocalDate.of(year, month, day).toEpochDay();
    return ((days * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + milli;
  }

  /** The number the {@code n} ASCII digits at {@code from} write, or -1. */
  private static int digits(String s, int from, int n) {
    int v = 0;
    for (int i = from; i < from + n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static String signatureField(String signature) {
    return signature.isEmpty() ? NO_SIGNATURE : signature;
  }

  private static String signatureOf(String field) {
    return field.equals(NO_SIGNATURE) ? "" : field;
  }

  // ---- the Fluo application's full history (hist:all)

  public static String encodeFullHistory(List<HistoryEntry> history) {
    StringBuilder sb = new StringBuilder(history.size() * 80);
    long prev = Long.MIN_VALUE;
    for (HistoryEntry e : history) {
      Crawl c = e.crawl();
      if (sb.length() > 0 && c.crawledMillis() <= prev) {
        throw new IllegalArgumentException("history out of order at " + c.crawledMillis());
      }
      prev = c.crawledMillis();
      if (sb.length() > 0) {
        sb.append('\n');
      }
      PageVersion v = e.version();
      sb.append(c.crawledMillis())
          .append(' ')
          .append(v.crawled().getNano() % 1_000_000)
          .append(' ')
          .append(encodeCrawl(c))
          .append(' ')
          .append(v.batch())
          .append(' ')
          .append(v.offset())
          .append(' ')
          .append(escapeFile(v.file()));
    }
    return sb.toString();
  }

  public static List<HistoryEntry> decodeFullHistory(String value) {
    List<HistoryEntry> out = new ArrayList<>();
    if (value.isEmpty()) {
      return out;
    }
    long prev = Long.MIN_VALUE;
    for (String line : value.split("\n", -1)) {
      String[] f = line.split(" ", 8);
      if (f.length != 8) {
        throw new IllegalArgumentException("not a history line of eight fields: " + line);
      }
      try {
        long ms = Long.parseLong(f[0]);
        int ns = Integer.parseInt(f[1]);
        if (ns < 0 || ns >= 1_000_000) {
          throw new IllegalArgumentException("ns within a ms out of range: " + ns);
        }
        Crawl c = decodeCrawl(ms, f[2] + ' ' + f[3] + ' ' + f[4]);
        Instant crawled = Instant.ofEpochMilli(ms).plusNanos(ns);
        PageVersion v =
            new PageVersion(
                crawled, Long.parseLong(f[5]), unescapeFile(f[7]), Long.parseLong(f[6]));
        if (!out.isEmpty() && ms <= prev) {
          throw new IllegalArgumentException("history out of order at " + ms);
        }
        prev = ms;
        out.add(new HistoryEntry(c, v));
      } catch (IllegalArgumentException | DateTimeException | ArithmeticException e) {
        throw new IllegalArgumentException("bad history line '" + line + "': " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static final Map<Character, String> FILE_ESCAPES =
      Map.of('\\', "\\\\", '\n', "\\n", '\r', "\\r");

  private static String escapeFile(String file) {
    StringBuilder sb = new StringBuilder(file.length());
    for (int i = 0; i < file.length(); i++) {
      char c = file.charAt(i);
      String e = FILE_ESCAPES.get(c);
      if (e == null) {
        sb.append(c);
      } else {
        sb.append(e);
      }
    }
    return sb.toString();
  }

  private static String unescapeFile(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (i + 1 >= s.length()) {
        throw new IllegalArgumentException("a file name ends in a lone backslash");
      }
      char n = s.charAt(++i);
      switch (n) {
        case '\\' -> sb.append('\\');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        default -> throw new IllegalArgumentException("unknown escape \\" + n + " in a file name");
      }
    }
    return sb.toString();
  }
}
