package io.webindex.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DomainsTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://www.bbc.co.uk/news     | uk.co.bbc
          http://a.com/page1            | com.a
          http://www.c.com/x            | com.c
          https://x.y.z.c.com:8443/     | com.c
          http://1.2.3.4/               | 1.2.3.4
          http://[2001:db8::1]/         | [2001:db8::1]
          http://localhost:8080/        | localhost
          http://co.uk/                 | uk.co
          http://x.y.unknowntld/        | unknowntld.y
          http://bücher.de/             | de.xn--bcher-kva
          http://www.bücher.de/         | de.xn--bcher-kva
          http://foo.blogspot.com/      | com.blogspot.foo
          http://a.b.c.kawasaki.jp/     | jp.kawasaki.c.b
          http://city.kawasaki.jp/      | jp.kawasaki.city
          """)
  void registrableDomainReversed(String url, String domain) throws Exception {
    WebUrl u = WebUrl.parse(url);
    assertEquals(domain, Domains.of(u));
    assertEquals(domain, Domains.ofKey(u.key()));
  }

  /** Reversed domains as people write them (hand-written goldens). */
  @org.junit.jupiter.api.Test
  void readableDomains() {
    org.junit.jupiter.api.Assertions.assertEquals("bbc.co.uk", Domains.readable("uk.co.bbc"));
    org.junit.jupiter.api.Assertions.assertEquals("c.com", Domains.readable("com.c"));
    org.junit.jupiter.api.Assertions.assertEquals("localhost", Domains.readable("localhost"));
    org.junit.jupiter.api.Assertions.assertEquals("1.2.3.4", Domains.readable("1.2.3.4"));
    org.junit.jupiter.api.Assertions.assertEquals(
        "[2001:db8::1]", Domains.readable("[2001:db8::1]"));
  }
}
