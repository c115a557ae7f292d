package io.webindex.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How answers are sent: JSON bodies, the JSON error document, redirects, and the security headers
 * every answer carries. Shared by the handlers in front ({@link Guard}) and the routes.
 */
final class Responses {
  static final String JSON_TYPE = "application/json; charset=utf-8";
  static final String HTML_TYPE = "text/html; charset=utf-8";
  static final HttpString CONTENT_SECURITY_POLICY = new HttpString("Content-Security-Policy");

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final HttpString X_CONTENT_TYPE_OPTIONS = new HttpString("X-Content-Type-Options");
  private static final HttpString X_FRAME_OPTIONS = new HttpString("X-Frame-Options");
  private static final HttpString REFERRER_POLICY = new HttpString("Referrer-Policy");

  private Responses() {}

  /** The headers of every answer: no sniffing, no framing, nothing loaded from elsewhere. */
  static void securityHeaders(HttpServerExchange ex) {
    ex.getResponseHeaders()
        .put(X_CONTENT_TYPE_OPTIONS, "nosniff")
        .put(X_FRAME_OPTIONS, "DENY")
        .put(
            CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self';"
                + " frame-ancestors 'none'")
        .put(REFERRER_POLICY, "same-origin");
  }

  /** {@code {"status", "error", "message"}} with that status. */
  static void sendError(HttpServerExchange ex, int status, String message) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", status);
    m.put("error", StatusCodes.getReason(status));
    m.put("message", message);
    ex.setStatusCode(status);
    sendJson(ex, m);
  }

  /** {@code body} as indented JSON, never cached. */
  static void sendJson(HttpServerExchange ex, Object body) {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, JSON_TYPE);
    ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    ex.getResponseSender().send(ByteBuffer.wrap(bytes));
  }

  /** 303 See Other to {@code location}. */
  static void redirect(HttpServerExchange ex, String location) {
    ex.setStatusCode(303);
    ex.getResponseHeaders().put(Headers.LOCATION, location);
    ex.endExchange();
  }
}
