package io.webindex.web;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.BlockingHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.webindex.core.config.WebindexConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import org.apache.accumulo.core.client.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/webindex serve}: the read-only web application (docs/web.md) on Undertow. Every
 * request passes, in order: the access log, the method and size limits, the per-client rate limit,
 * basic authentication when configured, then {@link WebApp} on a worker thread (its answers scan
 * Accumulo, which blocks).
 */
public final class WebServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebServer.class);
  private static final Logger access = LoggerFactory.getLogger("io.webindex.web.access");

  /** Longest request target (path and query) accepted. */
  static final int MAX_TARGET_CHARS = 8192;

  private final Undertow undertow;
  private final URI url;

  private WebServer(Undertow undertow, URI url) {
    this.undertow = undertow;
    this.url = url;
  }

  /**
   * Starts the web application over the Accumulo {@code conn} reaches, with the tables of {@code
   * cfg}. It only reads: scans of the query table and of the run registry.
   *
   * @throws IllegalArgumentException when the bind address is not one of this machine's, or the
   *     port is taken
   */
  public static WebServer start(WebOptions options, Connector conn, WebindexConfig cfg) {
    return start(options, conn, cfg, null);
  }

  /**
   * As {@link #start(WebOptions, Connector, WebindexConfig)}, with a probe of the Fluo applications
   * (their lag, their oracle and workers) for {@code /api/v1/health} and the home page's health
   * panel (null: neither is reported).
   */
  public static WebServer start(
      WebOptions options, Connector conn, WebindexConfig cfg, FluoProbe fluo) {
    ServedTable served =
        new ServedTable(
            conn, cfg.metaTable(), options.table(), options.servedCacheMillis(), System::nanoTime);
    WebApp app =
        new WebApp(conn, cfg, served, options.checksDir(), fluo, options.servedCacheMillis());
    RateLimiter limiter = new RateLimiter(options.requestsPerSecond(), System::nanoTime);
    HttpHandler chain = guard(options, limiter, new BlockingHandler(app.handler()));
    Undertow u =
        Undertow.builder()
            .addHttpListener(options.port(), options.bind())
            .setIoThreads(2)
            .setWorkerThreads(16)
            .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 16 * 1024)
            .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, 0L)
            .setServerOption(UndertowOptions.MAX_PARAMETERS, 16)
            .setServerOption(UndertowOptions.MAX_HEADERS, 64)
            .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 60_000)
            .setServerOption(UndertowOptions.ENABLE_HTTP2, false)
            .setHandler(chain)
            .build();
    try {
      u.start();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "cannot listen on " + options.bind() + ":" + options.port() + ": " + rootMessage(e), e);
    }
    InetSocketAddress bound = (InetSocketAddress) u.getListenerInfo().get(0).getAddress();
    String host = bound.getAddress().getHostAddress();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    URI url = URI.create("http://" + host + ":" + bound.getPort() + "/");
    if (options.auth() == null && !isLoopback(options.bind())) {
      log.warn(
          "the web application listens on {} without authentication: anyone who reaches it can"
              + " read the index (see docs/web.md, --auth-user)",
          options.bind());
    }
    log.info(
        "web application on {} (table: {})",
        url,
        options.table() == null ? "served" : options.table());
    return new WebServer(u, url);
  }

  /** The address it answers on, e.g. {@code http://127.0.0.1:8080/}. */
  public URI url() {
    return url;
  }

  public int port() {
    return url.getPort();
  }

  @Override
  public void close() {
    undertow.stop();
  }

  // ------------------------------------------------------------------ the handlers in front

  private static HttpHandler guard(WebOptions options, RateLimiter limiter, HttpHandler next) {
    byte[] expected =
        options.auth() == null
            ? null
            : ("Basic "
                    + Base64.getEncoder()
                        .encodeToString(
                            (options.auth().user() + ":" + options.auth().password())
                                .getBytes(StandardCharsets.UTF_8)))
                .getBytes(StandardCharsets.UTF_8);
    return exchange -> {
      long start = System.nanoTime();
      exchange.addExchangeCompleteListener(
          (ex, done) -> {
            logAccess(ex, start);
            done.proceed();
          });
      WebApp.securityHeaders(exchange);
      HttpString method = exchange.getRequestMethod();
      if (!method.equals(Methods.GET)) {
        exchange.getResponseHeaders().put(Headers.ALLOW, "GET");
        WebApp.sendError(exchange, 405, "only GET is answered");
        return;
      }
      if (exchange.getRequestURI().length() + exchange.getQueryString().length()
          > MAX_TARGET_CHARS) {
        WebApp.sendError(exchange, 414, "request target longer than " + MAX_TARGET_CHARS);
        return;
      }
      if (exchange.getRequestContentLength() > 0
          || exchange.getRequestHeaders().contains(Headers.TRANSFER_ENCODING)) {
        WebApp.sendError(exchange, 413, "requests carry no body");
        return;
      }
      if (!limiter.allow(clientOf(exchange))) {
        exchange.getResponseHeaders().put(Headers.RETRY_AFTER, "1");
        WebApp.sendError(exchange, 429, "too many requests: slow down");
        return;
      }
      if (expected != null) {
        String given = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        byte[] g = given == null ? new byte[0] : given.getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, g)) {
          exchange
              .getResponseHeaders()
              .put(Headers.WWW_AUTHENTICATE, "Basic realm=\"webindex\", charset=\"UTF-8\"");
          WebApp.sendError(exchange, 401, "authentication required");
          return;
        }
      }
      next.handleRequest(exchange);
    };
  }

  private static String clientOf(HttpServerExchange exchange) {
    InetSocketAddress peer = exchange.getSourceAddress();
    return peer == null || peer.getAddress() == null
        ? "unknown"
        : peer.getAddress().getHostAddress();
  }

  /**
   * One line per request: client, method, path and query (control characters escaped), status,
   * bytes sent and milliseconds. Never a header (so never credentials).
   */
  private static void logAccess(HttpServerExchange ex, long start) {
    if (!access.isInfoEnabled()) {
      return;
    }
    String target = ex.getRequestURI();
    if (!ex.getQueryString().isEmpty()) {
      target += "?" + ex.getQueryString();
    }
    access.info(
        "{} \"{} {}\" {} {} {}ms",
        clientOf(ex),
        ex.getRequestMethod(),
        printable(target),
        ex.getStatusCode(),
        ex.getResponseBytesSent(),
        (System.nanoTime() - start) / 1_000_000);
  }

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

  static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
