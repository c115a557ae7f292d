package io.webindex.web;

import io.undertow.server.HttpServerExchange;

/** One address's answer; whatever it throws {@link Failures} turns into a status and a reason. */
@FunctionalInterface
interface Route {
  void handle(HttpServerExchange ex) throws Exception;
}
