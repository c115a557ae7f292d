package io.webindex.web;

import io.webindex.store.FrontierQuery;
import io.webindex.store.QueryService;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * Checks request parameters before they reach the query layer: every refusal is a {@link
 * BadRequest} (HTTP 400) with the reason.
 */
final class WebInput {
  /** Longest URL accepted (browsers and crawlers rarely go beyond 2,000). */
  static final int MAX_URL_CHARS = 2048;

  /** Longest domain accepted (a host name is at most 253 characters; a URL may be typed). */
  static final int MAX_DOMAIN_CHARS = 2048;

  static final int MAX_CURSOR_CHARS = 4096;

  /** Longest instant accepted (an ISO-8601 instant with nanoseconds has 30 characters). */
  static final int MAX_INSTANT_CHARS = 64;

  /** Results per page of the web API (the command line allows more). */
  static final int MAX_LIMIT = 1000;

  static final int DEFAULT_LIMIT = 25;

  private WebInput() {}

  /** A refused parameter: HTTP 400 with this reason. */
  static final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadRequest(String reason) {
      super(reason);
    }
  }

  static String url(String raw) {
    return text("url", raw, MAX_URL_CHARS);
  }

  static String domain(String raw) {
    String d = text("domain", raw, MAX_DOMAIN_CHARS);
    if (d.contains("/") && !d.contains("://")) {
      throw new BadRequest("not a host name, URL or domain: a '/' outside a URL");
    }
    return d;
  }

  /** A search box entry: a URL or a domain. */
  static String query(String raw) {
    return text("q", raw, MAX_URL_CHARS);
  }

  static int limit(String raw) {
    if (raw == null || raw.isEmpty()) {
      return DEFAULT_LIMIT;
    }
    if (raw.length() > 5 || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new BadRequest("limit must be a whole number between 1 and " + MAX_LIMIT);
    }
    int n = Integer.parseInt(raw);
    if (n < 1 || n > Math.min(MAX_LIMIT, QueryService.MAX_LIMIT)) {
      throw new BadRequest("limit must be between 1 and " + MAX_LIMIT + ": " + n);
    }
    return n;
  }

  /** URLs of one queue at most in a frontier answer: 1 unless given. */
  static int perHost(String raw) {
    if (raw == null || raw.isEmpty()) {
      return FrontierQuery.DEFAULT_PER_HOST;
    }
    if (raw.length() > 5 || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new BadRequest("perHost must be a whole number between 1 and " + MAX_LIMIT);
    }
    int n = Integer.parseInt(raw);
    if (n < 1 || n > MAX_LIMIT) {
      throw new BadRequest("perHost must be between 1 and " + MAX_LIMIT + ": " + n);
    }
    return n;
  }

  /** The instant of a frontier answer (epoch ms): an ISO-8601 instant from 1970 on, or now. */
  /** {@link #at}, or null (now) when none is given. */
  static Long atOrNow(String raw) {
    return raw == null || raw.isEmpty() ? null : at(raw);
  }

  static long at(String raw) {
    if (raw == null || raw.isEmpty()) {
      return System.currentTimeMillis();
    }
    if (raw.length() > MAX_INSTANT_CHARS) {
      throw new BadRequest("at is too long (at most " + MAX_INSTANT_CHARS + " characters)");
    }
    long ms;
    try {
      ms = Instant.parse(raw).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      ms = -1;
    }
    if (ms < 0) {
      throw new BadRequest(
          "at must be an ISO-8601 instant from 1970 on, such as 2026-12-01T00:00:00Z");
    }
    return ms;
  }

  /** A cursor: null when absent; base64url only. The query layer checks that it fits the query. */
  static String cursor(String raw) {
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    if (raw.length() > MAX_CURSOR_CHARS) {
      throw new BadRequest("after: cursor too long");
    }
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      boolean ok =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!ok) {
        throw new BadRequest("after: not a cursor (letters, digits, '-' and '_' only)");
      }
    }
    try {
      Base64.getUrlDecoder().decode(raw);
    } catch (IllegalArgumentException e) {
      throw new BadRequest("after: not a cursor");
    }
    return raw;
  }

  private static String text(String name, String raw, int max) {
    if (raw == null || raw.isBlank()) {
      throw new BadRequest(name + " is missing");
    }
    if (raw.length() > max) {
      throw new BadRequest(
          name + " is too long (" + raw.length() + " characters, at most " + max + ")");
    }
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
        throw new BadRequest(name + " contains a control character at position " + i);
      }
    }
    return raw.strip();
  }
}
