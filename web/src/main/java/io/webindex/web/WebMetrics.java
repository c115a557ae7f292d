package io.webindex.web;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.util.Headers;
import io.webindex.store.metrics.Metrics;
import java.util.concurrent.TimeUnit;

/**
 * The web application's figures (docs/metrics.md): per route, the time from the request's arrival
 * to its response's end ({@code webindex.web.latency.<route>}, a timer: Prometheus {@code
 * webindex_web_latency{route=…}}) and the responses by status ({@code
 * webindex.web.responses.<route>.<status>}: {@code webindex_web_responses{route=…,status=…}}). A
 * request refused before it reached a route (authentication, rate limit, method, size) counts under
 * the route {@code refused}. And the route {@code /metrics} itself: every figure of the process in
 * the Prometheus text format.
 */
final class WebMetrics implements HttpHandler {
  /** The route a request reached, named by {@link #route}. */
  private static final AttachmentKey<String> ROUTE = AttachmentKey.create(String.class);

  static final String REFUSED = "refused";

  private final HttpHandler next;

  /** Measures every request that {@code next} (the whole chain behind it) answers. */
  WebMetrics(HttpHandler next) {
    this.next = next;
    Metrics.startJmx();
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    long start = System.nanoTime();
    exchange.addExchangeCompleteListener(
        (ex, done) -> {
          try {
            record(ex, System.nanoTime() - start);
          } finally {
            done.proceed();
          }
        });
    next.handleRequest(exchange);
  }

  private static void record(HttpServerExchange ex, long nanos) {
    String route = ex.getAttachment(ROUTE);
    if (route == null) {
      route = REFUSED;
    }
    Metrics.registry().timer("webindex.web.latency." + route).update(nanos, TimeUnit.NANOSECONDS);
    Metrics.registry().counter("webindex.web.responses." + route + "." + ex.getStatusCode()).inc();
  }

  /**
   * {@code handler}, counted under {@code name} (letters, digits and {@code _}: a label value and a
   * JMX name part).
   */
  static HttpHandler route(String name, HttpHandler handler) {
    if (!name.matches("[a-z][a-z0-9_]*")) {
      throw new IllegalArgumentException("not a route name: " + name);
    }
    return ex -> {
      ex.putAttachment(ROUTE, name);
      handler.handleRequest(ex);
    };
  }

  /** {@code GET /metrics}: the Prometheus text format. */
  static void scrape(HttpServerExchange ex) {
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, Metrics.CONTENT_TYPE);
    ex.getResponseSender().send(Metrics.scrape());
  }
}
