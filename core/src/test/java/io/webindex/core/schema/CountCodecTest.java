package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CountCodecTest {
  /** Golden values: these strings are in every table ever written. Never change them. */
  @ParameterizedTest
  @CsvSource({
    "0, 7fffffffffffffff",
    "1, 7ffffffffffffffe",
    "3, 7ffffffffffffffc",
    "15, 7ffffffffffffff0",
    "255, 7fffffffffffff00",
    "1000000, 7ffffffffff0bdbf",
    "9223372036854775807, 0000000000000000"
  })
  void goldenValues(long n, String encoded) {
    assertEquals(encoded, CountCodec.encode(n));
    assertEquals(n, CountCodec.decode(encoded));
  }

  @Test
  void higherCountsSortFirstAndRoundTrip() {
    Random rnd = new Random(1);
    for (int i = 0; i < 100_000; i++) {
      long a = rnd.nextInt(4) == 0 ? rnd.nextInt(10) : rnd.nextLong() >>> 1;
      long b = rnd.nextInt(4) == 0 ? rnd.nextInt(10) : rnd.nextLong() >>> 1;
      String ea = CountCodec.encode(a);
      String eb = CountCodec.encode(b);
      assertEquals(CountCodec.WIDTH, ea.length());
      assertEquals(a, CountCodec.decode(ea));
      assertEquals(
          Long.signum(Long.compare(a, b)), -Integer.signum(ea.compareTo(eb)), a + " vs " + b);
    }
  }

  @Test
  void rejectsBadInput() {
    // decoding inside a row: the 16 digits after "t:" must all be there
    assertEquals(5L, CountCodec.decode("t:" + CountCodec.encode(5) + ":com.a", 2));
    assertThrows(IllegalArgumentException.class, () -> CountCodec.decode("t:7fff", 2));
    assertThrows(IllegalArgumentException.class, () -> CountCodec.decode("t:7ffffffffffffffe", 3));
    assertThrows(IllegalArgumentException.class, () -> CountCodec.encode(-1));
    assertThrows(IllegalArgumentException.class, () -> CountCodec.decode("7fff"));
    assertThrows(IllegalArgumentException.class, () -> CountCodec.decode("7ffffffffffffffG"));
    assertThrows(IllegalArgumentException.class, () -> CountCodec.decode("8000000000000000"));
    assertTrue(CountCodec.encode(2).compareTo(CountCodec.encode(1)) < 0);
  }
}
