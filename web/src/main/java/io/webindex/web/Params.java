package io.webindex.web;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.PathTemplateMatch;
import java.util.Deque;

/** The raw parameters of a request; {@link WebInput} checks them. */
final class Params {
  private Params() {}

  /**
   * The query parameter {@code name}, or null when absent.
   *
   * @throws WebInput.BadRequest when it is given more than once
   */
  static String query(HttpServerExchange ex, String name) {
    Deque<String> d = ex.getQueryParameters().get(name);
    if (d == null || d.isEmpty()) {
      return null;
    }
    if (d.size() > 1) {
      throw new WebInput.BadRequest(name + " given " + d.size() + " times");
    }
    return d.getFirst();
  }

  /** The path parameter {@code name} of the route's template, or null. */
  static String path(HttpServerExchange ex, String name) {
    PathTemplateMatch m = ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
    return m == null ? null : m.getParameters().get(name);
  }
}
