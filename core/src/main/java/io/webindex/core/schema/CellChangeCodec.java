package io.webindex.core.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The text form of a list of cell changes, the value the Fluo export queue carries from a
 * transaction to the exporter: one change per line, {@code P<TAB>row<TAB>family<TAB>qualifier<TAB>
 * value} or {@code D<TAB>row<TAB>family<TAB>qualifier}; backslash, tab, newline and carriage return
 * inside a field escaped as {@code \\ \t \n \r}.
 */
public final class CellChangeCodec {
  private CellChangeCodec() {}

  public static String encode(List<CellChange> changes) {
    StringBuilder sb = new StringBuilder(64 * changes.size());
    for (CellChange c : changes) {
      Cell.Column col = c.column();
      sb.append(c instanceof CellChange.Put ? 'P' : 'D');
      field(sb, col.row());
      field(sb, col.family());
      field(sb, col.qualifier());
      if (c instanceof CellChange.Put p) {
        field(sb, p.cell().value());
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  public static List<CellChange> decode(String s) {
    List<CellChange> out = new ArrayList<>();
    int start = 0;
    while (start < s.length()) {
      int end = s.indexOf('\n', start);
      if (end < 0) {
        end = s.length();
      }
      String[] f = s.substring(start, end).split("\t", -1);
      start = end + 1;
      if (f.length == 5 && f[0].equals("P")) {
        out.add(
            CellChange.put(
                new Cell(unescape(f[1]), unescape(f[2]), unescape(f[3]), unescape(f[4]))));
      } else if (f.length == 4 && f[0].equals("D")) {
        out.add(CellChange.delete(unescape(f[1]), unescape(f[2]), unescape(f[3])));
      } else {
        throw new IllegalArgumentException("not an encoded cell change: " + String.join("\t", f));
      }
    }
    return out;
  }

  /** Appends a tab and {@code v} with backslash, tab, newline and return escaped. */
  static void field(StringBuilder sb, String v) {
    sb.append('\t');
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '\t' -> sb.append("\\t");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        default -> sb.append(c);
      }
    }
  }

  /** The inverse of {@link #field}'s escaping. */
  static String unescape(String v) {
    if (v.indexOf('\\') < 0) {
      return v;
    }
    StringBuilder sb = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == '\\' && i + 1 < v.length()) {
        char n = v.charAt(++i);
        sb.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
