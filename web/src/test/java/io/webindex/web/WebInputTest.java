package io.webindex.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Parameter checks, the rate limiter and small helpers, without a server. */
class WebInputTest {
  @Test
  void limits() {
    assertEquals(25, WebInput.limit(null));
    assertEquals(25, WebInput.limit(""));
    assertEquals(1, WebInput.limit("1"));
    assertEquals(1000, WebInput.limit("1000"));
    for (String bad : new String[] {"0", "-1", "1001", "abc", "99999999999", "1.5", " 3", "+3"}) {
      WebInput.BadRequest e = assertThrows(WebInput.BadRequest.class, () -> WebInput.limit(bad));
      assertTrue(e.getMessage().startsWith("limit must be"), bad + ": " + e.getMessage());
    }
  }

  @Test
  void frontierParameters() {
    assertEquals(1, WebInput.perHost(null));
    assertEquals(1, WebInput.perHost(""));
    assertEquals(7, WebInput.perHost("7"));
    assertEquals(1000, WebInput.perHost("1000"));
    for (String bad : new String[] {"0", "-1", "1001", "abc", "99999999999", " 3"}) {
      WebInput.BadRequest e = assertThrows(WebInput.BadRequest.class, () -> WebInput.perHost(bad));
      assertTrue(e.getMessage().startsWith("perHost must be"), bad + ": " + e.getMessage());
    }
    // 2026-12-20T10:00:00Z is 1797760800000 ms (0x1a292e4d500, the frontier fixture's a.com)
    assertEquals(1797760800000L, WebInput.at("2026-12-20T10:00:00Z"));
    assertEquals(1797760800001L, WebInput.at("2026-12-20T10:00:00.001Z"));
    assertEquals(0L, WebInput.at("1970-01-01T00:00:00Z"));
    long before = System.currentTimeMillis();
    long now = WebInput.at(null);
    assertTrue(now >= before && now <= System.currentTimeMillis());
    for (String bad :
        new String[] {
          "tomorrow", "2026-12-20", "2026-12-20T10:00:00", "1969-12-31T23:59:59Z", "x".repeat(65)
        }) {
      assertThrows(WebInput.BadRequest.class, () -> WebInput.at(bad), bad);
    }
  }

  @Test
  void cursors() {
    assertNull(WebInput.cursor(null));
    assertNull(WebInput.cursor(""));
    assertEquals("dHwxMjM", WebInput.cursor("dHwxMjM"));
    for (String bad : new String[] {"a b", "a/b", "a+b", "a=", "x".repeat(4097), "é"}) {
      assertThrows(WebInput.BadRequest.class, () -> WebInput.cursor(bad), bad);
    }
    // one base64url character alone decodes to nothing valid
    assertThrows(WebInput.BadRequest.class, () -> WebInput.cursor("a"));
  }

  @Test
  void textParameters() {
    assertEquals("c.com/page1", WebInput.url(" c.com/page1 "));
    assertEquals("c.com", WebInput.domain("c.com"));
    assertEquals("http://c.com/x", WebInput.domain("http://c.com/x"));
    WebInput.BadRequest missing = assertThrows(WebInput.BadRequest.class, () -> WebInput.url(null));
    assertEquals("url is missing", missing.getMessage());
    assertThrows(WebInput.BadRequest.class, () -> WebInput.url("   "));
    WebInput.BadRequest control =
        assertThrows(WebInput.BadRequest.class, () -> WebInput.url("c.com/\u0000x"));
    assertEquals("url contains a control character at position 6", control.getMessage());
    assertThrows(WebInput.BadRequest.class, () -> WebInput.url("c.com/\u007f"));
    assertThrows(WebInput.BadRequest.class, () -> WebInput.url("c.com/\u0085"));
    WebInput.BadRequest huge =
        assertThrows(WebInput.BadRequest.class, () -> WebInput.url("x".repeat(2049)));
    assertEquals("url is too long (2049 characters, at most 2048)", huge.getMessage());
    assertThrows(WebInput.BadRequest.class, () -> WebInput.domain("a/b"));
  }

  @Test
  void rateLimiterAllowsABurstThenTheRate() {
    AtomicLong now = new AtomicLong(0);
    RateLimiter r = new RateLimiter(10, now::get);
    int allowed = 0;
    for (int i = 0; i < 100; i++) {
      allowed += r.allow("a") ? 1 : 0;
    }
    assertEquals(20, allowed, "a burst of twice the rate");
    assertFalse(r.allow("a"));
    assertTrue(r.allow("b"), "another client has its own bucket");
    now.addAndGet(500_000_000L); // half a second: five more
    allowed = 0;
    for (int i = 0; i < 100; i++) {
      allowed += r.allow("a") ? 1 : 0;
    }
    assertEquals(5, allowed);
  }

  @Test
  void readableDomainsAndPrintableLogLines() {
    assertEquals("bbc.co.uk", Links.readableDomain("uk.co.bbc"));
    assertEquals("c.com", Links.readableDomain("com.c"));
    assertEquals("1.2.3.4", Links.readableDomain("1.2.3.4"));
    assertEquals("/a\\x0d\\x0aforged \\x22x\\x22", AccessLog.printable("/a\r\nforged \"x\""));
    assertTrue(WebServer.isLoopback("127.0.0.1"));
    assertTrue(WebServer.isLoopback("::1"));
    assertFalse(WebServer.isLoopback("0.0.0.0"));
  }

  @Test
  void passwordsAreNotPrinted() {
    WebOptions.BasicAuth a = new WebOptions.BasicAuth("reader", "s3cret-value");
    assertFalse(a.toString().contains("s3cret"), a.toString());
    assertFalse(WebOptions.local(0).withAuth(a).toString().contains("s3cret"));
    assertThrows(IllegalArgumentException.class, () -> new WebOptions.BasicAuth("a:b", "x"));
    assertThrows(IllegalArgumentException.class, () -> new WebOptions.BasicAuth("a", ""));
  }
}
