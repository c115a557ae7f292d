package io.webindex.core.url;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cases of the WHATWG URL Standard's test data ({@code wpt/urltestdata.json}) that concern web
 * links, and what webindex must keep for each: the browser's result with the normalisations of
 * docs/semantics.md applied on top. The expectation is written here from that page, independently
 * of {@link WebUrl}.
 */
public final class WptUrlCases {
  private WptUrlCases() {}

  /**
   * One case: {@code expected} is the normalised URL we must keep, or null when the link must be
   * dropped (the standard's parser fails, the result is not http(s), or our host/length rules
   * refuse it).
   */
  public record Case(int index, String input, String base, String expected, String why) {
    @Override
    public String toString() {
      return "#" + index + " " + Json.quote(input) + " against " + base;
    }
  }

  /** The cases whose base is http(s), and those without a base whose input is absolute http(s). */
  public static List<Case> cases() {
    JsonNode all;
    try {
      all = new ObjectMapper().readTree(TestData.resource("/wpt/urltestdata.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Case> out = new ArrayList<>();
    int index = -1;
    for (JsonNode c : all) {
      index++;
      if (!c.isObject()) {
        continue; // a comment line
      }
      String input = c.get("input").asText();
      JsonNode b = c.get("base");
      String base = b == null || b.isNull() ? null : b.asText();
      if (base != null ? !isHttp(base) : !isHttp(preprocess(input))) {
        continue;
      }
      if (c.path("failure").asBoolean(false)) {
        out.add(new Case(index, input, base, null, "the standard's parser fails"));
        continue;
      }
      String protocol = c.get("protocol").asText();
      if (!protocol.equals("http:") && !protocol.equals("https:")) {
        out.add(
            new Case(index, input, base, null, "the result is " + protocol + ", not a web link"));
        continue;
      }
      out.add(expectation(index, input, base, c));
    }
    return out;
  }

  /** docs/semantics.md's normalisations on top of the browser's parts. */
  private static Case expectation(int index, String input, String base, JsonNode c) {
    String scheme = c.get("protocol").asText().replace(":", "");
    String host = c.get("hostname").asText();
    if (!host.startsWith("[")) {
      // trailing dots dropped; a name must be labels of letters, digits, '-' and '_', each 1-63
      // chars, 253 in all
      while (host.endsWith(".")) {
        host = host.substring(0, host.length() - 1);
      }
      if (!host.matches("[a-z0-9_-]{1,63}(\\.[a-z0-9_-]{1,63})*") || host.length() > 253) {
        return new Case(index, input, base, null, "host " + host + " is not a DNS-like name");
      }
      if (!host.equals(c.get("hostname").asText())
          && host.matches("(.*\\.)?([0-9]+|0[xX][0-9a-fA-F]*)")) {
        return new Case(index, input, base, null, "a name with trailing dots ending in a number");
      }
    }
    StringBuilder href = new StringBuilder(scheme).append("://").append(host);
    String port = c.get("port").asText();
    if (!port.isEmpty()) {
      href.append(':').append(port); // the standard already drops the default port
    }
    String path = c.get("pathname").asText();
    href.append(canonical(path.isEmpty() ? "/" : path, false));
    String search = c.get("search").asText();
    if (search.length() > 1) {
      href.append('?').append(canonical(search.substring(1), true));
    }
    // user info and fragment are not kept
    if (href.length() > 2048) {
      return new Case(index, input, base, null, "longer than 2048 chars");
    }
    return new Case(index, input, base, href.toString(), "the browser's href, normalised");
  }

  /**
   * Canonical percent-encoding: escapes of unreserved characters (letters, digits, {@code -._~})
   * decoded, other escapes in upper-case hex, every byte other than those and {@code
   * !$&'()*+,;=:@/} (and {@code ?} in a query) encoded.
   */
  static String canonical(String s, boolean query) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder();
    String kept = "!$&'()*+,;=:@/" + (query ? "?" : "");
    for (int i = 0; i < b.length; i++) {
      int v = b[i] & 0xff;
      if (v == '%' && i + 2 < b.length && isHex(b[i + 1]) && isHex(b[i + 2])) {
        int d = Integer.parseInt(new String(b, i + 1, 2, StandardCharsets.US_ASCII), 16);
        if (unreserved(d)) {
          sb.append((char) d);
        } else {
          sb.append('%').append(String.format(Locale.ROOT, "%02X", d));
        }
        i += 2;
      } else if (unreserved(v) || (v < 0x80 && kept.indexOf(v) >= 0)) {
        sb.append((char) v);
      } else {
        sb.append('%').append(String.format(Locale.ROOT, "%02X", v));
      }
    }
    return sb.toString();
  }

  private static boolean isHex(byte c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean unreserved(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }

  private static boolean isHttp(String s) {
    String l = s.toLowerCase(Locale.ROOT);
    return l.startsWith("http:") || l.startsWith("https:");
  }

  /** The standard's input clean-up: C0 controls and spaces trimmed, tabs and newlines removed. */
  private static String preprocess(String s) {
    int a = 0;
    int z = s.length();
    while (a < z && s.charAt(a) <= ' ') {
      a++;
    }
    while (z > a && s.charAt(z - 1) <= ' ') {
      z--;
    }
    return s.substring(a, z).replaceAll("[\t\n\r]", "");
  }

  /** JSON string quoting for messages (so control characters show). */
  static final class Json {
    private Json() {}

    static String quote(String s) {
      try {
        return new ObjectMapper().writeValueAsString(s);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
