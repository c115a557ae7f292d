package io.webindex.check.mr;

import io.webindex.check.engine.Finding;
import io.webindex.check.engine.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * One finding per line, tab-separated ({@code kind table range row column expected actual detail}),
 * with backslash, tab and newline escaped: how map tasks hand their samples to the driver.
 */
public final class FindingLines {
  private FindingLines() {}

  public static String toLine(Finding f) {
    return String.join(
        "\t",
        f.kind().name(),
        esc(f.table()),
        esc(f.range()),
        esc(f.row()),
        esc(f.column()),
        esc(f.expected()),
        esc(f.actual()),
        esc(f.detail()));
  }

  public static Finding fromLine(String line) {
    String[] p = line.split("\t", -1);
    if (p.length != 8) {
      throw new IllegalArgumentException("not a finding line: " + line);
    }
    return new Finding(
        Kind.valueOf(p[0]),
        unesc(p[1]),
        unesc(p[2]),
        unesc(p[3]),
        unesc(p[4]),
        unesc(p[5]),
        unesc(p[6]),
        unesc(p[7]));
  }

  /** Several findings, one per line. */
  public static List<Finding> fromLines(String text) {
    List<Finding> out = new ArrayList<>();
    text.lines().filter(l -> !l.isEmpty()).forEach(l -> out.add(fromLine(l)));
    return out;
  }

  private static String esc(String s) {
    if (s == null) {
      return "";
    }
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }

  private static String unesc(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        sb.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
