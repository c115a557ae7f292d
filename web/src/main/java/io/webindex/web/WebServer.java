package io.webindex.web;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.handlers.BlockingHandler;
import io.webindex.core.config.SecurityConfig;
import io.webindex.core.config.WebindexConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.accumulo.core.client.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/webindex serve}: the read-only web application (docs/web.md) on Undertow. Every
 * request passes, in order: its measurement ({@link WebMetrics}), the handlers in front ({@link
 * Guard}: the access log, the method and size limits, the per-client rate limit, basic
 * authentication when configured), then the {@link Routes} on a worker thread (their answers scan
 * Accumulo, which blocks). The dependencies go one way: this class wires the handlers, and they
 * never call back into it.
 */
public final class WebServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebServer.class);

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
    RateLimiter limiter = new RateLimiter(options.requestsPerSecond(), System::nanoTime);
    HttpHandler chain =
        new WebMetrics(
            new Guard(
                options.auth(),
                limiter,
                new BlockingHandler(routes(options, conn, cfg, fluo).handler())));
    SecurityConfig.WebTls tls = cfg.security().webTls();
    Undertow.Builder builder = Undertow.builder();
    AtomicInteger httpsPort = new AtomicInteger(options.port());
    if (tls.enabled()) {
      // HTTPS on the port; plain HTTP only where configured, and there only a redirect
      builder.addHttpsListener(options.port(), options.bind(), Tls.context(tls));
      if (tls.redirectPort() >= 0) {
        builder.addHttpListener(tls.redirectPort(), options.bind(), Tls.redirect(httpsPort::get));
      }
    } else {
      builder.addHttpListener(options.port(), options.bind());
    }
    Undertow u =
        builder
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
          "cannot listen on "
              + options.bind()
              + ":"
              + options.port()
              + (tls.enabled() && tls.redirectPort() >= 0
                  ? " (HTTPS) and " + tls.redirectPort() + " (the redirect)"
                  : "")
              + ": "
              + rootMessage(e),
          e);
    }
    String scheme = tls.enabled() ? "https" : "http";
    InetSocketAddress bound = null;
    for (Undertow.ListenerInfo l : u.getListenerInfo()) {
      if (l.getProtcol().equals(scheme)) {
        bound = (InetSocketAddress) l.getAddress();
      } else {
        log.info("plain HTTP on {} only redirects to HTTPS", l.getAddress());
      }
    }
    httpsPort.set(bound.getPort());
    String host = bound.getAddress().getHostAddress();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    URI url = URI.create(scheme + "://" + host + ":" + bound.getPort() + "/");
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

  /** Wires the routes to their handlers; each handler gets only what it reads. */
  private static Routes routes(
      WebOptions options, Connector conn, WebindexConfig cfg, FluoProbe fluo) {
    // the served table: the run registry's served pointer, or the fixed --table
    ServedTable served =
        new ServedTable(
            conn,
            cfg,
            options.table(),
            options.servedCacheMillis(),
            () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
    OverviewCache overview = new OverviewCache(conn, cfg, fluo, options.servedCacheMillis());
    // operational detail only to authenticated users (docs/web.md, "What it shows to whom")
    boolean detail = options.showsDetail();
    Runs runs = new Runs(conn, cfg, detail);
    ReportFiles reports = new ReportFiles(options.checksDir());
    Templates templates = new Templates();
    Health health = new Health(conn, cfg, served, overview, fluo, detail);
    return new Routes(
        new JsonApi(served, runs, reports, health, detail),
        new HtmlPages(served, overview, runs, reports, templates, detail),
        reports,
        new StyleSheet(),
        new Failures(templates, detail));
  }

  /**
   * The address it answers on, e.g. {@code http://127.0.0.1:8080/}, or {@code https://…} with
   * {@code webindex.web.tls.keystore}.
   */
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
