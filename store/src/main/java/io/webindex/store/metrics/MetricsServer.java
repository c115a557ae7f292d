package io.webindex.store.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The Prometheus endpoint of a headless service: {@code GET /metrics} on its own port ({@code
 * webindex.metrics.port}), answered from {@link Metrics#scrape()} by one thread of the JDK's own
 * HTTP server. Anything else is a 404, a method other than GET a 405.
 */
public final class MetricsServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Listens on {@code bind:port} (port 0: any free one).
   *
   * @throws IllegalArgumentException when it cannot listen there (the port is taken, the address is
   *     not this host's), naming the configuration key
   */
  public static MetricsServer start(String bind, int port) {
    HttpServer s;
    try {
      s = HttpServer.create(new InetSocketAddress(bind, port), 8);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "cannot listen for metrics on "
              + bind
              + ":"
              + port
              + " ("
              + e.getMessage()
              + "): give each process on a host its own webindex.metrics.port",
          e);
    }
    ExecutorService ex =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "webindex-metrics");
              t.setDaemon(true);
              return t;
            });
    s.setExecutor(ex);
    s.createContext("/", MetricsServer::handle);
    s.start();
    return new MetricsServer(s, ex);
  }

  private static void handle(HttpExchange ex) throws IOException {
    try (ex) {
      int status;
      String type = "text/plain; charset=utf-8";
      byte[] body;
      if (!ex.getRequestURI().getPath().equals("/metrics")) {
        status = 404;
        body = "no such address: only /metrics\n".getBytes(StandardCharsets.UTF_8);
      } else if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
        status = 405;
        ex.getResponseHeaders().set("Allow", "GET");
        body = "only GET is answered\n".getBytes(StandardCharsets.UTF_8);
      } else {
        status = 200;
        type = Metrics.CONTENT_TYPE;
        body = Metrics.scrape().getBytes(StandardCharsets.UTF_8);
      }
      ex.getResponseHeaders().set("Content-Type", type);
      boolean head = ex.getRequestMethod().equals("HEAD");
      ex.sendResponseHeaders(status, head ? -1 : body.length);
      if (!head) {
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  /** Where it answers, e.g. {@code http://127.0.0.1:9101/metrics}. */
  public URI url() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + a.getPort() + "/metrics");
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
