package io.webindex.core.url;

import java.net.IDN;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The WHATWG URL Standard's basic URL parser, for the two schemes a web link can have: {@code http}
 * and {@code https}. A URL with any other scheme (special or not) is refused as {@code
 * UNSUPPORTED_SCHEME}, as is a relative reference whose base would have to be a non-web URL.
 *
 * <p>The result is what a browser's {@code URL.href} holds, in parts: scheme, host (serialised: a
 * lower-case ASCII domain, a dotted IPv4 address or a bracketed IPv6 address), port (-1 for the
 * scheme's default), path and query (percent-encoded ASCII, the query without '?', null when there
 * is none). User info and the fragment are parsed over and not kept. {@link WebUrl} applies its
 * normalisations on top.
 *
 * <p>Host names go through {@link IDN#toASCII} (IDNA 2003 with unassigned code points allowed; ß
 * and final sigma kept as UTS #46 keeps them), not the Unicode UTS #46 mapping the standard names;
 * the differences are confined to host names with rare non-ASCII characters (see
 * docs/semantics.md).
 */
final class UrlParser {
  /** A parsed URL's parts, see the class comment. */
  record Parts(boolean https, String host, int port, String path, String query) {}

  /** The parts of a base URL the parser needs. */
  record Base(boolean https, String host, int port, List<String> path, String query) {}

  private static final int EOF = -1;

  private UrlParser() {}

  /**
   * Parses {@code input} (code points, {@link #preprocess preprocessed}) against {@code base} (null
   * for none).
   *
   * @throws InvalidUrlException when the standard's parser fails, or the result is not http(s)
   */
  static Parts parse(int[] input, Base base) throws InvalidUrlException {
    return new Run(input, base).run();
  }

  /**
   * Removes leading and trailing C0 controls and spaces, then every tab and newline; lone
   * surrogates become U+FFFD (the standard's input is a scalar-value string).
   */
  static int[] preprocess(String input) {
    int start = 0;
    int end = input.length();
    while (start < end && input.charAt(start) <= 0x20) {
      start++;
    }
    while (end > start && input.charAt(end - 1) <= 0x20) {
      end--;
    }
    int[] out = new int[end - start];
    int n = 0;
    for (int i = start; i < end; ) {
      int c = input.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\t' || c == '\n' || c == '\r') {
        continue;
      }
      if (c >= 0xD800 && c <= 0xDFFF) {
        c = 0xFFFD;
      }
      out[n++] = c;
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  private enum State {
    SCHEME_START,
    SCHEME,
    NO_SCHEME,
    SPECIAL_RELATIVE_OR_AUTHORITY,
    SPECIAL_AUTHORITY_SLASHES,
    SPECIAL_AUTHORITY_IGNORE_SLASHES,
    RELATIVE,
    RELATIVE_SLASH,
    AUTHORITY,
    HOST,
    PORT,
    PATH_START,
    PATH,
    QUERY,
    FRAGMENT
  }

  /** One run of the state machine over one input. */
  private static final class Run {
    private final int[] in;
    private final Base base;
    private int pointer;
    private final StringBuilder buffer = new StringBuilder();
    private boolean https;
    private String host;
    private int port = -1;
    private final List<String> path = new ArrayList<>();
    private StringBuilder query;
    private boolean atSignSeen;
    private boolean insideBrackets;

    /** Code points of the authority since its start or its last '@'. */
    private int authorityLength;

    /** Where the host state began, or -1 before it. */
    private int hostStart = -1;

    Run(int[] in, Base base) {
      this.in = in;
      this.base = base;
    }

    private int at(int i) {
      return i >= 0 && i < in.length ? in[i] : EOF;
    }

    /** The host state's code points, from its start up to the pointer. */
    private String hostText() throws InvalidUrlException {
      if (pointer == hostStart) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "empty host");
      }
      return new String(in, hostStart, pointer - hostStart);
    }

    Parts run() throws InvalidUrlException {
      State state = State.SCHEME_START;
      for (pointer = 0; ; pointer++) {
        int c = at(pointer);
        switch (state) {
          case SCHEME_START -> {
            if (isAsciiAlpha(c)) {
              buffer.append((char) Character.toLowerCase(c));
              state = State.SCHEME;
            } else {
              state = State.NO_SCHEME;
              pointer--;
            }
          }
          case SCHEME -> {
            if (isAsciiAlpha(c) || isAsciiDigit(c) || c == '+' || c == '-' || c == '.') {
              buffer.append((char) Character.toLowerCase(c));
            } else if (c == ':') {
              String scheme = buffer.toString();
              buffer.setLength(0);
              if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new InvalidUrlException(
                    InvalidUrlException.Reason.UNSUPPORTED_SCHEME, scheme);
              }
              https = scheme.equals("https");
              if (base != null && base.https() == https) {
                state = State.SPECIAL_RELATIVE_OR_AUTHORITY;
              } else {
                state = State.SPECIAL_AUTHORITY_SLASHES;
              }
            } else {
              buffer.setLength(0);
              state = State.NO_SCHEME;
              pointer = -1;
            }
          }
          case NO_SCHEME -> {
            if (base == null) {
              throw new InvalidUrlException(
                  InvalidUrlException.Reason.UNSUPPORTED_SCHEME, "relative URL without a base");
            }
            state = State.RELATIVE;
            pointer--;
          }
          case SPECIAL_RELATIVE_OR_AUTHORITY -> {
            if (c == '/' && at(pointer + 1) == '/') {
              state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES;
              pointer++;
            } else {
              state = State.RELATIVE;
              pointer--;
            }
          }
          case SPECIAL_AUTHORITY_SLASHES -> {
            state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES;
            if (c == '/' && at(pointer + 1) == '/') {
              pointer++;
            } else {
              pointer--;
            }
          }
          case SPECIAL_AUTHORITY_IGNORE_SLASHES -> {
            if (c != '/' && c != '\\') {
              state = State.AUTHORITY;
              pointer--;
            }
          }
          case RELATIVE -> {
            https = base.https();
            if (c == '/' || c == '\\') {
              state = State.RELATIVE_SLASH;
            } else {
              host = base.host();
              port = base.port();
              path.addAll(base.path());
              query = base.query() == null ? null : new StringBuilder(base.query());
              if (c == '?') {
                query = new StringBuilder();
                state = State.QUERY;
              } else if (c == '#') {
                state = State.FRAGMENT;
              } else if (c != EOF) {
                query = null;
                shortenPath();
                state = State.PATH;
                pointer--;
              }
            }
          }
          case RELATIVE_SLASH -> {
            if (c == '/' || c == '\\') {
              state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES;
            } else {
              host = base.host();
              port = base.port();
              state = State.PATH;
              pointer--;
            }
          }
          case AUTHORITY -> {
            // the spec's buffer holds the code points since the last '@' (user info is parsed
            // over, not kept) and is only counted: the host state reads them again
            if (c == '@') {
              atSignSeen = true;
              authorityLength = 0;
            } else if (c == EOF || c == '/' || c == '?' || c == '#' || c == '\\') {
              if (atSignSeen && authorityLength == 0) {
                throw new InvalidUrlException(
                    InvalidUrlException.Reason.BAD_HOST, "user info without a host");
              }
              pointer -= authorityLength + 1;
              authorityLength = 0;
              state = State.HOST;
            } else {
              authorityLength++;
            }
          }
          case HOST -> {
            // the spec's buffer is the code points from hostStart up to the pointer
            if (hostStart < 0) {
              hostStart = pointer;
            }
            if (c == ':' && !insideBrackets) {
              host = parseHost(hostText());
              state = State.PORT;
            } else if (c == EOF || c == '/' || c == '?' || c == '#' || c == '\\') {
              host = parseHost(hostText());
              pointer--;
              state = State.PATH_START;
            } else if (c == '[') {
              insideBrackets = true;
            } else if (c == ']') {
              insideBrackets = false;
            }
          }
          case PORT -> {
            if (isAsciiDigit(c)) {
              buffer.append((char) c);
            } else if (c == EOF || c == '/' || c == '?' || c == '#' || c == '\\') {
              if (buffer.length() > 0) {
                port = parsePort(buffer);
                if (port == (https ? 443 : 80)) {
                  port = -1;
                }
                buffer.setLength(0);
              }
              state = State.PATH_START;
              pointer--;
            } else {
              throw new InvalidUrlException(
                  InvalidUrlException.Reason.BAD_PORT, "not a port: " + buffer + cpString(c));
            }
          }
          case PATH_START -> {
            state = State.PATH;
            if (c != '/' && c != '\\') {
              pointer--;
            }
          }
          case PATH -> {
            if (c == EOF || c == '/' || c == '\\' || c == '?' || c == '#') {
              String seg = buffer.toString();
              boolean slash = c == '/' || c == '\\';
              if (isDoubleDot(seg)) {
                shortenPath();
                if (!slash) {
                  path.add("");
                }
              } else if (isSingleDot(seg)) {
                if (!slash) {
                  path.add("");
                }
              } else {
                path.add(seg);
              }
              buffer.setLength(0);
              if (c == '?') {
                query = new StringBuilder();
                state = State.QUERY;
              } else if (c == '#') {
                state = State.FRAGMENT;
              }
            } else {
              // the rest of the segment at once (same result as one code point per round)
              int j = pointer;
              for (int d = c; d != '/' && d != '\\' && d != '?' && d != '#'; d = at(++j)) {
                if (d == EOF) {
                  break;
                }
                percentEncode(d, PATH_SET, buffer);
              }
              pointer = j - 1;
            }
          }
          case QUERY -> {
            if (c == '#') {
              state = State.FRAGMENT;
            } else if (c != EOF) {
              int j = pointer;
              for (int d = c; d != '#' && d != EOF; d = at(++j)) {
                percentEncode(d, SPECIAL_QUERY_SET, query);
              }
              pointer = j - 1;
            }
          }
          case FRAGMENT -> {
            // the fragment is not kept: nothing after '#' can change the result
            pointer = in.length;
          }
          default -> throw new IllegalStateException(state.name());
        }
        if (pointer >= in.length) {
          break; // the pointer points to the end of the input: the run is over
        }
      }
      if (host == null) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "no host");
      }
      StringBuilder p = new StringBuilder();
      for (String seg : path) {
        p.append('/').append(seg);
      }
      return new Parts(https, host, port, p.toString(), query == null ? null : query.toString());
    }

    private void shortenPath() {
      if (!path.isEmpty()) {
        path.remove(path.size() - 1);
      }
    }
  }

  // ---------------------------------------------------------------- ports

  private static int parsePort(CharSequence digits) throws InvalidUrlException {
    long v = 0;
    for (int i = 0; i < digits.length(); i++) {
      v = v * 10 + (digits.charAt(i) - '0');
      if (v > 65535) {
        throw new InvalidUrlException(
            InvalidUrlException.Reason.BAD_PORT, "port out of range: " + digits);
      }
    }
    return (int) v;
  }

  // ---------------------------------------------------------------- paths

  private static boolean isSingleDot(String s) {
    return s.equals(".") || s.equalsIgnoreCase("%2e");
  }

  private static boolean isDoubleDot(String s) {
    return s.equals("..")
        || s.equalsIgnoreCase(".%2e")
        || s.equalsIgnoreCase("%2e.")
        || s.equalsIgnoreCase("%2e%2e");
  }

  // ---------------------------------------------------------------- percent-encoding

  private static final int PATH_SET = 1;
  private static final int SPECIAL_QUERY_SET = 2;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private static boolean inSet(int c, int set) {
    if (c < 0x20 || c > 0x7E) {
      return true; // the C0 control percent-encode set
    }
    switch (c) {
      case ' ', '"', '#', '<', '>':
        return true;
      case '\'':
        return set == SPECIAL_QUERY_SET;
      case '?', '^', '`', '{', '}':
        return set == PATH_SET;
      default:
        return false;
    }
  }

  private static void percentEncode(int c, int set, StringBuilder out) {
    if (!inSet(c, set)) {
      out.append((char) c);
      return;
    }
    byte[] bytes = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
    for (byte b : bytes) {
      out.append('%').append(HEX[(b >> 4) & 15]).append(HEX[b & 15]);
    }
  }

  // ---------------------------------------------------------------- hosts

  /** The host parser for a special URL: IPv6, or a domain (IDNA) that may be an IPv4 address. */
  static String parseHost(String input) throws InvalidUrlException {
    if (input.startsWith("[")) {
      if (!input.endsWith("]") || input.length() < 2) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "unclosed [");
      }
      return "[" + Ipv6.serialise(Ipv6.parse(input.substring(1, input.length() - 1))) + "]";
    }
    String domain = input.indexOf('%') < 0 ? input : utf8DecodeLenient(percentDecode(input));
    String ascii = domainToAscii(domain);
    for (int i = 0; i < ascii.length(); i++) {
      if (isForbiddenDomainCodePoint(ascii.charAt(i))) {
        throw new InvalidUrlException(
            InvalidUrlException.Reason.BAD_HOST, "forbidden code point in host: " + input);
      }
    }
    if (endsInANumber(ascii)) {
      return Ipv4.serialise(Ipv4.parse(ascii));
    }
    return ascii;
  }

  private static String domainToAscii(String domain) throws InvalidUrlException {
    boolean ascii = true;
    for (int i = 0; i < domain.length() && ascii; i++) {
      ascii = domain.charAt(i) < 0x80;
    }
    String lower;
    if (ascii) {
      // the standard's carve-out: an ASCII domain is only lower-cased (no Punycode check)
      lower = domain.toLowerCase(Locale.ROOT);
      if (lower.isEmpty()) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "empty host");
      }
      return lower;
    } else {
      // IDN treats U+3002, U+FF0E and U+FF61 as label separators; UTS #46 maps them to '.'
      try {
        lower =
            (hasDeviation(domain)
                    ? deviationsKept(domain)
                    : IDN.toASCII(domain, IDN.ALLOW_UNASSIGNED))
                .toLowerCase(Locale.ROOT);
      } catch (IllegalArgumentException e) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not IDNA: " + domain);
      }
    }
    if (lower.isEmpty()) {
      throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "empty host");
    }
    // UTS #46 with IgnoreInvalidPunycode=false: an "xn--" label must decode
    if (lower.contains("xn--")) {
      for (String label : lower.split("\\.", -1)) {
        if (label.startsWith("xn--") && !validPunycode(label)) {
          throw new InvalidUrlException(
              InvalidUrlException.Reason.BAD_HOST, "bad punycode: " + label);
        }
      }
    }
    return lower;
  }

  /** ß and final sigma: valid in UTS #46 (non-transitional, as browsers), mapped by IDNA 2003. */
  private static boolean isDeviation(int c) {
    return c == '\u00DF' || c == '\u03C2';
  }

  private static boolean hasDeviation(String s) {
    return s.indexOf('\u00DF') >= 0 || s.indexOf('\u03C2') >= 0;
  }

  /**
   * IDNA for a domain with ß or ς: each label that holds one is mapped piece by piece between them
   * (by {@link IDN}, so the pieces get IDNA 2003's case folding and normalisation), the ß and ς are
   * kept as UTS #46 keeps them, and the label is Punycode-encoded; the other labels go through
   * {@link IDN} whole.
   */
  private static String deviationsKept(String domain) {
    StringBuilder out = new StringBuilder();
    int start = 0;
    for (int i = 0; i <= domain.length(); i++) {
      char c = i < domain.length() ? domain.charAt(i) : '.';
      if (c == '.' || c == '\u3002' || c == '\uFF0E' || c == '\uFF61') {
        String label = domain.substring(start, i);
        if (out.length() > 0 || i < domain.length()) {
          out.append(start == 0 ? "" : ".");
        }
        if (!hasDeviation(label)) {
          out.append(label.isEmpty() ? "" : IDN.toASCII(label, IDN.ALLOW_UNASSIGNED));
        } else {
          StringBuilder u = new StringBuilder();
          int p = 0;
          for (int j = 0; j <= label.length(); j++) {
            if (j == label.length() || isDeviation(label.charAt(j))) {
              String piece = label.substring(p, j);
              if (!piece.isEmpty()) {
                u.append(
                    IDN.toUnicode(IDN.toASCII(piece, IDN.ALLOW_UNASSIGNED), IDN.ALLOW_UNASSIGNED)
                        .toLowerCase(Locale.ROOT));
              }
              if (j < label.length()) {
                u.append(label.charAt(j));
              }
              p = j + 1;
            }
          }
          String mapped = Normalizer.normalize(u, Normalizer.Form.NFC);
          out.append("xn--").append(punycode(mapped));
        }
        start = i + 1;
      }
    }
    return out.toString();
  }

  /** RFC 3492 Punycode encoding of one label (without the {@code xn--} prefix). */
  static String punycode(String label) {
    int[] cps = label.codePoints().toArray();
    StringBuilder out = new StringBuilder();
    for (int c : cps) {
      if (c < 0x80) {
        out.append((char) c);
      }
    }
    int b = out.length();
    int h = b;
    if (b > 0) {
      out.append('-');
    }
    long n = 128;
    long delta = 0;
    long bias = 72;
    while (h < cps.length) {
      long m = Long.MAX_VALUE;
      for (int c : cps) {
        if (c >= n && c < m) {
          m = c;
        }
      }
      delta += (m - n) * (h + 1);
      n = m;
      for (int c : cps) {
        if (c < n) {
          delta++;
        }
        if (c == n) {
          long q = delta;
          for (int k = 36; ; k += 36) {
            long t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
            if (q < t) {
              break;
            }
            out.append(punyDigit(t + (q - t) % (36 - t)));
            q = (q - t) / (36 - t);
          }
          out.append(punyDigit(q));
          bias = adapt(delta, h + 1, h == b);
          delta = 0;
          h++;
        }
      }
      delta++;
      n++;
      if (delta > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("label too long for Punycode");
      }
    }
    return out.toString();
  }

  private static char punyDigit(long d) {
    return (char) (d < 26 ? 'a' + d : '0' + d - 26);
  }

  private static long adapt(long delta, int numPoints, boolean first) {
    long d = first ? delta / 700 : delta / 2;
    d += d / numPoints;
    int k = 0;
    while (d > 455) {
      d /= 35;
      k += 36;
    }
    return k + 36 * d / (d + 38);
  }

  /**
   * Whether an {@code xn--} label is a valid A-label: its rest decodes by RFC 3492 (Punycode) to a
   * string with at least one non-ASCII code point.
   */
  static boolean validPunycode(String label) {
    String in = label.substring(4);
    if (in.isEmpty()) {
      return false;
    }
    final int base = 36;
    final int tmin = 1;
    final int tmax = 26;
    int delim = in.lastIndexOf('-');
    int out = Math.max(delim, 0);
    for (int k = 0; k < out; k++) {
      if (in.charAt(k) >= 0x80) {
        return false;
      }
    }
    long n = 128;
    long i = 0;
    long bias = 72;
    boolean nonAscii = false;
    int pos = delim > 0 ? delim + 1 : 0;
    while (pos < in.length()) {
      long oldi = i;
      long w = 1;
      for (int k = base; ; k += base) {
        if (pos >= in.length()) {
          return false;
        }
        char c = in.charAt(pos++);
        int digit =
            c >= 'a' && c <= 'z'
                ? c - 'a'
                : c >= 'A' && c <= 'Z' ? c - 'A' : c >= '0' && c <= '9' ? c - '0' + 26 : -1;
        if (digit < 0) {
          return false;
        }
        i += digit * w;
        long t = k <= bias ? tmin : k >= bias + tmax ? tmax : k - bias;
        if (i > Integer.MAX_VALUE || w > Integer.MAX_VALUE) {
          return false;
        }
        if (digit < t) {
          break;
        }
        w *= base - t;
      }
      out++;
      // bias adaptation
      long delta = oldi == 0 ? (i - oldi) / 700 : (i - oldi) / 2;
      delta += delta / out;
      int k = 0;
      while (delta > ((base - tmin) * tmax) / 2) {
        delta /= base - tmin;
        k += base;
      }
      bias = k + ((base - tmin + 1) * delta) / (delta + 38);
      n += i / out;
      i %= out;
      if (n > Character.MAX_CODE_POINT || (n >= 0xD800 && n <= 0xDFFF)) {
        return false;
      }
      if (n >= 0x80) {
        nonAscii = true;
      }
      i++;
    }
    return nonAscii;
  }

  private static boolean isForbiddenDomainCodePoint(char c) {
    if (c <= 0x20 || c == 0x7F) {
      return true;
    }
    return "#/:<>?@[\\]^|%".indexOf(c) >= 0;
  }

  /** The standard's "ends in a number": the last label (a trailing dot aside) is an IPv4 number. */
  static boolean endsInANumber(String s) {
    int end = s.length();
    if (end > 0 && s.charAt(end - 1) == '.') {
      if (end == 1) {
        return false;
      }
      end--;
    }
    int start = s.lastIndexOf('.', end - 1) + 1;
    if (start >= end) {
      return false;
    }
    boolean digits = true;
    for (int i = start; i < end && digits; i++) {
      digits = isAsciiDigit(s.charAt(i));
    }
    if (digits) {
      return true;
    }
    char c0 = s.charAt(start);
    if (c0 != '0'
        || end - start < 2
        || (s.charAt(start + 1) != 'x' && s.charAt(start + 1) != 'X')) {
      return false; // only a hexadecimal number can hold letters
    }
    return Ipv4.number(s.substring(start, end)) >= 0;
  }

  private static byte[] percentDecode(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    if (s.indexOf('%') < 0) {
      return bytes;
    }
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
    return Arrays.copyOf(out, n);
  }

  private static String utf8DecodeLenient(byte[] b) {
    try {
      CharBuffer cb =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPLACE)
              .onUnmappableCharacter(CodingErrorAction.REPLACE)
              .decode(ByteBuffer.wrap(b));
      String s = cb.toString();
      return !s.isEmpty() && s.charAt(0) == '\uFEFF' ? s.substring(1) : s;
    } catch (CharacterCodingException e) {
      return new String(b, StandardCharsets.UTF_8);
    }
  }

  // ---------------------------------------------------------------- small helpers

  private static boolean isAsciiAlpha(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  static boolean isAsciiDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static String cpString(int c) {
    return c == EOF ? "" : new String(Character.toChars(c));
  }

  // ---------------------------------------------------------------- IPv4

  /** The standard's IPv4 parser and serialiser. */
  static final class Ipv4 {
    private Ipv4() {}

    /** The value of one part, or -1 for a part that is not an IPv4 number (no overflow cap). */
    static long number(String s) {
      if (s.isEmpty()) {
        return -1;
      }
      int radix = 10;
      String d = s;
      if (d.length() >= 2 && d.charAt(0) == '0' && (d.charAt(1) == 'x' || d.charAt(1) == 'X')) {
        radix = 16;
        d = d.substring(2);
      } else if (d.length() >= 2 && d.charAt(0) == '0') {
        radix = 8;
        d = d.substring(1);
      }
      if (d.isEmpty()) {
        return 0;
      }
      long v = 0;
      for (int i = 0; i < d.length(); i++) {
        int digit = Character.digit(d.charAt(i), radix);
        if (digit < 0 || d.charAt(i) >= 0x80) {
          return -1;
        }
        // saturate: anything above 2^32 fails the range checks the same way
        v = Math.min(v * radix + digit, 1L << 40);
      }
      return v;
    }

    static long parse(String s) throws InvalidUrlException {
      String[] parts = s.split("\\.", -1);
      int n = parts.length;
      if (parts[n - 1].isEmpty() && n > 1) {
        n--;
      }
      if (n > 4) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not an IPv4: " + s);
      }
      long[] numbers = new long[n];
      for (int i = 0; i < n; i++) {
        numbers[i] = number(parts[i]);
        if (numbers[i] < 0) {
          throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not an IPv4: " + s);
        }
      }
      for (int i = 0; i < n - 1; i++) {
        if (numbers[i] > 255) {
          throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not an IPv4: " + s);
        }
      }
      if (numbers[n - 1] >= 1L << (8 * (5 - n))) {
        throw new InvalidUrlException(InvalidUrlException.Reason.BAD_HOST, "not an IPv4: " + s);
      }
      long ipv4 = numbers[n - 1];
      for (int i = 0; i < n - 1; i++) {
        ipv4 += numbers[i] << (8 * (3 - i));
      }
      return ipv4;
    }

    static String serialise(long a) {
      return ((a >> 24) & 255) + "." + ((a >> 16) & 255) + "." + ((a >> 8) & 255) + "." + (a & 255);
    }
  }

  // ---------------------------------------------------------------- IPv6

  /** The standard's IPv6 parser and serialiser. */
  static final class Ipv6 {
    private Ipv6() {}

    private static InvalidUrlException bad(String s) {
      return new InvalidUrlException(
          InvalidUrlException.Reason.BAD_HOST, "not an IPv6: [" + s + "]");
    }

    static int[] parse(String s) throws InvalidUrlException {
      int[] address = new int[8];
      int pieceIndex = 0;
      int compress = -1;
      int p = 0;
      int len = s.length();
      if (p < len && s.charAt(p) == ':') {
        if (p + 1 >= len || s.charAt(p + 1) != ':') {
          throw bad(s);
        }
        p += 2;
        pieceIndex++;
        compress = pieceIndex;
      }
      while (p < len) {
        if (pieceIndex == 8) {
          throw bad(s);
        }
        if (s.charAt(p) == ':') {
          if (compress != -1) {
            throw bad(s);
          }
          p++;
          pieceIndex++;
          compress = pieceIndex;
          continue;
        }
        int value = 0;
        int length = 0;
        while (length < 4 && p < len && hex(s.charAt(p)) >= 0) {
          value = value * 16 + hex(s.charAt(p));
          p++;
          length++;
        }
        if (p < len && s.charAt(p) == '.') {
          if (length == 0) {
            throw bad(s);
          }
          p -= length;
          if (pieceIndex > 6) {
            throw bad(s);
          }
          int numbersSeen = 0;
          while (p < len) {
            int ipv4Piece = -1;
            if (numbersSeen > 0) {
              if (s.charAt(p) == '.' && numbersSeen < 4) {
                p++;
              } else {
                throw bad(s);
              }
            }
            if (p >= len || !isAsciiDigit(s.charAt(p))) {
              throw bad(s);
            }
            while (p < len && isAsciiDigit(s.charAt(p))) {
              int number = s.charAt(p) - '0';
              if (ipv4Piece == -1) {
                ipv4Piece = number;
              } else if (ipv4Piece == 0) {
                throw bad(s);
              } else {
                ipv4Piece = ipv4Piece * 10 + number;
              }
              if (ipv4Piece > 255) {
                throw bad(s);
              }
              p++;
            }
            address[pieceIndex] = address[pieceIndex] * 0x100 + ipv4Piece;
            numbersSeen++;
            if (numbersSeen == 2 || numbersSeen == 4) {
              pieceIndex++;
            }
          }
          if (numbersSeen != 4) {
            throw bad(s);
          }
          break;
        } else if (p < len && s.charAt(p) == ':') {
          p++;
          if (p >= len) {
            throw bad(s);
          }
        } else if (p < len) {
          throw bad(s);
        }
        address[pieceIndex] = value;
        pieceIndex++;
      }
      if (compress != -1) {
        int swaps = pieceIndex - compress;
        pieceIndex = 7;
        while (pieceIndex != 0 && swaps > 0) {
          int t = address[pieceIndex];
          address[pieceIndex] = address[compress + swaps - 1];
          address[compress + swaps - 1] = t;
          pieceIndex--;
          swaps--;
        }
      } else if (pieceIndex != 8) {
        throw bad(s);
      }
      return address;
    }

    private static int hex(char c) {
      return c < 0x80 ? Character.digit(c, 16) : -1;
    }

    /** Lower-case hex, the first longest run of two or more zero pieces compressed to "::". */
    static String serialise(int[] a) {
      int bestStart = -1;
      int bestLen = 1;
      for (int i = 0; i < 8; ) {
        if (a[i] == 0) {
          int j = i;
          while (j < 8 && a[j] == 0) {
            j++;
          }
          if (j - i > bestLen) {
            bestStart = i;
            bestLen = j - i;
          }
          i = j;
        } else {
          i++;
        }
      }
      StringBuilder sb = new StringBuilder(40);
      boolean ignore0 = false;
      for (int i = 0; i < 8; i++) {
        if (ignore0 && a[i] == 0) {
          continue;
        }
        ignore0 = false;
        if (i == bestStart) {
          sb.append(i == 0 ? "::" : ":");
          ignore0 = true;
          continue;
        }
        sb.append(Integer.toHexString(a[i]));
        if (i != 7) {
          sb.append(':');
        }
      }
      return sb.toString();
    }
  }
}
