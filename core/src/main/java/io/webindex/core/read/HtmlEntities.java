package io.webindex.core.read;

import org.jsoup.nodes.Entities;

/**
 * Decodes HTML character references the way the HTML tokenizer does, for the text a WAT record
 * carries: titles and anchor texts (text) and {@code href}, {@code Base} and {@code title}
 * attribute values (attributes).
 *
 * <ul>
 *   <li>Named references: all of HTML's named character references (the 2,231 entries of the HTML
 *       Standard's table, taken from jsoup's copy of it), the longest match wins. The legacy names
 *       that HTML allows without {@code ;} ({@code &amp}, {@code &eacute}, {@code &copy} …) are
 *       decoded without it too: in text always ({@code &notit;} → {@code ¬it;}), in an attribute
 *       only when the next character is neither {@code =} nor a letter or digit ({@code
 *       ?a=1&copy=2} stays as written).
 *   <li>Numeric references {@code &#ddd;} and {@code &#xhhh;} (the {@code ;} is optional): 0,
 *       surrogates and values above U+10FFFF become U+FFFD, 0x80–0x9F are read as Windows-1252
 *       ({@code &#150;} → {@code –}), as browsers do.
 *   <li>Anything else ({@code &unknown;}, {@code &#;}, a lone {@code &}) stays as written.
 * </ul>
 *
 * <p>Linear in the length of the text: after each {@code &} at most {@link #MAX_NAME} characters of
 * a name are looked at, and a numeric reference's digits are read once.
 */
final class HtmlEntities {
  /** Longest name looked for after {@code &}: the longest HTML name has 31 characters. */
  static final int MAX_NAME = 32;

  /** Longest legacy name (one that may be written without {@code ;}), e.g. {@code middot}. */
  private static final int MAX_LEGACY = 6;

  /** The HTML tokenizer's replacements for numeric references 0x80–0x9F (Windows-1252). */
  private static final char[] C1 = {
    '\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
    '\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
    '\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
    '\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178'
  };

  private HtmlEntities() {}

  /** Decodes {@code s} as text (a title, an anchor text). */
  static String decode(String s) {
    return decode(s, false);
  }

  /** Decodes {@code s} as an attribute value ({@code href}, {@code title}). */
  static String decodeAttribute(String s) {
    return decode(s, true);
  }

  static String decode(String s, boolean inAttribute) {
    if (s == null || s.indexOf('&') < 0) {
      return s;
    }
    int n = s.length();
    StringBuilder sb = new StringBuilder(n);
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (c == '&' && i + 1 < n) {
        int end = s.charAt(i + 1) == '#' ? numeric(s, i + 2, sb) : named(s, i + 1, inAttribute, sb);
        if (end > 0) {
          i = end;
          continue;
        }
      }
      sb.append(c);
      i++;
    }
    return sb.toString();
  }

  /**
   * Appends the named reference starting at {@code from} (after '&').
   *
   * @return where the text after it starts, or -1 when there is none there (nothing appended)
   */
  private static int named(String s, int from, boolean inAttribute, StringBuilder sb) {
    int n = s.length();
    int run = from;
    while (run < n && run - from <= MAX_NAME && isAsciiAlphanumeric(s.charAt(run))) {
      run++;
    }
    if (run == from) {
      return -1;
    }
    if (run < n && s.charAt(run) == ';' && run - from <= MAX_NAME) {
      String name = s.substring(from, run);
      if (Entities.isNamedEntity(name)) {
        sb.append(Entities.getByName(name));
        return run + 1;
      }
    }
    // the longest legacy name that the run starts with, decoded without ';'
    for (int k = Math.min(run - from, MAX_LEGACY); k > 0; k--) {
      String name = s.substring(from, from + k);
      if (Entities.isBaseNamedEntity(name)) {
        int next = from + k;
        if (inAttribute
            && next < n
            && (s.charAt(next) == '=' || isAsciiAlphanumeric(s.charAt(next)))) {
          return -1; // "&copy=2" in a URL's query stays as written
        }
        sb.append(Entities.getByName(name));
        return next;
      }
    }
    return -1;
  }

  /**
   * Appends the numeric reference whose '#' is just before {@code from}.
   *
   * @return where the text after it starts, or -1 when there is none there (nothing appended)
   */
  private static int numeric(String s, int from, StringBuilder sb) {
    int n = s.length();
    int i = from;
    int radix = 10;
    if (i < n && (s.charAt(i) == 'x' || s.charAt(i) == 'X')) {
      radix = 16;
      i++;
    }
    int digits = i;
    long cp = 0;
    while (i < n) {
      char d = s.charAt(i);
      int v = d < 0x80 ? Character.digit(d, radix) : -1; // ASCII digits only
      if (v < 0) {
        break;
      }
      cp = Math.min(cp * radix + v, 0x110000L); // saturated: too large is too large
      i++;
    }
    if (i == digits) {
      return -1; // "&#;", "&#x;", "&#-1": not a reference
    }
    if (i < n && s.charAt(i) == ';') {
      i++;
    }
    if (cp == 0 || cp > Character.MAX_CODE_POINT || (cp >= 0xD800 && cp <= 0xDFFF)) {
      sb.append('\uFFFD');
    } else if (cp >= 0x80 && cp <= 0x9F) {
      sb.append(C1[(int) cp - 0x80]);
    } else {
      sb.appendCodePoint((int) cp);
    }
    return i;
  }

  private static boolean isAsciiAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
