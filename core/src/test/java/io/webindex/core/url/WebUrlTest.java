package io.webindex.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebUrlTest {

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a.com/page1                          | http://a.com/page1                 | com.a/page1
          http://b.com/                        | http://b.com/                      | com.b
          http://b.com                         | http://b.com/                      | com.b
          www.c.com/x                          | http://www.c.com/x                 | com.c.www/x
          HTTP://WWW.C.COM:80/x#frag           | http://www.c.com/x                 | com.c.www/x
          https://a.com/                       | https://a.com/                     | com.a:s
          https://a.com:443/x                  | https://a.com/x                    | com.a:s/x
          https://a.com:8443/x                 | https://a.com:8443/x               | com.a:8443s/x
          http://a.com:8080                    | http://a.com:8080/                 | com.a:8080
          a.com:8080/x                         | http://a.com:8080/x                | com.a:8080/x
          http://1.2.3.4/x                     | http://1.2.3.4/x                   | 1.2.3.4/x
          http://010.0.0.1/                    | http://10.0.0.1/                   | 10.0.0.1
          http://[2001:DB8:0:0::1]:8080/       | http://[2001:db8::1]:8080/         | [2001:db8::1]:8080
          https://[::1]/a                      | https://[::1]/a                    | [::1]:s/a
          http://bücher.de/ä                   | http://xn--bcher-kva.de/%C3%A4     | de.xn--bcher-kva/%C3%A4
          http://a.com/a/./b/../c              | http://a.com/a/c                   | com.a/a/c
          http://a.com/%7euser/%2f             | http://a.com/~user/%2F             | com.a/~user/%2F
          http://a.com/a b                     | http://a.com/a%20b                 | com.a/a%20b
          http://a.com/?                       | http://a.com/                      | com.a
          http://a.com/?q=1                    | http://a.com/?q=1                  | com.a/?q=1
          http://a.com?q=1                     | http://a.com/?q=1                  | com.a/?q=1
          http://user:pw@a.com/                | http://a.com/                      | com.a
          http://a.com./                       | http://a.com/                      | com.a
          http://a.com/x?b=2&a=1#top           | http://a.com/x?b=2&a=1             | com.a/x?b=2&a=1
          http://a.com/p:q                     | http://a.com/p:q                   | com.a/p:q
          http:\\\\a.com\\x                    | http://a.com/x                     | com.a/x
          http://localhost:3000/               | http://localhost:3000/             | localhost:3000
          """)
  void normalisesAndKeys(String raw, String normalised, String key) throws Exception {
    WebUrl url = WebUrl.parse(raw);
    assertEquals(normalised, url.toString());
    assertEquals(key, url.key());
    assertEquals(url, WebUrl.fromKey(key));
    assertEquals(url, WebUrl.parse(url.toString()), "normalisation is idempotent");
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          mailto:x@y.com              | UNSUPPORTED_SCHEME
          javascript:void(0)          | UNSUPPORTED_SCHEME
          ftp://a.com/                | UNSUPPORTED_SCHEME
          http://                     | BAD_HOST
          http://a..com/              | BAD_HOST
          http://exa mple.com/        | BAD_HOST
          http://a.com:99999/         | BAD_PORT
          http://a.com:x/             | BAD_PORT
          http://1.2.3/               | BAD_HOST
          http://1.2.3.256/           | BAD_HOST
          http://[zz]/                | BAD_HOST
          http://[::1                 | BAD_HOST
          '   '                       | EMPTY
          """)
  void refusesInvalid(String raw, InvalidUrlException.Reason reason) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw));
    assertEquals(reason, e.reason());
  }

  @Test
  void refusesTooLong() {
    InvalidUrlException e =
        assertThrows(
            InvalidUrlException.class, () -> WebUrl.parse("http://a.com/" + "x".repeat(3000)));
    assertEquals(InvalidUrlException.Reason.TOO_LONG, e.reason());
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          x.html           | http://a.com/dir/x.html
          /root            | http://a.com/root
          ../up            | http://a.com/up
          ./               | http://a.com/dir/
          ?q=2             | http://a.com/dir/page.html?q=2
          '#frag'          | http://a.com/dir/page.html?q=1
          ''               | http://a.com/dir/page.html?q=1
          //b.com/x        | http://b.com/x
          https://c.com    | https://c.com/
          http:other       | http://a.com/dir/other
          """)
  void resolvesRelativeLinks(String ref, String expected) throws Exception {
    WebUrl base = WebUrl.parse("http://a.com/dir/page.html?q=1");
    assertEquals(expected, WebUrl.parse(ref, base).toString());
  }

  @Test
  void badKeysAreRefused() {
    for (String bad : new String[] {"", "com.a:", "com.a:x/y", "com.a?q", "[::1", "com.a:80"}) {
      assertThrows(InvalidUrlException.class, () -> WebUrl.fromKey(bad), bad);
    }
  }

  /** Random URLs: every key is printable ASCII, round-trips, and parsing is idempotent. */
  @Test
  void keysRoundTripForRandomUrls() throws Exception {
    Random rnd = new Random(42);
    for (int i = 0; i < 20_000; i++) {
      String raw = RandomUrls.url(rnd);
      WebUrl url;
      try {
        url = WebUrl.parse(raw);
      } catch (InvalidUrlException e) {
        continue;
      }
      String key = url.key();
      for (char c : key.toCharArray()) {
        assertTrue(c > 0x20 && c < 0x7f, () -> "non-printable char in key " + key);
      }
      WebUrl back = WebUrl.fromKey(key);
      assertEquals(url.toString(), back.toString(), raw);
      assertEquals(key, back.key());
      assertEquals(url, WebUrl.parse(url.toString()));
    }
  }

  /**
   * All keys of one origin (host, scheme and port) other than its bare root sort as one contiguous
   * block starting with the origin's prefix and '/'; the bare root sorts before that block. (Only a
   * bare root can be separated from the rest of its host, by the host's own sub-domains and
   * hyphenated extensions: SPEC §3 fixes the root key as the bare host.)
   */
  @Test
  void keysOfOneOriginStayContiguous() throws Exception {
    Random rnd = new Random(7);
    List<String> keys = new ArrayList<>();
    Map<String, String> originOf = new HashMap<>();
    for (int i = 0; i < 5_000; i++) {
      WebUrl url = WebUrl.parse(RandomUrls.url(rnd));
      String key = url.key();
      int hostEnd = key.startsWith("[") ? key.indexOf(']') : 0;
      int slash = key.indexOf('/', hostEnd);
      String origin = slash < 0 ? key : key.substring(0, slash);
      keys.add(key);
      originOf.put(key, origin);
    }
    List<String> sorted = keys.stream().distinct().sorted().toList();
    Map<String, Integer> first = new HashMap<>();
    Map<String, Integer> last = new HashMap<>();
    Map<String, Integer> count = new HashMap<>();
    for (int i = 0; i < sorted.size(); i++) {
      String k = sorted.get(i);
      String o = originOf.get(k);
      if (k.equals(o)) {
        continue; // the bare root
      }
      assertTrue(k.startsWith(o + "/"));
      first.putIfAbsent(o, i);
      last.put(o, i);
      count.merge(o, 1, Integer::sum);
    }
    for (String o : count.keySet()) {
      int span = last.get(o) - first.get(o) + 1;
      int rootsInside = 0;
      for (int i = first.get(o); i <= last.get(o); i++) {
        if (sorted.get(i).equals(originOf.get(sorted.get(i)))) {
          rootsInside++;
        }
      }
      assertEquals(count.get(o) + rootsInside, span, "origin " + o + " is not contiguous");
      assertEquals(0, rootsInside, "a bare root inside origin " + o);
    }
  }
}
