package io.webindex.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.params.provider.ValueSource;

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
          http://010.0.0.1/                    | http://8.0.0.1/                    | 8.0.0.1
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
          http://1.2.3.4.5/           | BAD_HOST
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
    List<String> skipped = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String raw = RandomUrls.url(rnd);
      WebUrl url;
      try {
        url = WebUrl.parse(raw);
      } catch (InvalidUrlException e) {
        skipped.add(raw + " " + e.reason());
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
    assertEquals(List.of(), skipped, "RandomUrls makes only valid URLs: none is skipped");
  }

  /**
   * The keys {@code fromKey} reads without the parser give exactly what the parser gives, and every
   * other key goes to the parser: keys of random URLs, of the synthetic web's pages and links and
   * of the WHATWG test data, and each of them mutated (a character replaced, inserted, dropped or
   * upper-cased) into keys that are often not canonical or not keys at all.
   */
  @Test
  void plainKeysAgreeWithTheParser() {
    List<String> keys = new ArrayList<>();
    Random rnd = new Random(20261126);
    for (int i = 0; i < 20_000; i++) {
      keys.add(WebUrl.of(RandomUrls.url(rnd)).key());
    }
    int synthetic = keys.size();
    for (io.webindex.core.model.Page p :
        new io.webindex.core.synth.RandomWeb(7, 5_000).batch(0, 2_000)) {
      keys.add(p.key());
      p.links().forEach(l -> keys.add(l.key()));
    }
    synthetic = keys.size() - synthetic;
    for (WptUrlCases.Case c : WptUrlCases.cases()) {
      if (c.expected() != null) {
        try {
          keys.add(WebUrl.parse(c.expected()).key());
        } catch (InvalidUrlException e) {
          // not a web link of ours: nothing to key
        }
      }
    }
    String alphabet = "abzAZ09.-_%/?:#'~!$&()*+,;=@\\ \u00fc2EF";
    int base = keys.size();
    for (int i = 0; i < base; i++) {
      String k = keys.get(i);
      for (int m = 0; m < 4; m++) {
        int at = rnd.nextInt(k.length() + 1);
        char c = alphabet.charAt(rnd.nextInt(alphabet.length()));
        StringBuilder sb = new StringBuilder(k);
        switch (m) {
          case 0 -> sb.insert(at, c);
          case 1 ->
              sb.replace(Math.min(at, k.length() - 1), Math.min(at, k.length() - 1) + 1, "" + c);
          case 2 -> sb.deleteCharAt(Math.min(at, k.length() - 1));
          default -> sb.replace(0, sb.length(), k.toUpperCase(java.util.Locale.ROOT));
        }
        keys.add(sb.toString());
      }
    }
    int plain = 0;
    int plainSynthetic = 0;
    for (int i = 0; i < keys.size(); i++) {
      String k = keys.get(i);
      WebUrl fast = k.isEmpty() ? null : WebUrl.fromPlainKey(k);
      assertEquals(fast == null ? -1 : fast.hostKey().length(), WebUrl.plainHostEnd(k), k);
      if (fast == null) {
        if (i % 16 == 0) {
          assertDomainAsTheParserGives(k); // the parser's reading, as before: a sample
        }
        continue;
      }
      plain++;
      if (i >= 20_000 && i < 20_000 + synthetic) {
        plainSynthetic++;
      }
      WebUrl parsed;
      try {
        parsed = WebUrl.fromKeyParsed(k);
      } catch (InvalidUrlException e) {
        throw new AssertionError("read without the parser, refused by it: " + k + " " + e, e);
      }
      assertEquals(parsed.toString(), fast.toString(), k);
      if (i % 4 == 0) {
        assertEquals(Domains.of(parsed), Domains.ofKey(k), k); // the domains: a quarter
      }
      assertEquals(k, fast.key(), k);
      assertEquals(parsed.hostKey(), fast.hostKey(), k);
    }
    // the plain reading is the common one (the synthetic web's IP hosts go to the parser), and the
    // mutations reach both sides of it
    assertTrue(plainSynthetic > synthetic * 3 / 4, plainSynthetic + " of " + synthetic);
    assertTrue(plain < keys.size() * 3 / 4, plain + " of " + keys.size());
  }

  /** {@link Domains#ofKey}: the domain of the URL the parser reads from the key, or a refusal. */
  private static void assertDomainAsTheParserGives(String k) {
    String want;
    try {
      want = Domains.of(WebUrl.fromKeyParsed(k));
    } catch (InvalidUrlException e) {
      want = "refused";
    }
    assertEquals(want, domainOrRefusal(Domains::ofKey, k), k);
  }

  /** The domain {@code domains} gives a key, or "refused" when it refuses the key. */
  private static String domainOrRefusal(
      java.util.function.Function<String, String> domains, String key) {
    try {
      return domains.apply(key);
    } catch (IllegalArgumentException e) {
      return "refused";
    }
  }

  /**
   * A plain key is read without the parser only while its URL is at most {@link WebUrl#MAX_LENGTH}
   * characters long (then the parser refuses it): the length counted from the key's parts, with and
   * without a port, a query and a path, at the limit and one over it.
   */
  @Test
  void plainKeysUpToTheLongestUrl() {
    for (String prefix : List.of("com.example", "com.example:8080", "com.example:8443s")) {
      int hostEnd = prefix.indexOf(':') < 0 ? prefix.length() : prefix.indexOf(':');
      assertEquals(hostEnd, WebUrl.plainHostEnd(prefix), "the root, no path in the key");
      // the URL of the root ends with its path "/"
      int origin = WebUrl.fromPlainKey(prefix).toString().length() - 1;
      for (String shape : List.of("/", "/a?")) {
        for (int over = -1; over <= 1; over++) {
          String key =
              prefix + shape + "x".repeat(WebUrl.MAX_LENGTH + over - origin - shape.length());
          int length;
          try {
            length = WebUrl.fromKeyParsed(key).toString().length();
          } catch (InvalidUrlException e) {
            length = Integer.MAX_VALUE; // too long for the parser
          }
          assertEquals(over <= 0, length <= WebUrl.MAX_LENGTH, key);
          assertEquals(over <= 0, WebUrl.fromPlainKey(key) != null, key);
          assertEquals(over <= 0 ? hostEnd : -1, WebUrl.plainHostEnd(key), key);
        }
      }
    }
  }

  /**
   * {@link Domains#remembering} gives {@link Domains#ofKey}'s answers and refusals, also after it
   * has forgotten the hosts it knew.
   */
  @Test
  void rememberedDomainsAreTheDomainsOfTheKeys() {
    java.util.function.Function<String, String> remembering = Domains.remembering(3);
    Random rnd = new Random(11);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      String key = WebUrl.of(RandomUrls.url(rnd)).key();
      if (i % 7 == 0) {
        key = key.toUpperCase(java.util.Locale.ROOT);
      }
      keys.add(key);
      assertEquals(domainOrRefusal(Domains::ofKey, key), domainOrRefusal(remembering, key), key);
    }
    // in key order, host by host (the last host answers), and hosts that extend the last one
    java.util.Collections.sort(keys);
    keys.addAll(
        List.of(
            "com.example/a", "com.example/b", "com.examples/c", "com.example.www/d", "com.ex/e"));
    java.util.function.Function<String, String> sorted = Domains.remembering(3);
    for (String key : keys) {
      assertEquals(domainOrRefusal(Domains::ofKey, key), domainOrRefusal(sorted, key), key);
    }
  }

  /**
   * All keys of one origin (host, scheme and port) other than its bare root sort as one contiguous
   * block starting with the origin's prefix and '/'; the bare root sorts before that block. (Only a
   * bare root can be separated from the rest of its host, by the host's own sub-domains and
   * hyphenated extensions: the schema fixes the root key as the bare host.)
   */
  @Test
  void keysOfOneOriginStayContiguous() throws Exception {
    Random rnd = new Random(7);
    List<String> keys = new ArrayList<>();
    Map<String, String> originOf = new HashMap<>();
    List<String> rootsExpected = new ArrayList<>();
    List<String> rootsFound = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      String raw = RandomUrls.url(rnd);
      WebUrl url = WebUrl.parse(raw);
      String key = url.key();
      int hostEnd = key.startsWith("[") ? key.indexOf(']') : 0;
      int slash = key.indexOf('/', hostEnd);
      String origin = slash < 0 ? key : key.substring(0, slash);
      keys.add(key);
      originOf.put(key, origin);
      if (isBareRoot(raw)) {
        rootsExpected.add(raw);
      }
      if (slash < 0) {
        rootsFound.add(raw);
      }
    }
    // the loop below skips the bare roots: exactly the URLs that an independent look at the raw
    // text calls a bare root (a fifth or so of RandomUrls' URLs have no path and no query)
    assertEquals(rootsExpected, rootsFound);
    assertFalse(rootsFound.isEmpty());
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

  /**
   * Whether a RandomUrls URL is a bare root (path {@code /} and no query), judged from its raw text
   * with a dot-segment removal written here (RFC 3986 5.2.4 on the segments RandomUrls uses).
   */
  static boolean isBareRoot(String raw) {
    String rest = raw.replaceFirst("^https?://", "");
    int hash = rest.indexOf('#');
    rest = hash < 0 ? rest : rest.substring(0, hash);
    if (rest.contains("?")) {
      return false; // RandomUrls' queries are never empty
    }
    int hostEnd = rest.startsWith("[") ? rest.indexOf(']') : 0;
    int slash = rest.indexOf('/', hostEnd);
    if (slash < 0) {
      return true;
    }
    String[] segments = rest.substring(slash + 1).split("/", -1);
    java.util.Deque<String> out = new java.util.ArrayDeque<>();
    for (int i = 0; i < segments.length; i++) {
      boolean last = i == segments.length - 1;
      String seg = segments[i];
      if (seg.equals(".") || seg.equals("..")) {
        if (seg.equals("..") && !out.isEmpty()) {
          out.removeLast();
        }
        if (last) {
          out.addLast("");
        }
      } else {
        out.addLast(seg);
      }
    }
    return out.isEmpty() || (out.size() == 1 && out.peekFirst().isEmpty());
  }

  @Test
  void bareRootJudgementByHand() {
    assertTrue(isBareRoot("http://a.com"));
    assertTrue(isBareRoot("a.com/"));
    assertTrue(isBareRoot("https://[::1]:8443/./#f"));
    assertTrue(isBareRoot("http://a.com/x/.."));
    assertFalse(isBareRoot("http://a.com//"));
    assertFalse(isBareRoot("http://a.com/?q=1"));
    assertFalse(isBareRoot("http://a.com/x"));
  }

  // ------------------------------------------------------------------ hostile and odd URLs

  /** URLs without a host: refused, whatever else they carry. */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://",
        "http:///",
        "https://",
        "http:",
        "http:?x",
        "http:#x",
        "//",
        "http://:80/",
        "http://@/",
        "http://user:pw@/",
        "http://user@:8080/",
        "http://?q",
        "http://#f",
        "#",
        "?"
      })
  void noHost(String raw) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw));
    assertEquals(InvalidUrlException.Reason.BAD_HOST, e.reason(), raw);
  }

  /**
   * Only http and https: script, mail, data and every other scheme are refused, as pages and links.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "javascript:alert(1)",
        "JavaScript:void(0)",
        " javascript:x",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "mailto:someone@a.com",
        "MAILTO:x",
        "data:text/html,<script>alert(1)</script>",
        "data:image/png;base64,iVBORw0KGgo=",
        "file:///etc/passwd",
        "ftp://a.com/",
        "ws://a.com/",
        "about:blank",
        "vbscript:x",
        "user:pw@a.com"
      })
  void nonHttpSchemes(String raw) throws Exception {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw));
    assertEquals(InvalidUrlException.Reason.UNSUPPORTED_SCHEME, e.reason(), raw);
    WebUrl base = WebUrl.parse("http://a.com/dir/page.html");
    e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw, base));
    assertEquals(InvalidUrlException.Reason.UNSUPPORTED_SCHEME, e.reason(), raw);
  }

  /**
   * User info is dropped (semantics.md: a URL names the resource, not the account used to fetch it;
   * keys are host, port and path): it never reaches a key or a stored URL, and the URL with user
   * info is the same page as without. The host is what follows the last '@', as RFC 3986 and
   * browsers read it.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://user:pw@a.com/              | http://a.com/         | com.a
          http://user:s3cret@a.com:8080/x    | http://a.com:8080/x   | com.a:8080/x
          https://user@a.com/x?y=1           | https://a.com/x?y=1   | com.a:s/x?y=1
          http://us%40er:p%3Aw@a.com/        | http://a.com/         | com.a
          http://a.com@evil.com/             | http://evil.com/      | com.evil
          http://user@a.com@b.com/           | http://b.com/         | com.b
          http://:@a.com/                    | http://a.com/         | com.a
          """)
  void userInfoIsDropped(String raw, String normalised, String key) throws Exception {
    WebUrl url = WebUrl.parse(raw);
    assertEquals(normalised, url.toString());
    assertEquals(key, url.key());
    for (String secret : new String[] {"user", "pw", "s3cret", "us%40er", "@"}) {
      assertFalse(url.key().contains(secret), secret);
      assertFalse(url.toString().contains(secret), secret);
    }
    assertEquals(key, WebUrl.fromKey(key).key());
  }

  @Test
  void tenThousandCharacterUrls() {
    for (String raw :
        new String[] {
          "http://a.com/" + "x".repeat(10_000),
          "http://a.com/?q=" + "%41".repeat(3_400),
          "http://" + "a.".repeat(5_000) + "com/",
          "http://a.com/" + "é".repeat(700) // 700 chars, 4,200 once encoded
        }) {
      InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw));
      assertTrue(
          e.reason() == InvalidUrlException.Reason.TOO_LONG
              || e.reason() == InvalidUrlException.Reason.BAD_HOST,
          e.getMessage());
      assertTrue(e.getMessage().length() < 200, "the message does not carry the URL");
    }
    String longest = "http://a.com/" + "x".repeat(WebUrl.MAX_LENGTH - 13);
    assertEquals(longest, WebUrl.of(longest).toString(), "exactly the limit is fine");
  }

  /** Invalid percent-escapes are kept as text ({@code %} itself encoded), never decoded. */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://a.com/%zz               | http://a.com/%25zz               | com.a/%25zz
          http://a.com/%                 | http://a.com/%25                 | com.a/%25
          http://a.com/%4                | http://a.com/%254                | com.a/%254
          http://a.com/%%41              | http://a.com/%25A                | com.a/%25A
          http://a.com/?q=%zz&r=%        | http://a.com/?q=%25zz&r=%25      | com.a/?q=%25zz&r=%25
          http://a.com/%3A%2F%3a%3f      | http://a.com/%3A%2F%3A%3F        | com.a/%3A%2F%3A%3F
          http://a.com/%0A%09%00         | http://a.com/%0A%09%00           | com.a/%0A%09%00
          http://a.com/%e2%82            | http://a.com/%E2%82              | com.a/%E2%82
          """)
  void invalidPercentEscapes(String raw, String normalised, String key) throws Exception {
    WebUrl url = WebUrl.parse(raw);
    assertEquals(normalised, url.toString());
    assertEquals(key, url.key());
    assertEquals(url, WebUrl.fromKey(key));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://a%zz.com/",
        "http://a%00.com/",
        "http://a%ff.com/",
        "http://a.com%3A8080/",
        "http://a%2Fb.com/",
        "http://a%20b.com/",
        "http://a%40b.com/"
      })
  void invalidEscapesInHostsAreRefused(String raw) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw));
    assertEquals(InvalidUrlException.Reason.BAD_HOST, e.reason(), raw);
  }

  /**
   * IDN hosts are keyed in punycode, so the Unicode and the punycode spelling are one page. Labels
   * already in punycode ({@code xn--…}) are kept as written, lower-case: Java's IDNA 2003 cannot
   * verify IDNA 2008 labels such as {@code xn--fa-hia} (faß), and a wrong one still makes a valid,
   * reversible key.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://bücher.de/           | http://xn--bcher-kva.de/              | de.xn--bcher-kva
          http://xn--bcher-kva.de/    | http://xn--bcher-kva.de/              | de.xn--bcher-kva
          http://XN--BCHER-KVA.DE/    | http://xn--bcher-kva.de/              | de.xn--bcher-kva
          http://BÜCHER.de/           | http://xn--bcher-kva.de/              | de.xn--bcher-kva
          http://xn--fa-hia.de/       | http://xn--fa-hia.de/                 | de.xn--fa-hia
          http://faß.de/              | http://xn--fa-hia.de/                 | de.xn--fa-hia
          http://STRAßE.de/x          | http://xn--strae-oqa.de/x             | de.xn--strae-oqa/x
          http://βόλος.com/           | http://xn--nxasmm1c.com/              | com.xn--nxasmm1c
          http://ΒΌΛΟΣ.com/           | http://xn--nxasmq6b.com/              | com.xn--nxasmq6b
          http://☃.net/               | http://xn--n3h.net/                   | net.xn--n3h
          http://例え.テスト/           | http://xn--r8jz45g.xn--zckzah/        | xn--zckzah.xn--r8jz45g
          http://a.com。b/             | http://a.com.b/                       | b.com.a
          http://%62%C3%BCcher.de/    | http://xn--bcher-kva.de/              | de.xn--bcher-kva
          """)
  void idnHosts(String raw, String normalised, String key) throws Exception {
    WebUrl url = WebUrl.parse(raw);
    assertEquals(normalised, url.toString());
    assertEquals(key, url.key());
    assertEquals(url, WebUrl.fromKey(key));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://[::1]/                    | http://[::1]/                    | [::1]
          http://[::FFFF:1.2.3.4]/x        | http://[::ffff:102:304]/x        | [::ffff:102:304]/x
          http://[2001:db8:0:0:0:0:0:1]/   | http://[2001:db8::1]/            | [2001:db8::1]
          http://[2001:db8::1]:443/        | http://[2001:db8::1]:443/        | [2001:db8::1]:443
          https://[2001:db8::1]:443/       | https://[2001:db8::1]/           | [2001:db8::1]:s
          https://[2001:db8::1]:8443/a     | https://[2001:db8::1]:8443/a     | [2001:db8::1]:8443s/a
          http://[1:0:0:2:0:0:0:3]/        | http://[1:0:0:2::3]/             | [1:0:0:2::3]
          """)
  void ipv6Hosts(String raw, String normalised, String key) throws Exception {
    WebUrl url = WebUrl.parse(raw);
    assertEquals(normalised, url.toString());
    assertEquals(key, url.key());
    assertEquals(url, WebUrl.fromKey(key));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://[fe80::1%25eth0]/",
        "http://[1:2:3:4:5:6:7:8:9]/",
        "http://[::1]x/",
        "http://[]/",
        "http://[:::]/",
        "http://[g::1]/",
        "http://[::1/",
        "http://::1/"
      })
  void badIpv6HostsAreRefused(String raw) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw));
    assertTrue(
        e.reason() == InvalidUrlException.Reason.BAD_HOST
            || e.reason() == InvalidUrlException.Reason.BAD_PORT,
        raw + " " + e.reason());
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://a.com:65535/    | http://a.com:65535/    | com.a:65535
          http://a.com:1/        | http://a.com:1/        | com.a:1
          http://a.com:080/      | http://a.com/          | com.a
          http://a.com:/         | http://a.com/          | com.a
          https://a.com:80/      | https://a.com:80/      | com.a:80s
          http://a.com:443/      | http://a.com:443/      | com.a:443
          https://a.com:00443/x  | https://a.com/x        | com.a:s/x
          http://a.com:0/        | http://a.com:0/        | com.a:0
          http://a.com:00080/    | http://a.com/          | com.a
          http://a.com:0000000000000000000008080/ | http://a.com:8080/ | com.a:8080
          """)
  void ports(String raw, String normalised, String key) throws Exception {
    WebUrl url = WebUrl.parse(raw);
    assertEquals(normalised, url.toString());
    assertEquals(key, url.key());
    assertEquals(url, WebUrl.fromKey(key));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://a.com:65536/",
        "http://a.com:99999/",
        "http://a.com:+80/",
        "http://a.com:-1/",
        "http://a.com: 80/",
        "http://a.com:8o/",
        "http://a.com:123456/"
      })
  void badPortsAreRefused(String raw) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(raw));
    assertEquals(InvalidUrlException.Reason.BAD_PORT, e.reason(), raw);
  }

  /** Empty and fragment-only references are the page itself (a self link, dropped by readers). */
  @Test
  void emptyReferencesAreTheBase() throws Exception {
    WebUrl base = WebUrl.parse("http://a.com/dir/page.html?q=1");
    for (String ref : new String[] {"", " ", "#", "#top", "\t"}) {
      assertEquals(base, WebUrl.parse(ref, base), "'" + ref + "'");
    }
    assertThrows(InvalidUrlException.class, () -> WebUrl.parse("", null));
  }
}
