package io.webindex.core.url;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A normalised http(s) URL and its URI key (docs/semantics.md).
 *
 * <p>Reading: the WHATWG URL Standard's basic URL parser ({@link UrlParser}), so a link resolves as
 * a browser resolves it; only http and https are web URLs. Then normalisation: host names with
 * their trailing dots dropped and restricted to DNS-like labels, user info, default port and
 * fragment dropped, percent-encoding canonical (unreserved characters decoded, hex upper-case,
 * everything else outside the kept printable ASCII encoded), empty path = {@code /}, empty query
 * dropped. Without a base, a URL without a scheme means {@code http}.
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
  private UrlParser.Base base; // lazily: this URL as a base, see asBase()

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
   * Parses {@code raw} as a browser does (the WHATWG URL Standard's basic URL parser), resolving it
   * against {@code base} when it is relative, then normalises it (see the class comment). With
   * {@code base} null, a URL without a scheme is read as {@code http://raw} ({@code a.com/x},
   * {@code a.com:8080/x}).
   */
  public static WebUrl parse(String raw, WebUrl base) throws InvalidUrlException {
    if (raw == null) {
      throw new InvalidUrlException(InvalidUrlException.Reason.EMPTY, "no URL");
    }
    int[] cps = UrlParser.preprocess(raw);
    if (cps.length > MAX_LENGTH * 3) {
      throw new InvalidUrlException(InvalidUrlException.Reason.TOO_LONG, cps.length + " chars");
    }
    UrlParser.Parts parts;
    if (base == null) {
      if (cps.length == 0) {
        throw new InvalidUrlException(InvalidUrlException.Reason.EMPTY, "empty URL");
      }
      String s = new String(cps, 0, cps.length);
      parts =
          UrlParser.parse(schemeOf(s) == null ? UrlParser.preprocess("http://" + s) : cps, null);
    } else {
      parts = UrlParser.parse(cps, base.asBase());
    }
    return build(
        parts.https(), normaliseHost(parts.host()), parts.port(), parts.path(), parts.query());
  }

  /** This URL as a base for the parser; computed once (a page's links share their base). */
  private UrlParser.Base asBase() {
    UrlParser.Base b = base;
    if (b == null) {
      List<String> segments = List.of(path.substring(1).split("/", -1));
      b = new UrlParser.Base(https, host, port, segments, query);
      base = b;
    }
    return b;
  }

  private static WebUrl build(boolean https, String host, int port, String rawPath, String rawQuery)
      throws InvalidUrlException {
    String p = canonicalPercent(rawPath.isEmpty() ? "/" : rawPath, false);
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
    WebUrl plain = key == null ? null : fromPlainKey(key);
    return plain != null ? plain : fromKeyParsed(key);
  }

  /**
   * {@link #fromKey} without the URL parser, for the keys whose canonical form can be seen in the
   * key itself: host labels of letters, digits and inner hyphens (not IDNA, not numeric), a port
   * other than the scheme's default, a path and query of characters that the parser and the percent
   * canonicalisation leave as they are, no dot segment. Null for any other key, which the parser
   * then decides ({@code WebUrlTest.plainKeysAgreeWithTheParser}).
   */
  static WebUrl fromPlainKey(String key) {
    PlainKey k = plainKey(key);
    if (k == null) {
      return null;
    }
    String path = k.pathStart == key.length() ? "/" : key.substring(k.pathStart, k.pathEnd);
    String query = k.pathEnd < key.length() ? key.substring(k.pathEnd + 1) : null;
    return new WebUrl(k.https, reverseLabels(key.substring(0, k.hostEnd)), k.port, path, query);
  }

  /**
   * Where the host part of a key ends, when {@link #fromPlainKey} reads the key (without building
   * the URL), else -1.
   */
  static int plainHostEnd(String key) {
    PlainKey k = plainKey(key);
    return k == null ? -1 : k.hostEnd;
  }

  /**
   * The parts of a plain key ({@link #fromPlainKey}): the host key {@code [0, hostEnd)}, the path
   * {@code [pathStart, pathEnd)} (none when {@code pathStart} is the key's length) and the query
   * after {@code pathEnd} (none when that is the key's length).
   */
  private record PlainKey(int hostEnd, boolean https, int port, int pathStart, int pathEnd) {}

  /** The parts of a plain key, or null for a key that is not one. */
  private static PlainKey plainKey(String key) {
    int n = key.length();
    int i = 0;
    int labelStart = 0;
    while (i < n && key.charAt(i) != ':' && key.charAt(i) != '/') {
      char c = key.charAt(i);
      if (c == '.') {
        if (!plainLabel(key, labelStart, i, labelStart == 0)) {
          return null;
        }
        labelStart = i + 1;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
        return null;
      }
      i++;
    }
    // the host key's first label is the host's last (its top-level domain)
    if (!plainLabel(key, labelStart, i, labelStart == 0) || i > 253) {
      return null;
    }
    int hostEnd = i;
    boolean https = false;
    int port = -1;
    int portDigits = 0;
    if (i < n && key.charAt(i) == ':') {
      int j = ++i;
      while (i < n && key.charAt(i) >= '0' && key.charAt(i) <= '9') {
        i++;
      }
      if (i > j) {
        if (key.charAt(j) == '0' || i - j > 5) {
          return null;
        }
        port = Integer.parseInt(key, j, i, 10);
        portDigits = i - j;
      }
      if (i < n && key.charAt(i) == 's') {
        https = true;
        i++;
      }
      if ((port == -1 && !https) || port > 65535 || port == (https ? 443 : 80)) {
        return null;
      }
    }
    int pathStart = i;
    int pathEnd = n;
    // the URL's length: scheme "://" host [":" port] path ["?" query]
    int length = (https ? 8 : 7) + hostEnd + (port == -1 ? 0 : 1 + portDigits);
    if (i < n) {
      int q = key.indexOf('?', i);
      pathEnd = q < 0 ? n : q;
      if (key.charAt(i) != '/'
          || (q < 0 && pathEnd - i == 1)
          || !plainText(key, i, pathEnd, false)
          || dotSegment(key, i, pathEnd)) {
        return null;
      }
      if (q >= 0 && (q + 1 == n || !plainText(key, q + 1, n, true))) {
        return null;
      }
      length += n - i; // the path, and "?" and the query
    } else {
      length += 1; // the path "/"
    }
    return length > MAX_LENGTH ? null : new PlainKey(hostEnd, https, port, pathStart, pathEnd);
  }

  /**
   * A label of a plain host: 1 to 63 letters, digits and hyphens, not starting or ending with a
   * hyphen, not an IDNA label; the top-level one starts with a letter (a numeric last label would
   * make the host an IPv4 address to the parser).
   */
  private static boolean plainLabel(String key, int from, int to, boolean topLevel) {
    int len = to - from;
    if (len < 1 || len > 63 || key.charAt(from) == '-' || key.charAt(to - 1) == '-') {
      return false;
    }
    if (len >= 4 && key.startsWith("xn--", from)) {
      return false;
    }
    return !topLevel || (key.charAt(from) >= 'a' && key.charAt(from) <= 'z');
  }

  /**
   * Whether {@code key[from, to)} is a path (or, {@code inQuery}, a query) that the parser and the
   * percent canonicalisation leave as it is: unreserved characters, the sub-delimiters and {@code
   * : @ /} (and {@code ?} in a query; {@code '} only in a path, since the parser escapes it in a
   * query), and escapes {@code %XX} in upper case of a character that is not unreserved.
   */
  private static boolean plainText(String key, int from, int to, boolean inQuery) {
    for (int i = from; i < to; i++) {
      char c = key.charAt(i);
      if (c == '%') {
        if (i + 2 >= to) {
          return false;
        }
        int hi = upperHex(key.charAt(i + 1));
        int lo = upperHex(key.charAt(i + 2));
        if (hi < 0 || lo < 0 || unreserved(hi * 16 + lo)) {
          return false;
        }
        i += 2;
      } else if (c >= 0x80
          || !(unreserved(c) || keptLiteral(c, inQuery))
          || (inQuery && c == '\'')) {
        return false;
      }
    }
    return true;
  }

  private static int upperHex(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  }

  /** Whether a segment of the path {@code key[from, to)} is {@code .} or {@code ..}. */
  private static boolean dotSegment(String key, int from, int to) {
    int segStart = from + 1;
    for (int i = from + 1; i <= to; i++) {
      if (i == to || key.charAt(i) == '/') {
        int len = i - segStart;
        if ((len == 1 && key.charAt(segStart) == '.')
            || (len == 2 && key.charAt(segStart) == '.' && key.charAt(segStart + 1) == '.')) {
          return true;
        }
        segStart = i + 1;
      }
    }
    return false;
  }

  /** {@link #fromKey} through the URL parser: the key's URL parsed, its key compared. */
  static WebUrl fromKeyParsed(String key) throws InvalidUrlException {
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

  /**
   * Our rules on top of the standard's host: trailing dots dropped; a name must be DNS-like labels
   * (letters, digits, '-', '_'; none empty, none over 63 chars, at most 253 in all).
   */
  private static String normaliseHost(String h) throws InvalidUrlException {
    if (h.startsWith("[")) {
      return h;
    }
    String name = h;
    while (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.isEmpty() || name.length() > 253) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, h);
    }
    if (name.length() < h.length() && UrlParser.endsInANumber(name)) {
      // "1.2.3.4.." is a name to a browser, but without its dots it would read as an address
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "numeric name: " + h);
    }
    int labelStart = 0;
    for (int i = 0; i <= name.length(); i++) {
      char c = i == name.length() ? '.' : name.charAt(i);
      if (c == '.') {
        if (i == labelStart || i - labelStart > 63) {
          throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, h);
        }
        labelStart = i + 1;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, h);
      }
    }
    return name;
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

  /** Convenience for tests and callers that hold a known-good URL. */
  public static WebUrl of(String raw) {
    try {
      return parse(raw);
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
