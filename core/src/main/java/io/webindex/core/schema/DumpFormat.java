package io.webindex.core.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The readable dump used by everything that prints a table: one cell per line, {@code
 * row<TAB>family:qualifier<TAB>value}, encoded counts decoded to decimal ({@code t:3:com.c}, {@code
 * rank:3:com.c}), an empty column printed as {@code :}. Lines appear in table order (the order of
 * the encoded keys), so the highest counts come first. Tabs, newlines and carriage returns inside a
 * field (never produced by the index itself) are written as {@code \t}, {@code \n}, {@code \r}, and
 * a backslash that would read as one of those escapes (one followed by {@code t}, {@code n}, {@code
 * r}, a backslash, or one of those three characters) as {@code \\}; other backslashes are printed
 * as they are. So every line has exactly three fields and {@link #parse} inverts {@link #line} for
 * every cell, whatever text its anchor or page JSON holds.
 *
 * <p>A cell of the history table ({@link TimedCell}) prints its timestamp as a third field, {@code
 * row<TAB>family:qualifier<TAB>@<timestamp><TAB>value}: for {@code crawl:} and {@code urc:} cells,
 * whose timestamp is an instant (the crawl, the run), as ISO-8601 with milliseconds
 * ({@code @2015-04-18T03:35:13.000Z}); for others as the decimal timestamp ({@code @0}). {@link
 * #parseTimed} inverts {@link #line(TimedCell)}.
 */
public final class DumpFormat {
  private DumpFormat() {}

  /** One dump line (without the line terminator) for a query-table cell. */
  public static String line(Cell c) {
    return line(c.row(), c.family(), c.qualifier(), c.value());
  }

  public static String line(String row, String family, String qualifier, String value) {
    StringBuilder sb = new StringBuilder(row.length() + qualifier.length() + value.length() + 16);
    sb.append(escape(readableRow(row))).append('\t');
    sb.append(escape(family)).append(':').append(escape(readableQualifier(family, qualifier)));
    sb.append('\t').append(escape(value));
    return sb.toString();
  }

  /** One dump line for a history-table cell: its timestamp is the third field. */
  public static String line(TimedCell c) {
    StringBuilder sb = new StringBuilder(c.row().length() + c.value().length() + 48);
    sb.append(escape(c.row())).append('\t');
    sb.append(escape(c.family())).append(':').append(escape(c.qualifier())).append('\t');
    sb.append('@').append(readableTimestamp(c.family(), c.timestamp())).append('\t');
    sb.append(escape(c.value()));
    return sb.toString();
  }

  /** The timestamp of a history cell as its dump line prints it (without the {@code @}). */
  public static String readableTimestamp(String family, long timestamp) {
    return family.equals(HistorySchema.FAM_CRAWL) || family.equals(HistorySchema.FAM_URC)
        ? HistorySchema.iso(timestamp)
        : Long.toString(timestamp);
  }

  /** Parses a history dump line (inverse of {@link #line(TimedCell)}). */
  public static TimedCell parseTimed(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != 4 || !f[2].startsWith("@")) {
      throw new IllegalArgumentException(
          "a history dump line has four tab-separated fields, the third @<timestamp>: " + line);
    }
    int colon = f[1].indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("column without ':' in dump line: " + line);
    }
    String ts = f[2].substring(1);
    long timestamp;
    try {
      timestamp =
          !ts.isEmpty()
                  && (Character.isDigit(ts.charAt(0)) || ts.charAt(0) == '-')
                  && ts.indexOf('T') < 0
              ? Long.parseLong(ts)
              : HistorySchema.parseIso(ts);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad timestamp in dump line: " + line, e);
    }
    return new TimedCell(
        unescape(f[0]),
        unescape(f[1].substring(0, colon)),
        unescape(f[1].substring(colon + 1)),
        timestamp,
        unescape(f[3]));
  }

  /** Parses a dump line back into a cell with encoded counts (inverse of {@link #line(Cell)}). */
  public static Cell parse(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != 3) {
      throw new IllegalArgumentException("a dump line has three tab-separated fields: " + line);
    }
    String row = unescape(f[0]);
    int colon = f[1].indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("column without ':' in dump line: " + line);
    }
    String family = unescape(f[1].substring(0, colon));
    String qualifier = unescape(f[1].substring(colon + 1));
    if (row.startsWith(QuerySchema.TOTAL_PREFIX)) {
      row =
          QuerySchema.TOTAL_PREFIX
              + encodeReadable(row.substring(QuerySchema.TOTAL_PREFIX.length()));
    }
    if (family.equals(QuerySchema.FAM_RANK)) {
      qualifier = encodeReadable(qualifier);
    }
    return new Cell(row, family, qualifier, unescape(f[2]));
  }

  /** Dump lines for cells already in table order. */
  public static List<String> lines(Iterable<Cell> cells) {
    List<String> out = new ArrayList<>();
    for (Cell c : cells) {
      out.add(line(c));
    }
    return out;
  }

  /**
   * A row as the dump prints it ({@code t:} counts decoded), not escaped; any other row as it is.
   */
  public static String readableRow(String row) {
    if (row.startsWith(QuerySchema.TOTAL_PREFIX)) {
      return QuerySchema.TOTAL_PREFIX
          + decodeIfPossible(row.substring(QuerySchema.TOTAL_PREFIX.length()));
    }
    return row;
  }

  /**
   * A {@code family:qualifier} column as the dump prints it ({@code rank:} counts decoded), not
   * escaped; a column without {@code ':'} as it is.
   */
  public static String readableColumn(String column) {
    int colon = column.indexOf(':');
    if (colon < 0) {
      return column;
    }
    String family = column.substring(0, colon);
    return family + ':' + readableQualifier(family, column.substring(colon + 1));
  }

  private static String readableQualifier(String family, String qualifier) {
    return family.equals(QuerySchema.FAM_RANK) ? decodeIfPossible(qualifier) : qualifier;
  }

  /** Decodes {@code <enc>:<uri>}; a malformed one (a corrupted table) is printed as it is. */
  private static String decodeIfPossible(String ranked) {
    try {
      QuerySchema.RankedUri r = QuerySchema.parseRankedUri(ranked);
      return r.urc() + ":" + r.uri();
    } catch (IllegalArgumentException e) {
      return ranked;
    }
  }

  private static String encodeReadable(String readable) {
    int colon = readable.indexOf(':');
    if (colon > 0 && readable.substring(0, colon).chars().allMatch(Character::isDigit)) {
      try {
        return QuerySchema.rankedUri(
            Long.parseLong(readable.substring(0, colon)), readable.substring(colon + 1));
      } catch (NumberFormatException e) {
        return readable;
      }
    }
    return readable;
  }

  /** A field as a dump line writes it: tabs, newlines and carriage returns escaped. */
  public static String escape(String s) {
    int n = s.length();
    int i = 0;
    while (i < n && !needsEscape(s, i)) {
      i++;
    }
    if (i == n) {
      return s;
    }
    StringBuilder sb = new StringBuilder(n + 8).append(s, 0, i);
    for (; i < n; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\t' -> sb.append("\\t");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\\' -> sb.append(needsEscape(s, i) ? "\\\\" : "\\");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * A tab, newline or carriage return; or a backslash that would otherwise read as the start of an
   * escape: one followed by {@code t n r \} or by a char that is itself escaped. Any other
   * backslash (JSON's {@code \"}, say) is printed as it is, so dumps stay readable.
   */
  private static boolean needsEscape(String s, int i) {
    char c = s.charAt(i);
    if (c == '\t' || c == '\n' || c == '\r') {
      return true;
    }
    if (c != '\\' || i + 1 >= s.length()) {
      return false;
    }
    return "tnr\\\t\n\r".indexOf(s.charAt(i + 1)) >= 0;
  }

  static String unescape(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      char next = i + 1 < s.length() ? s.charAt(i + 1) : 0;
      if (c == '\\' && "tnr\\".indexOf(next) >= 0 && next != 0) {
        sb.append(next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : '\\');
        i++;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
