package io.webindex.web;

import io.undertow.server.HttpServerExchange;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log ({@code io.webindex.web.access}): one line per request with client, method, path
 * and query (control characters escaped), status, bytes sent and milliseconds. Never a header (so
 * never credentials).
 */
final class AccessLog {
  private static final Logger access = LoggerFactory.getLogger("io.webindex.web.access");

  private AccessLog() {}

  /** Logs {@code ex}'s line when it completes; {@code start} is its System.nanoTime. */
  static void onComplete(HttpServerExchange exchange, long start) {
    exchange.addExchangeCompleteListener(
        (ex, done) -> {
          log(ex, start);
          done.proceed();
        });
  }

  private static void log(HttpServerExchange ex, long start) {
    if (!access.isInfoEnabled()) {
      return;
    }
    String target = ex.getRequestURI();
    if (!ex.getQueryString().isEmpty()) {
      target += "?" + ex.getQueryString();
    }
    access.info(
        "{} \"{} {}\" {} {} {}ms",
        client(ex),
        ex.getRequestMethod(),
        printable(target),
        ex.getStatusCode(),
        ex.getResponseBytesSent(),
        (System.nanoTime() - start) / 1_000_000);
  }

  /** The client's address, or {@code unknown}. */
  static String client(HttpServerExchange exchange) {
    InetSocketAddress peer = exchange.getSourceAddress();
    return peer == null || peer.getAddress() == null
        ? "unknown"
        : peer.getAddress().getHostAddress();
  }

  /**
   * {@code s} safe for one log line: control characters, quotes and backslashes escaped, at most
   * 512 characters.
   */
  static String printable(String s) {
    StringBuilder sb = new StringBuilder(Math.min(s.length(), 512));
    for (int i = 0; i < s.length() && i < 512; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (s.length() > 512) {
      sb.append("…");
    }
    return sb.toString();
  }
}
