package io.webindex.testkit.oracle;

import java.net.IDN;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The oracle's own URL normalisation and URI key (docs/semantics.md), written from the rules and
 * not from {@code io.webindex.core.url}: plain string handling, {@link InetAddress} only to read an
 * IPv6 literal. It covers what the tests feed it (http/https, ports, IPv4/IPv6 hosts, relative
 * links, dot segments, fragments, user info, percent escapes); anything else is invalid here.
 *
 * @param https true for https
 * @param host lower-case ASCII host; IPv6 in brackets
 * @param port explicit non-default port, or -1
 * @param path never empty, starts with {@code /}
 * @param query the query without {@code ?}, or null (an empty query is dropped)
 */
record OracleUrl(boolean https, String host, int port, String path, String query) {

  /** Thrown for a URL the rules reject. */
  static final class Invalid extends Exception {
    Invalid(String why) {
      super(why);
    }
  }

  /**
   * Parses {@code raw}; a reference starting with {@code /}, {@code .}, {@code ?} or {@code #} is
   * resolved against {@code base} (null: there is no base and such a reference is invalid).
   * Anything else without a scheme means {@code http://}.
   */
  static OracleUrl parse(String raw, OracleUrl base) throws Invalid {
    if (raw == null) {
      throw new Invalid("no url");
    }
    String s = raw.strip();
    if (s.isEmpty()) {
      throw new Invalid("empty");
    }
    char first = s.charAt(0);
    if (first == '/' && s.startsWith("//")) {
      if (base == null) {
        throw new Invalid("relative without a base");
      }
      return parseAbsolute((base.https ? "https:" : "http:") + s);
    }
    if (first == '/' || first == '.' || first == '?' || first == '#') {
      if (base == null) {
        throw new Invalid("relative without a base");
      }
      return resolve(base, s);
    }
    if (!hasScheme(s)) {
      s = "http://" + s;
    }
    return parseAbsolute(s);
  }

  private static boolean hasScheme(String s) {
    int colon = s.indexOf(':');
    if (colon <= 0) {
      return false;
    }
    for (int i = 0; i < colon; i++) {
      char c = s.charAt(i);
      boolean ok =
          Character.isLetter(c) && c < 128
              || i > 0 && (Character.isDigit(c) || c == '+' || c == '-' || c == '.');
      if (!ok) {
        return false;
      }
    }
    // "a.com:8080/x" is a host with a port, not a scheme "a.com"
    String after = s.substring(colon + 1);
    if (!after.startsWith("//") && !after.isEmpty() && Character.isDigit(after.charAt(0))) {
      return false;
    }
    return true;
  }

  private static OracleUrl resolve(OracleUrl base, String ref) throws Invalid {
    int hash = ref.indexOf('#');
    if (hash >= 0) {
      ref = ref.substring(0, hash);
    }
    if (ref.isEmpty()) {
      return base;
    }
    String refPath = ref;
    String refQuery = null;
    int q = ref.indexOf('?');
    if (q >= 0) {
      refPath = ref.substring(0, q);
      refQuery = ref.substring(q + 1);
    }
    String path;
    String query;
    if (refPath.isEmpty()) {
      path = base.path;
      query = refQuery;
    } else if (refPath.startsWith("/")) {
      path = refPath;
      query = refQuery;
    } else {
      path = base.path.substring(0, base.path.lastIndexOf('/') + 1) + refPath;
      query = refQuery;
    }
    return new OracleUrl(base.https, base.host, base.port, cleanPath(path), cleanQuery(query));
  }

  private static OracleUrl parseAbsolute(String s) throws Invalid {
    int colon = s.indexOf(':');
    String scheme = s.substring(0, colon).toLowerCase(Locale.ROOT);
    boolean https;
    if (scheme.equals("http")) {
      https = false;
    } else if (scheme.equals("https")) {
      https = true;
    } else {
      throw new Invalid("scheme " + scheme);
    }
    String rest = s.substring(colon + 1);
    if (!rest.startsWith("//")) {
      throw new Invalid("no authority");
    }
    rest = rest.substring(2);
    int hash = rest.indexOf('#');
    if (hash >= 0) {
      rest = rest.substring(0, hash);
    }
    int end = rest.length();
    for (int i = 0; i < rest.length(); i++) {
      char c = rest.charAt(i);
      if (c == '/' || c == '?') {
        end = i;
        break;
      }
    }
    String authority = rest.substring(0, end);
    String tail = rest.substring(end);
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      authority = authority.substring(at + 1);
    }
    String hostText;
    String portText = null;
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      if (close < 0) {
        throw new Invalid("unclosed IPv6");
      }
      hostText = authority.substring(0, close + 1);
      String after = authority.substring(close + 1);
      if (after.startsWith(":")) {
        portText = after.substring(1);
      } else if (!after.isEmpty()) {
        throw new Invalid("bad authority");
      }
    } else {
      int pc = authority.lastIndexOf(':');
      if (pc >= 0) {
        hostText = authority.substring(0, pc);
        portText = authority.substring(pc + 1);
      } else {
        hostText = authority;
      }
    }
    String host = host(hostText);
    int port = -1;
    if (portText != null && !portText.isEmpty()) {
      if (!portText.chars().allMatch(c -> c >= '0' && c <= '9') || portText.length() > 5) {
        throw new Invalid("bad port");
      }
      port = Integer.parseInt(portText);
      if (port == 0 || port > 65535) {
        throw new Invalid("bad port");
      }
      if (port == (https ? 443 : 80)) {
        port = -1;
      }
    }
    String path = tail;
    String query = null;
    int q = tail.indexOf('?');
    if (q >= 0) {
      path = tail.substring(0, q);
      query = tail.substring(q + 1);
    }
    return new OracleUrl(https, host, port, cleanPath(path), cleanQuery(query));
  }

  private static String host(String text) throws Invalid {
    if (text.startsWith("[")) {
      try {
        byte[] b = InetAddress.getByName(text).getAddress();
        if (b.length != 16) {
          throw new Invalid("not IPv6");
        }
        return "[" + ipv6(b) + "]";
      } catch (UnknownHostException e) {
        throw new Invalid("bad IPv6");
      }
    }
    String h = text.toLowerCase(Locale.ROOT);
    if (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    if (h.isEmpty()) {
      throw new Invalid("no host");
    }
    String[] parts = h.split("\\.", -1);
    if (parts.length == 4 && allDigits(parts)) {
      StringBuilder sb = new StringBuilder();
      for (String p : parts) {
        int v = Integer.parseInt(p);
        if (v > 255) {
          throw new Invalid("bad IPv4");
        }
        sb.append(sb.length() == 0 ? "" : ".").append(v);
      }
      return sb.toString();
    }
    try {
      h = IDN.toASCII(h).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new Invalid("bad host");
    }
    for (String label : h.split("\\.", -1)) {
      if (label.isEmpty() || label.startsWith("-") || label.endsWith("-")) {
        throw new Invalid("bad label");
      }
      for (char c : label.toCharArray()) {
        if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
          throw new Invalid("bad host character");
        }
      }
    }
    return h;
  }

  private static boolean allDigits(String[] parts) {
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }

  /** RFC 5952: lower-case hex, no leading zeros, the longest run (≥ 2) of zero groups as "::". */
  private static String ipv6(byte[] b) {
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 1;
    for (int i = 0; i < 8; ) {
      if (g[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLen - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }

  private static String cleanPath(String path) throws Invalid {
    if (path.isEmpty()) {
      return "/";
    }
    Deque<String> out = new ArrayDeque<>();
    String[] segs = path.substring(1).split("/", -1);
    for (int i = 0; i < segs.length; i++) {
      String seg = segs[i];
      boolean last = i == segs.length - 1;
      if (seg.equals(".")) {
        if (last) {
          out.addLast("");
        }
      } else if (seg.equals("..")) {
        if (!out.isEmpty()) {
          out.removeLast();
        }
        if (last) {
          out.addLast("");
        }
      } else {
        out.addLast(escapes(seg));
      }
    }
    return "/" + String.join("/", out);
  }

  private static String cleanQuery(String query) throws Invalid {
    if (query == null || query.isEmpty()) {
      return null;
    }
    return escapes(query);
  }

  private static boolean unreserved(int c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }

  /** Percent escapes: unreserved decoded, others upper-case; non-printable-ASCII encoded. */
  private static String escapes(String s) throws Invalid {
    StringBuilder sb = new StringBuilder();
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int c = bytes[i] & 0xff;
      if (c == '%' && i + 2 < bytes.length && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
        int v = hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]);
        if (unreserved(v)) {
          sb.append((char) v);
        } else {
          sb.append('%').append(String.format("%02X", v));
        }
        i += 2;
      } else if (c <= 0x20 || c >= 0x7f) {
        sb.append('%').append(String.format("%02X", c));
      } else {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  private static int hex(byte b) {
    return Character.digit((char) (b & 0xff), 16);
  }

  boolean ipHost() {
    return host.startsWith("[") || host.chars().allMatch(c -> c == '.' || c >= '0' && c <= '9');
  }

  /** {@code <host><marker><path>} (docs/semantics.md, "URI key"). */
  String key() {
    StringBuilder sb = new StringBuilder();
    if (ipHost()) {
      sb.append(host);
    } else {
      String[] labels = host.split("\\.");
      for (int i = labels.length - 1; i >= 0; i--) {
        sb.append(labels[i]).append(i > 0 ? "." : "");
      }
    }
    if (port != -1 || https) {
      sb.append(':');
      if (port != -1) {
        sb.append(port);
      }
      if (https) {
        sb.append('s');
      }
    }
    if (!(path.equals("/") && query == null)) {
      sb.append(path);
      if (query != null) {
        sb.append('?').append(query);
      }
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return (https ? "https://" : "http://")
        + host
        + (port == -1 ? "" : ":" + port)
        + path
        + (query == null ? "" : "?" + query);
  }
}
