package io.webindex.core.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The readable dump used by everything that prints a table: one cell per line, {@code
 * row<TAB>family:qualifier<TAB>value}, encoded counts decoded to decimal ({@code t:3:com.c}, {@code
 * rank:3:com.c}), an empty column printed as {@code :}. Lines appear in table order (the order of
 * the encoded keys), so the highest counts come first. Tabs, newlines and carriage returns inside a
 * field (never produced by the index itself) are written as {@code \t}, {@code \n}, {@code \r}.
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

  private static String readableRow(String row) {
    if (row.startsWith(QuerySchema.TOTAL_PREFIX)) {
      return QuerySchema.TOTAL_PREFIX
          + decodeIfPossible(row.substring(QuerySchema.TOTAL_PREFIX.length()));
    }
    return row;
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

  static String escape(String s) {
    if (s.indexOf('\t') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return s.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }

  static String unescape(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    return s.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r");
  }
}
