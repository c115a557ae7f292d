package io.webindex.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Edge cases of URL keys and domains that the mutation check (docs/testing.md) found unpinned.
 * Every expected key is written by hand from the rules of docs/semantics.md (RFC 3986 dot segments
 * and percent-encoding, RFC 5952 for IPv6, DNS label and name lengths).
 */
class UrlEdgesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://a.com/a/b/.             | com.a/a/b/
          http://a.com/a/b/..            | com.a/a/
          http://a.com/a/./b             | com.a/a/b
          http://a.com/a/b/../../..      | com.a
          http://a.com/%61%7A%41%5A%30%39 | com.a/azAZ09
          http://a.com/%7e%2d%2e%5f      | com.a/~-._
          http://a.com/a!b$c             | com.a/a!b$c
          http://@a.com/x                | com.a/x
          http://10.0.0.9/x              | 10.0.0.9/x
          http://010.000.000.011/        | 8.0.0.9
          http://192.168.100.255/        | 192.168.100.255
          http://255.255.255.255:8080/   | 255.255.255.255:8080
          http://[2001:db8:0:0:1:0:0:1]/ | [2001:db8::1:0:0:1]
          http://[2001:0:0:1:0:0:0:1]/   | [2001:0:0:1::1]
          http://[2001:db8:0:1:1:1:1:1]/ | [2001:db8:0:1:1:1:1:1]
          https://A.COM:443/             | com.a:s
          HTTP://A.COM:80/?              | com.a
          """)
  void keys(String url, String key) throws Exception {
    WebUrl u = WebUrl.parse(url);
    assertEquals(key, u.key());
    assertEquals(key, WebUrl.fromKey(key).key());
  }

  /** A DNS label has at most 63 characters and a name at most 253. */
  @Test
  void labelAndNameLengths() throws Exception {
    String a63 = "a".repeat(63);
    assertEquals("com." + a63, WebUrl.parse("http://" + a63 + ".com/").key());
    InvalidUrlException e =
        assertThrows(InvalidUrlException.class, () -> WebUrl.parse("http://" + a63 + "a.com/"));
    assertEquals(InvalidUrlException.Reason.BAD_HOST, e.reason());
    // 3 labels of 63 and their dots (192 chars), then 57 + ".com" (61): 253 in all
    String host253 = (a63 + ".").repeat(3) + "b".repeat(57) + ".com";
    assertEquals(253, host253.length());
    assertEquals(host253, WebUrl.parse("http://" + host253 + "/").host());
    InvalidUrlException e254 =
        assertThrows(
            InvalidUrlException.class,
            () -> WebUrl.parse("http://" + (a63 + ".").repeat(3) + "b".repeat(58) + ".com/"));
    assertEquals(InvalidUrlException.Reason.BAD_HOST, e254.reason());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "http://256.1.1.1/",
        "http://1.2.3.1000/",
        "http://1.2.3.4.5/",
        "http://010.000.000.009/",
        "http://0x100000000/"
      })
  void notAnIpv4(String url) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(url));
    assertEquals(InvalidUrlException.Reason.BAD_HOST, e.reason());
  }

  /** A scheme is letters first, then letters, digits, '+', '-' or '.': all but http(s) refused. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "javascript:alert(1)",
        "data:text/html,x",
        "z39.50r://a.com/",
        "Zz09+.-A://a.com/",
        "Aa://a.com/"
      })
  void otherSchemes(String url) {
    InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> WebUrl.parse(url));
    assertEquals(InvalidUrlException.Reason.UNSUPPORTED_SCHEME, e.reason(), url);
  }

  @Test
  void equalityIsTheNormalisedUrl() throws Exception {
    assertEquals(WebUrl.parse("HTTP://A.com:80/x#f"), WebUrl.parse("http://a.com/x"));
    assertNotEquals(WebUrl.parse("http://a.com/x"), WebUrl.parse("http://a.com/y"));
    assertNotEquals(WebUrl.parse("http://a.com/x"), WebUrl.parse("https://a.com/x"));
    assertNotEquals(WebUrl.parse("http://a.com/x"), "http://a.com/x");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://pvt.k12.ma.us/        | us.ma.k12.pvt
          http://www.pvt.k12.ma.us/    | us.ma.k12.pvt.www
          http://10.0.0.9/             | 10.0.0.9
          http://a.b.c.com/            | com.c
          https://[::1]:8443/x         | [::1]
          """)
  void domains(String url, String domain) throws Exception {
    WebUrl u = WebUrl.parse(url);
    assertEquals(domain, Domains.of(u));
    assertEquals(domain, Domains.ofKey(u.key()));
  }
}
