package io.webindex.testkit.oracle;

import java.net.IDN;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The oracle's URL normalisation and URI key (docs/semantics.md), written from the rules and not
 * from {@code io.webindex.core.url}. The path work is the JDK's: {@link URI#resolve} merges a
 * relative reference with the page's path and {@link URI#normalize} removes dot segments. The rest
 * is small code of this class's own: splitting off scheme, user info, host and port; lower-casing;
 * punycode through {@link IDN}; default ports; percent escapes; IPv4 and IPv6 ({@link InetAddress}
 * only reads the literal, the RFC 5952 text is written here); the key.
 *
 * <p>Where {@code java.net.URI} follows RFC 2396 rather than RFC 3986 this class corrects it, each
 * place saying so: a query-only reference ({@code ?x}) keeps the base path, an empty segment
 * ({@code a//b}) is kept (URI would fold it), a {@code ..} above the root is dropped (URI keeps
 * it), and an absolute-path reference has its dot segments removed too. URI rejects characters a
 * crawl is full of (spaces, {@code |}, UTF-8, a stray {@code %}); they are percent-encoded before
 * URI sees a path.
 *
 * <p>Scope: what the tests feed it: http/https with an authority ({@code //}), ports, names (IDN
 * too), IPv4 and IPv6 hosts, user info, fragments, relative links starting with {@code /}, {@code
 * .}, {@code ?} or {@code #}, dot segments, percent escapes, URLs without a scheme. Refused here
 * (an invalid URL): other schemes, {@code http:x} without {@code //}, a host holding a {@code %}
 * escape or an IPv4-mapped IPv6 literal, a relative reference without a base, and URLs longer than
 * 2048 chars once normalised. A backslash is not read as a slash (it is encoded); tabs and newlines
 * inside a URL are encoded, not removed.
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

  private static final int MAX_LENGTH = 2048;

  /** {@code scheme:rest}; the scheme is RFC 3986's (a letter, then letters, digits, + - .). */
  private static final Pattern SCHEME =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):(.*)", Pattern.DOTALL);

  /** RFC 3986 §2.3. */
  private static final String UNRESERVED =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

  /** Allowed as they are in a path besides the unreserved: sub-delims, ':', '@' and '/'. */
  private static final String PATH_CHARS = "!$&'()*+,;=:@/";

  /**
   * Stands for an empty path segment while {@link URI#normalize} runs (it would fold {@code //}).
   * It is not ASCII, so it is never in a percent-normalised path, and URI takes it as an "other"
   * character.
   */
  private static final String EMPTY_SEGMENT = "\u00a7";

  private static final HexFormat HEX = HexFormat.of().withUpperCase();

  /**
   * Parses {@code raw}; a reference starting with {@code /}, {@code .}, {@code ?} or {@code #} is
   * resolved against {@code base} (null: there is no base and such a reference is invalid).
   * Anything else without a scheme means {@code http://}.
   */
  static OracleUrl parse(String raw, OracleUrl base) throws Invalid {
    if (raw == null || raw.isBlank()) {
      throw new Invalid("no url");
    }
    String s = raw.strip();
    boolean relative = "/.?#".indexOf(s.charAt(0)) >= 0;
    if (relative) {
      if (base == null) {
        throw new Invalid("relative without a base: " + s);
      }
      return checked(relative(base, s));
    }
    Matcher m = SCHEME.matcher(s);
    if (!m.matches() || isPort(m.group(2))) {
      // "a.com/x", and "a.com:8080/x" too: a host and a port, not the scheme "a.com"
      return checked(absolute("http", "//" + s));
    }
    return checked(absolute(m.group(1).toLowerCase(Locale.ROOT), m.group(2)));
  }

  private static boolean isPort(String afterColon) {
    return !afterColon.isEmpty() && afterColon.charAt(0) >= '0' && afterColon.charAt(0) <= '9';
  }

  private static OracleUrl checked(OracleUrl u) throws Invalid {
    if (u.toString().length() > MAX_LENGTH) {
      throw new Invalid("longer than " + MAX_LENGTH);
    }
    return u;
  }

  /** {@code rest} is what follows {@code scheme:}. */
  private static OracleUrl absolute(String scheme, String rest) throws Invalid {
    boolean https;
    switch (scheme) {
      case "http" -> https = false;
      case "https" -> https = true;
      default -> throw new Invalid("not http(s): " + scheme);
    }
    if (!rest.startsWith("//")) {
      throw new Invalid("no //");
    }
    String s = beforeFragment(rest.substring(2));
    // the authority ends at the first '/' or '?' (the fragment is gone already)
    int slash = s.indexOf('/');
    int question = s.indexOf('?');
    int end = s.length();
    if (slash >= 0) {
      end = slash;
    }
    if (question >= 0 && question < end) {
      end = question;
    }
    String authority = s.substring(0, end);
    String tail = s.substring(end);
    // user info: everything up to the last '@'
    authority = authority.substring(authority.lastIndexOf('@') + 1);
    String hostText = authority;
    String portText = "";
    int colon = authority.lastIndexOf(':');
    if (colon >= 0 && colon > authority.lastIndexOf(']')) {
      hostText = authority.substring(0, colon);
      portText = authority.substring(colon + 1);
    }
    int port = port(portText, https ? 443 : 80);
    String host = host(hostText);
    String[] pq = pathAndQuery(tail);
    return new OracleUrl(https, host, port, cleanPath(escapes(pq[0], false)), cleanQuery(pq[1]));
  }

  /** {@code ref} starts with {@code / . ? #}; it is resolved against {@code base}. */
  private static OracleUrl relative(OracleUrl base, String ref) throws Invalid {
    String r = beforeFragment(ref);
    if (r.isEmpty()) {
      return base; // "#top": the document itself (RFC 3986 §5.2.2)
    }
    if (r.startsWith("//")) {
      return absolute(base.https ? "https" : "http", r); // a network-path reference
    }
    String[] pq = pathAndQuery(r);
    String refPath = pq[0];
    String path;
    if (refPath.isEmpty()) {
      // "?x": RFC 3986 keeps the base path; java.net.URI (RFC 2396) would drop its last segment
      path = base.path;
    } else {
      URI merged =
          uri(hideEmptySegments(base.path))
              .resolve(uri(hideEmptySegments(escapes(refPath, false))));
      path = showEmptySegments(merged.getRawPath());
    }
    return new OracleUrl(base.https, base.host, base.port, cleanPath(path), cleanQuery(pq[1]));
  }

  /** {@code s} cut at its first {@code ?}: the path, and the query (null without a {@code ?}). */
  private static String[] pathAndQuery(String s) {
    int q = s.indexOf('?');
    return q < 0 ? new String[] {s, null} : new String[] {s.substring(0, q), s.substring(q + 1)};
  }

  private static String beforeFragment(String s) {
    int hash = s.indexOf('#');
    return hash < 0 ? s : s.substring(0, hash);
  }

  private static URI uri(String legal) throws Invalid {
    try {
      return new URI(legal);
    } catch (URISyntaxException e) {
      throw new Invalid("not a URI: " + legal);
    }
  }

  private static int port(String text, int defaultPort) throws Invalid {
    if (text.isEmpty()) {
      return -1;
    }
    if (text.length() > 5 || !text.matches("[0-9]+")) {
      throw new Invalid("bad port " + text);
    }
    int n = Integer.parseInt(text);
    if (n < 1 || n > 65535) {
      throw new Invalid("bad port " + text);
    }
    return n == defaultPort ? -1 : n;
  }

  // ---------------------------------------------------------------- host

  private static String host(String text) throws Invalid {
    if (text.startsWith("[")) {
      return "[" + ipv6(text) + "]";
    }
    String h = text;
    while (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    if (h.isEmpty()) {
      throw new Invalid("no host");
    }
    try {
      h = IDN.toASCII(h).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new Invalid("not a host name: " + text);
    }
    List<String> labels = List.of(h.split("\\.", -1));
    if (labels.get(labels.size() - 1).matches("[0-9]+")) {
      return ipv4(labels);
    }
    for (String label : labels) {
      if (!label.matches("[a-z0-9_-]+") || label.startsWith("-") || label.endsWith("-")) {
        throw new Invalid("bad label '" + label + "' in " + text);
      }
    }
    return h;
  }

  /** A host whose last label is a number is an IPv4 address: four numbers 0-255, written plain. */
  private static String ipv4(List<String> labels) throws Invalid {
    if (labels.size() != 4) {
      throw new Invalid("not an IPv4 address: " + String.join(".", labels));
    }
    List<String> out = new ArrayList<>();
    for (String label : labels) {
      if (!label.matches("[0-9]{1,3}") || Integer.parseInt(label) > 255) {
        throw new Invalid("not an IPv4 address: " + String.join(".", labels));
      }
      out.add(Integer.toString(Integer.parseInt(label)));
    }
    return String.join(".", out);
  }

  /** RFC 5952 text of a bracketed IPv6 literal, without the brackets. */
  private static String ipv6(String bracketed) throws Invalid {
    if (!bracketed.endsWith("]") || !bracketed.matches("\\[[0-9A-Fa-f:.]+\\]")) {
      throw new Invalid("bad IPv6 literal " + bracketed);
    }
    byte[] b;
    try {
      b = InetAddress.getByName(bracketed).getAddress(); // a literal: no name service
    } catch (UnknownHostException e) {
      throw new Invalid("bad IPv6 literal " + bracketed);
    }
    if (b.length != 16) {
      throw new Invalid("IPv4-mapped IPv6 literal " + bracketed);
    }
    String[] groups = new String[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = Integer.toHexString((b[2 * i] & 0xff) * 256 + (b[2 * i + 1] & 0xff));
    }
    // the longest run of two or more zero groups becomes "::"; on a tie the first one
    for (int len = 8; len >= 2; len--) {
      for (int start = 0; start + len <= 8; start++) {
        if (allZero(groups, start, start + len)) {
          return String.join(":", List.of(groups).subList(0, start))
              + "::"
              + String.join(":", List.of(groups).subList(start + len, 8));
        }
      }
    }
    return String.join(":", groups);
  }

  private static boolean allZero(String[] groups, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!groups[i].equals("0")) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- path and query

  /**
   * Percent escapes (docs/semantics.md): an escape of an unreserved character is decoded, any other
   * escape is written with upper-case hex; unreserved characters and {@link #PATH_CHARS} (and
   * {@code ?} in a query) stay as they are; every other byte of the UTF-8 text is escaped.
   */
  private static String escapes(String s, boolean inQuery) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < bytes.length) {
      char c = (char) (bytes[i] & 0xff);
      if (c == '%' && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
        int value = HexFormat.fromHexDigits(new String(bytes, i + 1, 2, StandardCharsets.US_ASCII));
        out.append(UNRESERVED.indexOf(value) >= 0 ? String.valueOf((char) value) : escaped(value));
        i += 3;
        continue;
      }
      boolean plain =
          c < 128
              && (UNRESERVED.indexOf(c) >= 0
                  || PATH_CHARS.indexOf(c) >= 0
                  || (inQuery && c == '?'));
      out.append(plain ? String.valueOf(c) : escaped(c));
      i++;
    }
    return out.toString();
  }

  private static boolean isHex(byte b) {
    return HexFormat.isHexDigit(b);
  }

  private static String escaped(int value) {
    return "%" + HEX.toHexDigits((byte) value);
  }

  /**
   * Dot segments removed from a percent-normalised path by {@link URI#normalize}, corrected to RFC
   * 3986 §5.2.4: empty segments kept, {@code ..} above the root dropped; the empty path is {@code
   * /}.
   */
  private static String cleanPath(String legalPath) throws Invalid {
    if (legalPath.isEmpty()) {
      return "/";
    }
    String p = uri(hideEmptySegments(legalPath)).normalize().getRawPath();
    while (p.startsWith("/../")) {
      p = p.substring(3);
    }
    if (p.equals("/..")) {
      p = "/";
    }
    return showEmptySegments(p);
  }

  private static String hideEmptySegments(String path) {
    String p = path;
    while (p.contains("//")) {
      p = p.replace("//", "/" + EMPTY_SEGMENT + "/");
    }
    return p;
  }

  private static String showEmptySegments(String path) {
    return path.replace(EMPTY_SEGMENT, "");
  }

  private static String cleanQuery(String query) {
    return query == null || query.isEmpty() ? null : escapes(query, true);
  }

  // ---------------------------------------------------------------- key

  boolean ipHost() {
    return host.startsWith("[") || host.matches("[0-9.]+");
  }

  /** {@code <host><marker><path>} (docs/semantics.md, "URI key"). */
  String key() {
    String keyHost = host;
    if (!ipHost()) {
      List<String> labels = new ArrayList<>(List.of(host.split("\\.")));
      Collections.reverse(labels);
      keyHost = String.join(".", labels);
    }
    String marker = (port == -1 ? "" : String.valueOf(port)) + (https ? "s" : "");
    boolean bareRoot = path.equals("/") && query == null;
    return keyHost
        + (marker.isEmpty() ? "" : ":" + marker)
        + (bareRoot ? "" : path)
        + (query == null ? "" : "?" + query);
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
