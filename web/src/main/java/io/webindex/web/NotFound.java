package io.webindex.web;

/** An unknown domain, page, report or address: HTTP 404. */
final class NotFound extends RuntimeException {
  private static final long serialVersionUID = 1L;

  NotFound(String message) {
    super(message);
  }
}
