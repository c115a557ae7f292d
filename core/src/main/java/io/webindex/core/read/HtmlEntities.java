package io.webindex.core.read;

import java.util.Map;

/**
 * Decodes the HTML character references that WAT extraction leaves in attribute values and titles
 * ({@code &amp;}, {@code &#3659;}, {@code &#x26;} and the common named ones). Unknown or malformed
 * references stay as they are.
 */
final class HtmlEntities {
  private static final Map<String, String> NAMED =
      Map.of("amp", "&", "lt", "<", "gt", ">", "quot", "\"", "apos", "'", "nbsp", "\u00a0");

  private HtmlEntities() {}

  static String decode(String s) {
    if (s == null || s.indexOf('&') < 0) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      int semi = c == '&' ? s.indexOf(';', i + 1) : -1;
      if (semi > i + 1 && semi - i <= 12) {
        String ref = s.substring(i + 1, semi);
        String decoded = decodeRef(ref);
        if (decoded != null) {
          sb.append(decoded);
          i = semi + 1;
          continue;
        }
      }
      sb.append(c);
      i++;
    }
    return sb.toString();
  }

  private static String decodeRef(String ref) {
    if (ref.charAt(0) != '#') {
      return NAMED.get(ref);
    }
    try {
      int cp =
          ref.length() > 1 && (ref.charAt(1) == 'x' || ref.charAt(1) == 'X')
              ? Integer.parseInt(ref.substring(2), 16)
              : Integer.parseInt(ref.substring(1));
      if (cp <= 0 || cp > Character.MAX_CODE_POINT || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return null;
      }
      return new String(Character.toChars(cp));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
