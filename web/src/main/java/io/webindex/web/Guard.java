package io.webindex.web;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The handlers in front of the routes, in order: the access log and the security headers, the
 * method and size limits, the per-client rate limit, basic authentication when configured. A
 * refused request is answered with the JSON error document and goes no further.
 */
final class Guard implements HttpHandler {
  /** Longest request target (path and query) accepted. */
  static final int MAX_TARGET_CHARS = 8192;

  private final RateLimiter limiter;
  private final byte[] expected;
  private final HttpHandler next;

  /**
   * @param auth the user and password required, or null for none
   */
  Guard(WebOptions.BasicAuth auth, RateLimiter limiter, HttpHandler next) {
    this.limiter = limiter;
    this.expected = auth == null ? null : authorization(auth);
    this.next = next;
  }

  private static byte[] authorization(WebOptions.BasicAuth auth) {
    String pair = auth.user() + ":" + auth.password();
    return ("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)))
        .getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    AccessLog.onComplete(exchange, System.nanoTime());
    Responses.securityHeaders(exchange);
    if (refusedMethod(exchange)
        || refusedSize(exchange)
        || refusedRate(exchange)
        || refusedAuth(exchange)) {
      return;
    }
    next.handleRequest(exchange);
  }

  private static boolean refusedMethod(HttpServerExchange exchange) {
    if (exchange.getRequestMethod().equals(Methods.GET)) {
      return false;
    }
    exchange.getResponseHeaders().put(Headers.ALLOW, "GET");
    Responses.sendError(exchange, 405, "only GET is answered");
    return true;
  }

  private static boolean refusedSize(HttpServerExchange exchange) {
    if (exchange.getRequestURI().length() + exchange.getQueryString().length() > MAX_TARGET_CHARS) {
      Responses.sendError(exchange, 414, "request target longer than " + MAX_TARGET_CHARS);
      return true;
    }
    if (exchange.getRequestContentLength() > 0
        || exchange.getRequestHeaders().contains(Headers.TRANSFER_ENCODING)) {
      Responses.sendError(exchange, 413, "requests carry no body");
      return true;
    }
    return false;
  }

  private boolean refusedRate(HttpServerExchange exchange) {
    if (limiter.allow(AccessLog.client(exchange))) {
      return false;
    }
    exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
    Responses.sendError(exchange, 429, "too many requests: slow down");
    return true;
  }

  private boolean refusedAuth(HttpServerExchange exchange) {
    if (expected == null) {
      return false;
    }
    String given = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
    byte[] g = given == null ? new byte[0] : given.getBytes(StandardCharsets.UTF_8);
    if (MessageDigest.isEqual(expected, g)) {
      return false;
    }
    exchange
        .getResponseHeaders()
        .put(Headers.WWW_AUTHENTICATE, "Basic realm=\"webindex\", charset=\"UTF-8\"");
    Responses.sendError(exchange, 401, "authentication required");
    return true;
  }
}
