package io.webindex.web;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.StatusCodes;
import io.webindex.store.StoreException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Route} and turns every failure into a status and a reason: JSON for the API (and
 * any request under {@code /api/}), an HTML page otherwise; never a stack trace.
 */
final class Failures {
  private static final Logger log = LoggerFactory.getLogger(Failures.class);

  private final Templates templates;
  private final boolean detail;

  /** What a 503 says without operational detail: no table name, no exception text. */
  static final String UNAVAILABLE = "the index cannot be answered from now (the server logs why)";

  /** A failure as answered. */
  private record Failure(int status, String message) {}

  /**
   * @param detail whether a 503 names what is missing (table names, Accumulo's message); without,
   *     it says {@link #UNAVAILABLE} and the server logs the rest
   */
  Failures(Templates templates, boolean detail) {
    this.templates = templates;
    this.detail = detail;
  }

  /**
   * {@code route} with its failures answered.
   *
   * @param api whether failures are answered in JSON whatever the path
   */
  HttpHandler safe(boolean api, Route route) {
    return ex -> {
      boolean json = api || ex.getRequestPath().startsWith("/api/");
      Failure f;
      try {
        route.handle(ex);
        return;
      } catch (Exception e) {
        f = failure(ex, e);
      }
      if (f.status() == 503 && !detail) {
        f = new Failure(503, UNAVAILABLE);
      }
      if (ex.isResponseStarted()) {
        return;
      }
      if (json) {
        Responses.sendError(ex, f.status(), f.message());
      } else {
        sendPage(ex, f);
      }
    };
  }

  /**
   * The status and reason of {@code e}; store failures are logged, unexpected ones with a trace.
   */
  private static Failure failure(HttpServerExchange ex, Exception e) {
    if (e instanceof WebInput.BadRequest || e instanceof IllegalArgumentException) {
      return new Failure(400, e.getMessage());
    }
    if (e instanceof NotFound) {
      return new Failure(404, e.getMessage());
    }
    if (e instanceof ServedTable.NotServed) {
      log.info("{}: {}", AccessLog.printable(ex.getRequestPath()), e.getMessage());
      return new Failure(503, e.getMessage());
    }
    if (e instanceof StoreException) {
      log.warn("{}: {}", ex.getRequestPath(), e.getMessage());
      return new Failure(503, "the index cannot be read now: " + e.getMessage());
    }
    log.error("unexpected failure answering {}", AccessLog.printable(ex.getRequestPath()), e);
    return new Failure(500, "internal error (logged on the server)");
  }

  private void sendPage(HttpServerExchange ex, Failure f) {
    Map<String, Object> m = Templates.model("Error " + f.status());
    m.put("status", f.status());
    m.put("reason", StatusCodes.getReason(f.status()));
    m.put("message", f.message());
    ex.setStatusCode(f.status());
    templates.send(ex, "error", m);
  }
}
