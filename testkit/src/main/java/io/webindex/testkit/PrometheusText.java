package io.webindex.testkit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads samples out of the Prometheus text format 0.0.4 (what a {@code /metrics} endpoint answers),
 * independently of the code that writes it: {@code name{label="value",…} number}, one per line,
 * comments skipped; labels compared as a set, in any order.
 */
public final class PrometheusText {
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)(?: \\S+)?$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  private PrometheusText() {}

  /**
   * The value of sample {@code name} with exactly the labels {@code labels}, or 0 when the text has
   * none (a counter not counted yet).
   *
   * @throws AssertionError when two samples match (the text would be invalid)
   */
  public static double value(String text, String name, Map<String, String> labels) {
    Double found = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      if (!m.matches() || !m.group(1).equals(name)) {
        continue;
      }
      Map<String, String> l = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher lm = LABEL.matcher(m.group(2));
        while (lm.find()) {
          l.put(lm.group(1), lm.group(2));
        }
      }
      if (l.equals(labels)) {
        if (found != null) {
          throw new AssertionError("two samples " + name + labels + " in\n" + text);
        }
        found = Double.parseDouble(m.group(3));
      }
    }
    return found == null ? 0 : found;
  }

  /** Whether the text has a sample of {@code name} (any labels). */
  public static boolean has(String text, String name) {
    for (String line : text.split("\n")) {
      Matcher m = SAMPLE.matcher(line);
      if (!line.startsWith("#") && m.matches() && m.group(1).equals(name)) {
        return true;
      }
    }
    return false;
  }
}
