package io.webindex.core.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The text form of a list of history-table changes ({@link TimedCellChange}), carried by the Fluo
 * export queue next to the query-table changes of {@link CellChangeCodec}: one change per line,
 * {@code T<TAB>row<TAB>family<TAB>qualifier<TAB>timestamp<TAB>value} for a put of one version or
 * {@code X<TAB>row<TAB>family<TAB>qualifier<TAB>timestamp} for a delete at a timestamp; backslash,
 * tab, newline and carriage return inside a field escaped as {@code \\ \t \n \r}. The first letters
 * differ from {@link CellChangeCodec}'s ({@code P}, {@code D}), so the lines of both can share one
 * value ({@link #isTimedLine}).
 */
public final class TimedCellChangeCodec {
  private TimedCellChangeCodec() {}

  /** Whether a line of an encoded value is one of this codec's (not {@link CellChangeCodec}'s). */
  public static boolean isTimedLine(String line) {
    return line.startsWith("T\t") || line.startsWith("X\t");
  }

  public static String encode(List<TimedCellChange> changes) {
    StringBuilder sb = new StringBuilder(80 * changes.size());
    for (TimedCellChange c : changes) {
      Cell.Column col = c.column();
      sb.append(c instanceof TimedCellChange.Put ? 'T' : 'X');
      CellChangeCodec.field(sb, col.row());
      CellChangeCodec.field(sb, col.family());
      CellChangeCodec.field(sb, col.qualifier());
      sb.append('\t').append(c.timestamp());
      if (c instanceof TimedCellChange.Put p) {
        CellChangeCodec.field(sb, p.cell().value());
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  public static List<TimedCellChange> decode(String s) {
    List<TimedCellChange> out = new ArrayList<>();
    int start = 0;
    while (start < s.length()) {
      int end = s.indexOf('\n', start);
      if (end < 0) {
        end = s.length();
      }
      String line = s.substring(start, end);
      start = end + 1;
      String[] f = line.split("\t", -1);
      try {
        if (f.length == 6 && f[0].equals("T")) {
          out.add(
              new TimedCellChange.Put(
                  new TimedCell(
                      CellChangeCodec.unescape(f[1]),
                      CellChangeCodec.unescape(f[2]),
                      CellChangeCodec.unescape(f[3]),
                      Long.parseLong(f[4]),
                      CellChangeCodec.unescape(f[5]))));
          continue;
        }
        if (f.length == 5 && f[0].equals("X")) {
          out.add(
              new TimedCellChange.Delete(
                  new Cell.Column(
                      CellChangeCodec.unescape(f[1]),
                      CellChangeCodec.unescape(f[2]),
                      CellChangeCodec.unescape(f[3])),
                  Long.parseLong(f[4])));
          continue;
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not an encoded history change: " + line, e);
      }
      throw new IllegalArgumentException("not an encoded history change: " + line);
    }
    return out;
  }
}
