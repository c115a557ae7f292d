package io.webindex.core.url;

import java.net.IDN;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A normalised http(s) URL and its URI key (SPEC §3).
 *
 * <p>Normalisation: scheme and host lower-case, IDN hosts in punycode, trailing host dot dropped,
 * user info dropped, default port dropped, fragment dropped, dot segments removed, percent-encoding
 * canonical (unreserved characters decoded, hex upper-case, everything else outside printable ASCII
 * encoded), empty path = {@code /}, empty query dropped. A missing scheme means {@code http}.
 *
 * <p>Key: {@code <host><marker><path>} where the host is the reversed labels of a name ({@code
 * www.c.com} → {@code com.c.www}), an IPv4 address as is, or a bracketed IPv6 address; the marker
 * is empty for http on port 80, {@code :<port>} for another http port, {@code :s} for https on 443
 * and {@code :<port>s} for another https port; the path is empty for the bare root ({@code /}
 * without a query) and otherwise the path with its query. A key is printable ASCII without spaces,
 * so it never contains a tab, a newline or anything that makes a tab-separated dump ambiguous.
 */
public final class WebUrl {
  /** URLs longer than this (normalised) are refused. */
  public static final int MAX_LENGTH = 2048;

  private final boolean https;
  private final String host; // normalised: reg-name in ASCII, dotted IPv4, or [ipv6]
  private final int port; // -1 = scheme default
  private final String path; // starts with '/'
  private final String query; // null = none

  private WebUrl(boolean https, String host, int port, String path, String query) {
    this.https = https;
    this.host = host;
    this.port = port;
    this.path = path;
    this.query = query;
  }

  /** Parses an absolute URL; a URL without a scheme means http. */
  public static WebUrl parse(String raw) throws InvalidUrlException {
    return parse(raw, null);
  }

  /**
   * Parses {@code raw}, resolving it against {@code base} when it is relative ({@code base} may be
   * null, then a relative reference without a scheme is read as {@code http://raw}).
   */
  public static WebUrl parse(String raw, WebUrl base) throws InvalidUrlException {
    if (raw == null) {
      throw new InvalidUrlException(InvalidUrlException.Reason.EMPTY, "no URL");
    }
    String s = stripControls(raw).strip();
    if (s.isEmpty()) {
      if (base != null) {
        return base; // an empty reference is the base document itself (RFC 3986 §5.2.2)
      }
      throw new InvalidUrlException(InvalidUrlException.Reason.EMPTY, "empty URL");
    }
    if (s.length() > MAX_LENGTH * 3) {
      throw new InvalidUrlException(InvalidUrlException.Reason.TOO_LONG, s.length() + " chars");
    }
    String scheme = schemeOf(s);
    String rest;
    if (scheme != null) {
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw new InvalidUrlException(InvalidUrlException.Reason.UNSUPPORTED_SCHEME, scheme);
      }
      rest = s.substring(scheme.length() + 1);
      if (base != null && !startsWithSlash(rest) && scheme.equals(base.scheme())) {
        // "http:page" relative to an http base (RFC 3986 §5.2.2 allows it for special schemes)
        return resolveRelative(base, rest);
      }
      return parseAuthorityAndRest(scheme.equals("https"), skipSlashes(rest));
    }
    if (base == null) {
      return parseAuthorityAndRest(false, skipSlashes(s));
    }
    if (s.startsWith("//") || s.startsWith("\\\\")) {
      return parseAuthorityAndRest(base.https, skipSlashes(s));
    }
    return resolveRelative(base, s);
  }

  private static WebUrl resolveRelative(WebUrl base, String ref) throws InvalidUrlException {
    String r = ref.replace('\\', '/');
    int hash = r.indexOf('#');
    if (hash >= 0) {
      r = r.substring(0, hash);
    }
    String refPath;
    String refQuery;
    int q = r.indexOf('?');
    if (q >= 0) {
      refPath = r.substring(0, q);
      refQuery = r.substring(q + 1);
    } else {
      refPath = r;
      refQuery = null;
    }
    String newPath;
    String newQuery;
    if (refPath.isEmpty()) {
      newPath = base.path;
      newQuery = refQuery != null ? refQuery : base.query;
    } else if (refPath.startsWith("/")) {
      newPath = refPath;
      newQuery = refQuery;
    } else {
      int slash = base.path.lastIndexOf('/');
      newPath = base.path.substring(0, slash + 1) + refPath;
      newQuery = refQuery;
    }
    return build(base.https, base.host, base.port, newPath, newQuery);
  }

  private static WebUrl parseAuthorityAndRest(boolean https, String s) throws InvalidUrlException {
    int end = s.length();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '/' || c == '\\' || c == '?' || c == '#') {
        end = i;
        break;
      }
    }
    String authority = s.substring(0, end);
    String tail = s.substring(end).replace('\\', '/');
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      authority = authority.substring(at + 1);
    }
    String hostPart;
    String portPart = null;
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      if (close < 0) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "unclosed [");
      }
      hostPart = authority.substring(0, close + 1);
      String after = authority.substring(close + 1);
      if (after.startsWith(":")) {
        portPart = after.substring(1);
      } else if (!after.isEmpty()) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, authority);
      }
    } else {
      int colon = authority.lastIndexOf(':');
      if (colon >= 0) {
        hostPart = authority.substring(0, colon);
        portPart = authority.substring(colon + 1);
      } else {
        hostPart = authority;
      }
    }
    int hash = tail.indexOf('#');
    if (hash >= 0) {
      tail = tail.substring(0, hash);
    }
    String p;
    String q;
    int qi = tail.indexOf('?');
    if (qi >= 0) {
      p = tail.substring(0, qi);
      q = tail.substring(qi + 1);
    } else {
      p = tail;
      q = null;
    }
    return build(https, normaliseHost(hostPart), parsePort(portPart, https), p, q);
  }

  private static WebUrl build(boolean https, String host, int port, String rawPath, String rawQuery)
      throws InvalidUrlException {
    String p = removeDotSegments(canonicalPercent(rawPath.isEmpty() ? "/" : rawPath, false));
    String q = rawQuery == null || rawQuery.isEmpty() ? null : canonicalPercent(rawQuery, true);
    WebUrl url = new WebUrl(https, host, port, p, q);
    int len = url.toString().length();
    if (len > MAX_LENGTH) {
      throw new InvalidUrlException(InvalidUrlException.Reason.TOO_LONG, len + " chars");
    }
    return url;
  }

  // ---------------------------------------------------------------- key

  /** Builds the URI key (see the class comment). */
  public String key() {
    StringBuilder sb = new StringBuilder(host.length() + path.length() + 8);
    appendHostKey(sb);
    if (https || port != -1) {
      sb.append(':');
      if (port != -1) {
        sb.append(port);
      }
      if (https) {
        sb.append('s');
      }
    }
    if (!path.equals("/") || query != null) {
      sb.append(path);
      if (query != null) {
        sb.append('?').append(query);
      }
    }
    return sb.toString();
  }

  /** The host part of the key: reversed labels, or the IP literal. */
  public String hostKey() {
    StringBuilder sb = new StringBuilder(host.length());
    appendHostKey(sb);
    return sb.toString();
  }

  private void appendHostKey(StringBuilder sb) {
    if (isIpLiteral()) {
      sb.append(host);
    } else {
      sb.append(reverseLabels(host));
    }
  }

  /** Inverse of {@link #key()}. */
  public static WebUrl fromKey(String key) throws InvalidUrlException {
    if (key == null || key.isEmpty()) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_KEY, "empty key");
    }
    int i;
    String hostKey;
    if (key.startsWith("[")) {
      i = key.indexOf(']');
      if (i < 0) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_KEY, key);
      }
      hostKey = key.substring(0, ++i);
    } else {
      i = 0;
      while (i < key.length() && key.charAt(i) != ':' && key.charAt(i) != '/') {
        i++;
      }
      hostKey = key.substring(0, i);
    }
    boolean https = false;
    int port = -1;
    if (i < key.length() && key.charAt(i) == ':') {
      int j = ++i;
      while (i < key.length() && key.charAt(i) >= '0' && key.charAt(i) <= '9') {
        i++;
      }
      if (i > j) {
        port = Integer.parseInt(key.substring(j, Math.min(i, j + 6)));
      }
      if (i < key.length() && key.charAt(i) == 's') {
        https = true;
        i++;
      }
      if (i == j) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_KEY, key);
      }
    }
    String rest = key.substring(i);
    if (!rest.isEmpty() && rest.charAt(0) != '/') {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_KEY, key);
    }
    String host = isIpLiteralText(hostKey) ? hostKey : reverseLabels(hostKey);
    StringBuilder url = new StringBuilder(https ? "https://" : "http://").append(host);
    if (port != -1) {
      url.append(':').append(port);
    }
    url.append(rest.isEmpty() ? "/" : rest);
    WebUrl parsed = parse(url.toString());
    if (!parsed.key().equals(key)) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_KEY, "not canonical: " + key);
    }
    return parsed;
  }

  // ---------------------------------------------------------------- accessors

  public boolean https() {
    return https;
  }

  public String scheme() {
    return https ? "https" : "http";
  }

  /** The normalised host: an ASCII name, a dotted IPv4 address or a bracketed IPv6 address. */
  public String host() {
    return host;
  }

  /** The explicit port, or -1 for the scheme's default. */
  public int port() {
    return port;
  }

  public String path() {
    return path;
  }

  /** The query without '?', or null. */
  public String query() {
    return query;
  }

  public boolean isIpLiteral() {
    return isIpLiteralText(host);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(scheme()).append("://").append(host);
    if (port != -1) {
      sb.append(':').append(port);
    }
    sb.append(path);
    if (query != null) {
      sb.append('?').append(query);
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WebUrl other && toString().equals(other.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  // ---------------------------------------------------------------- helpers

  private static String schemeOf(String s) {
    int colon = s.indexOf(':');
    if (colon <= 0) {
      return null;
    }
    for (int i = 0; i < colon; i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
      if (!ok) {
        return null;
      }
    }
    // "a.com:8080/x" is a host with a port, not a scheme
    int j = colon + 1;
    int digits = 0;
    while (j < s.length() && Character.isDigit(s.charAt(j))) {
      j++;
      digits++;
    }
    if (digits > 0 && (j == s.length() || "/?#".indexOf(s.charAt(j)) >= 0)) {
      return null;
    }
    return s.substring(0, colon).toLowerCase(Locale.ROOT);
  }

  private static boolean startsWithSlash(String s) {
    return !s.isEmpty() && (s.charAt(0) == '/' || s.charAt(0) == '\\');
  }

  private static String skipSlashes(String s) {
    int i = 0;
    while (i < s.length() && (s.charAt(i) == '/' || s.charAt(i) == '\\')) {
      i++;
    }
    return s.substring(i);
  }

  private static String stripControls(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\t' || c == '\n' || c == '\r') {
        if (sb == null) {
          sb = new StringBuilder(s.length()).append(s, 0, i);
        }
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? s : sb.toString();
  }

  private static int parsePort(String portPart, boolean https) throws InvalidUrlException {
    if (portPart == null || portPart.isEmpty()) {
      return -1;
    }
    if (portPart.length() > 5 || !portPart.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_PORT, portPart);
    }
    int p = Integer.parseInt(portPart);
    if (p == 0 || p > 65535) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_PORT, portPart);
    }
    return (https && p == 443) || (!https && p == 80) ? -1 : p;
  }

  private static String normaliseHost(String raw) throws InvalidUrlException {
    String h = percentDecodeAll(raw);
    if (h.isEmpty()) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "empty host");
    }
    if (h.startsWith("[")) {
      return normaliseIpv6(h);
    }
    while (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    // full-width dots and the like are label separators too (IDNA)
    h = h.replace('\u3002', '.').replace('\uff0e', '.').replace('\uff61', '.');
    String ascii;
    try {
      ascii = IDN.toASCII(h, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not IDNA: " + raw);
    }
    if (ascii.isEmpty() || ascii.length() > 253) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, raw);
    }
    String[] labels = ascii.split("\\.", -1);
    boolean allNumeric = true;
    for (String label : labels) {
      if (label.isEmpty() || label.length() > 63) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, raw);
      }
      for (int i = 0; i < label.length(); i++) {
        char c = label.charAt(i);
        boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) {
          throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, raw);
        }
        if (c < '0' || c > '9') {
          allNumeric = false;
        }
      }
    }
    if (allNumeric || isNumeric(labels[labels.length - 1])) {
      return normaliseIpv4(labels, raw);
    }
    return ascii;
  }

  private static boolean isNumeric(String label) {
    return !label.isEmpty() && label.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static String normaliseIpv4(String[] labels, String raw) throws InvalidUrlException {
    if (labels.length != 4) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not an IPv4: " + raw);
    }
    StringBuilder sb = new StringBuilder(15);
    for (String label : labels) {
      if (!isNumeric(label) || label.length() > 3 || Integer.parseInt(label) > 255) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not an IPv4: " + raw);
      }
      if (sb.length() > 0) {
        sb.append('.');
      }
      sb.append(Integer.parseInt(label));
    }
    return sb.toString();
  }

  private static String normaliseIpv6(String h) throws InvalidUrlException {
    if (!h.endsWith("]") || h.length() < 4) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, h);
    }
    String inner = h.substring(1, h.length() - 1);
    if (!inner.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')
        || inner.indexOf(':') < 0) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, h);
    }
    byte[] bytes;
    try {
      // a literal: no name service is consulted
      bytes = InetAddress.getByName("[" + inner + "]").getAddress();
    } catch (UnknownHostException e) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, h);
    }
    if (bytes.length != 16) {
      // an IPv4-mapped address collapses to IPv4 in Java; keep it as the IPv4 host
      StringBuilder sb = new StringBuilder();
      for (byte b : bytes) {
        sb.append(sb.length() == 0 ? "" : ".").append(b & 0xff);
      }
      return sb.toString();
    }
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
    }
    // RFC 5952: compress the longest run (>= 2) of zero groups, the first one on a tie
    int bestStart = -1;
    int bestLen = 0;
    for (int i = 0; i < 8; ) {
      if (groups[i] == 0) {
        int j = i;
        while (j < 8 && groups[j] == 0) {
          j++;
        }
        if (j - i > bestLen && j - i >= 2) {
          bestStart = i;
          bestLen = j - i;
        }
        i = j;
      } else {
        i++;
      }
    }
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLen - 1;
        continue;
      }
      if (sb.length() > 1 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(groups[i]));
    }
    return sb.append(']').toString();
  }

  static boolean isIpLiteralText(String host) {
    if (host.startsWith("[")) {
      return true;
    }
    if (host.isEmpty()) {
      return false;
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c != '.' && (c < '0' || c > '9')) {
        return false;
      }
    }
    return true;
  }

  static String reverseLabels(String name) {
    String[] labels = name.split("\\.", -1);
    StringBuilder sb = new StringBuilder(name.length());
    for (int i = labels.length - 1; i >= 0; i--) {
      sb.append(labels[i]);
      if (i > 0) {
        sb.append('.');
      }
    }
    return sb.toString();
  }

  private static String removeDotSegments(String p) {
    if (!p.contains("/.")) {
      return p;
    }
    Deque<String> out = new ArrayDeque<>();
    String[] segs = p.substring(1).split("/", -1);
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
        out.addLast(seg);
      }
    }
    return "/" + String.join("/", out);
  }

  private static boolean unreserved(int b) {
    return (b >= 'a' && b <= 'z')
        || (b >= 'A' && b <= 'Z')
        || (b >= '0' && b <= '9')
        || b == '-'
        || b == '.'
        || b == '_'
        || b == '~';
  }

  /** Characters kept literally in a path or query besides the unreserved ones. */
  private static boolean keptLiteral(int b, boolean inQuery) {
    return "!$&'()*+,;=:@/".indexOf(b) >= 0 || (inQuery && b == '?');
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private static String canonicalPercent(String s, boolean inQuery) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder(bytes.length + 8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      if (b == '%'
          && i + 2 < bytes.length
          && Character.digit(bytes[i + 1], 16) >= 0
          && Character.digit(bytes[i + 2], 16) >= 0) {
        int v = Character.digit(bytes[i + 1], 16) * 16 + Character.digit(bytes[i + 2], 16);
        if (unreserved(v)) {
          sb.append((char) v);
        } else {
          sb.append('%').append(HEX[v >> 4]).append(HEX[v & 15]);
        }
        i += 2;
      } else if (unreserved(b) || keptLiteral(b, inQuery)) {
        sb.append((char) b);
      } else {
        sb.append('%').append(HEX[b >> 4]).append(HEX[b & 15]);
      }
    }
    return sb.toString();
  }

  private static String percentDecodeAll(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[bytes.length];
    int n = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '%'
          && i + 2 < bytes.length
          && Character.digit(bytes[i + 1], 16) >= 0
          && Character.digit(bytes[i + 2], 16) >= 0) {
        out[n++] =
            (byte) (Character.digit(bytes[i + 1], 16) * 16 + Character.digit(bytes[i + 2], 16));
        i += 2;
      } else {
        out[n++] = bytes[i];
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  /** Convenience for tests and callers that hold a known-good URL. */
  public static WebUrl of(String raw) {
    try {
      return parse(raw);
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
