package io.webindex.core.model;

/**
 * Cleans free text (titles, anchors) the same way for every input: control characters dropped, runs
 * of white space (including no-break spaces) folded to one space, trimmed, and cut to a maximum
 * length without splitting a surrogate pair. Anchor and title text therefore never holds a tab or a
 * newline.
 */
public final class Text {
  /** Longest anchor text kept, in chars. */
  public static final int MAX_ANCHOR = 512;

  /** Longest title kept, in chars. */
  public static final int MAX_TITLE = 1024;

  private Text() {}

  public static String clean(String s, int max) {
    if (s == null || s.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(Math.min(s.length(), max + 1));
    boolean pendingSpace = false;
    for (int i = 0; i < s.length() && sb.length() < max; i++) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        pendingSpace = sb.length() > 0;
      } else if (Character.isISOControl(c)) {
        continue;
      } else {
        if (pendingSpace) {
          sb.append(' ');
          pendingSpace = false;
          if (sb.length() >= max) {
            break;
          }
        }
        sb.append(c);
      }
    }
    int n = sb.length();
    if (n > max) {
      n = max;
    }
    if (n > 0 && Character.isHighSurrogate(sb.charAt(n - 1))) {
      n--;
    }
    sb.setLength(n);
    return sb.toString();
  }
}
