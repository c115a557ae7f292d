package io.webindex.core.read;

import java.util.Map;

/**
 * Decodes the HTML character references that WAT extraction leaves in attribute values and titles
 * ({@code &amp;}, {@code &#3659;}, {@code &#x26;} and the common named ones). Unknown or malformed
 * references stay as they are.
 *
 * <p>Linear in the length of the text: a reference is at most {@link #MAX_REF} chars between {@code
 * &} and {@code ;}, so after each {@code &} at most that many chars are looked at, never the rest
 * of the text (a title made of millions of {@code &} decodes in one pass).
 */
final class HtmlEntities {
  private static final Map<String, String> NAMED =
      Map.of("amp", "&", "lt", "<", "gt", ">", "quot", "\"", "apos", "'", "nbsp", "\u00a0");

  /**
   * Longest reference looked for between {@code &} and {@code ;}: {@code #x0010FFFF} with a few
   * leading zeros; the named ones are shorter.
   */
  static final int MAX_REF = 11;

  private HtmlEntities() {}

  static String decode(String s) {
    if (s == null || s.indexOf('&') < 0) {
      return s;
    }
    int n = s.length();
    StringBuilder sb = new StringBuilder(n);
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (c == '&') {
        int limit = Math.min(n, i + 2 + MAX_REF); // '&', up to MAX_REF chars, ';'
        int semi = -1;
        for (int j = i + 1; j < limit; j++) {
          char d = s.charAt(j);
          if (d == ';') {
            semi = j;
            break;
          }
          if (d == '&') {
            break; // a new reference starts here; this one is not one
          }
        }
        if (semi > i + 1 && appendRef(s, i + 1, semi, sb)) {
          i = semi + 1;
          continue;
        }
      }
      sb.append(c);
      i++;
    }
    return sb.toString();
  }

  /** Appends the decoded reference {@code s[from, to)} (without '&' and ';'); false if none. */
  private static boolean appendRef(String s, int from, int to, StringBuilder sb) {
    if (s.charAt(from) != '#') {
      String named = NAMED.get(s.substring(from, to));
      if (named == null) {
        return false;
      }
      sb.append(named);
      return true;
    }
    int i = from + 1;
    int radix = 10;
    if (i < to && (s.charAt(i) == 'x' || s.charAt(i) == 'X')) {
      radix = 16;
      i++;
    }
    if (i == to) {
      return false;
    }
    int cp = 0;
    for (; i < to; i++) {
      int d = Character.digit(s.charAt(i), radix);
      if (d < 0 || s.charAt(i) > 'f') { // ASCII digits only, not other scripts' digits
        return false;
      }
      cp = cp * radix + d;
      if (cp > Character.MAX_CODE_POINT) {
        return false;
      }
    }
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    sb.appendCodePoint(cp);
    return true;
  }
}
