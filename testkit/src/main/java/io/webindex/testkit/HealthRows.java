package io.webindex.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads "health at a glance" as people see it — the home page's health panel and the lines of
 * {@code bin/webindex status} — with a parser of its own, and compares it with rows a test expects
 * (the state, the label, a pattern for the text).
 */
public final class HealthRows {
  /** How the rows show a time: {@code 2026-11-23 14:50:02 UTC}. */
  public static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  /** A pattern for the age after a time: {@code (45 s ago)}, {@code (2 min 5 s ago)}, … */
  public static final String AGO = " \\((\\d+ d )?(\\d+ h )?(\\d+ min )?\\d+ (s|min|h) ago\\)";

  private static final Pattern PANEL =
      Pattern.compile("<section class=\"health\"[^>]*>(.*?)</section>", Pattern.DOTALL);
  private static final Pattern ROW =
      Pattern.compile(
          "<tr(?: class=\"(\\w+)\")?><th scope=\"row\">([^<]*)</th><td>([^<]*)</td></tr>");
  private static final Pattern LINE = Pattern.compile("([A-Za-z -]+): +(.*)");

  private HealthRows() {}

  /**
   * One row: its state ({@code ok}, {@code warn}, {@code bad}, empty; null where the surface shows
   * none), its label and its text.
   */
  public record Row(String state, String label, String text) {
    @Override
    public String toString() {
      return (state == null ? "" : "[" + state + "] ") + label + " | " + text;
    }
  }

  /** An expected row: the text is a regular expression. */
  public static Row expect(String state, String label, String textPattern) {
    return new Row(state, label, textPattern);
  }

  /** A literal piece of an expected text. */
  public static String q(String literal) {
    return Pattern.quote(literal);
  }

  /** The rows of the home page's health panel, their text unescaped; none without a panel. */
  public static List<Row> panel(String html) {
    Matcher panel = PANEL.matcher(html);
    List<Row> out = new ArrayList<>();
    if (!panel.find()) {
      return out;
    }
    Matcher r = ROW.matcher(panel.group(1));
    while (r.find()) {
      out.add(
          new Row(
              r.group(1) == null ? "" : r.group(1), unescape(r.group(2)), unescape(r.group(3))));
    }
    return out;
  }

  /** The lines of {@code bin/webindex status}: {@code label:}, spaces, the text. */
  public static List<Row> statusLines(String out) {
    List<Row> rows = new ArrayList<>();
    for (String line : out.lines().toList()) {
      Matcher m = LINE.matcher(line);
      assertTrue(m.matches(), "not a status line: " + line);
      rows.add(new Row(null, m.group(1), m.group(2)));
    }
    return rows;
  }

  /**
   * {@code actual} has exactly the {@code expected} rows, in order: the same labels, texts that
   * match, and the same states where {@code actual} shows them.
   */
  public static void assertRows(List<Row> expected, List<Row> actual) {
    String shown = actual.toString();
    assertEquals(expected.size(), actual.size(), "rows: " + shown);
    for (int i = 0; i < expected.size(); i++) {
      Row e = expected.get(i);
      Row a = actual.get(i);
      assertEquals(e.label(), a.label(), "row " + i + " of " + shown);
      if (a.state() != null) {
        assertEquals(e.state(), a.state(), "state of '" + e.label() + "' in " + shown);
      }
      assertTrue(
          a.text().matches(e.text()),
          "'" + e.label() + "': '" + a.text() + "' does not match " + e.text() + " in " + shown);
    }
  }

  private static String unescape(String html) {
    return html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&");
  }
}
