package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Cell#compareBytes} is the unsigned order of the UTF-8 bytes — Accumulo's — which the
 * encoded forms themselves are the oracle of: random strings of ASCII, accented letters, CJK, chars
 * beyond U+FFFF, the chars above the surrogates (U+E000..U+FFFF) and lone surrogates.
 */
class CellOrderTest {
  private static final char[] ALPHABET = {
    'a', 'b', 'z', '/', ':', '~', '\u007f', '\u00e9', '\u00ff', '\u0100', '\u4e2d', '\ud7ff',
    '\ue000', '\uffff', '\ufffd'
  };

  private static String random(Random r) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      int pick = r.nextInt(ALPHABET.length + 3);
      if (pick < ALPHABET.length) {
        sb.append(ALPHABET[pick]);
      } else if (pick == ALPHABET.length) {
        sb.appendCodePoint(0x10000 + r.nextInt(0x100000)); // a pair of surrogates
      } else if (pick == ALPHABET.length + 1) {
        sb.append((char) (0xd800 + r.nextInt(0x400))); // a lone high surrogate
      } else {
        sb.append((char) (0xdc00 + r.nextInt(0x400))); // a lone low surrogate
      }
    }
    return sb.toString();
  }

  private static int bytes(String a, String b) {
    return Integer.signum(
        Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void theOrderOfTheUtf8Bytes() {
    Random r = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      String a = random(r);
      String b = r.nextInt(4) == 0 ? a + random(r) : random(r);
      assertEquals(bytes(a, b), Integer.signum(Cell.compareBytes(a, b)), a + " | " + b);
      assertEquals(bytes(b, a), Integer.signum(Cell.compareBytes(b, a)), b + " | " + a);
    }
  }

  @Test
  void handPicked() {
    for (List<String> pair :
        List.of(
            List.of("a", "b"),
            List.of("ab", "abc"),
            List.of("z", "\u00e9"),
            List.of("\u00e9", "\u4e2d"),
            List.of("\uffff", "\ud83d\ude00"),
            List.of("\ue000", "\ud800\udc00"))) {
      assertEquals(
          -1, Integer.signum(Cell.compareBytes(pair.get(0), pair.get(1))), pair.toString());
      assertEquals(1, Integer.signum(Cell.compareBytes(pair.get(1), pair.get(0))), pair.toString());
    }
    assertEquals(0, Cell.compareBytes("p:com.a/x", "p:com.a/x"));
  }
}
