package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.metrics.Metrics;
import io.webindex.store.metrics.MetricsServer;
import java.io.PrintWriter;

/**
 * What a long-running service (an oracle, a worker, {@code load --watch}) publishes while it runs:
 * its figures over JMX always, and {@code GET /metrics} on {@code webindex.metrics.port} when that
 * is set (docs/metrics.md).
 */
final class ServiceMetrics {
  private ServiceMetrics() {}

  /**
   * Starts publishing; closing the result stops the endpoint (JMX stays for the process's life).
   *
   * @throws IllegalArgumentException when the endpoint cannot listen on its port
   */
  static AutoCloseable start(WebindexConfig cfg, PrintWriter progress) {
    Metrics.startJmx();
    if (cfg.metricsPort() == 0) {
      return () -> {};
    }
    MetricsServer server = MetricsServer.start(cfg.metricsBind(), cfg.metricsPort());
    if (progress != null) {
      progress.printf("metrics (Prometheus text) on %s%n", server.url());
      progress.flush();
    }
    return server::close;
  }

  /** Closes what {@link #start} returned without letting a failure hide the caller's. */
  static void stop(AutoCloseable metrics) {
    try {
      metrics.close();
    } catch (Exception e) {
      // the endpoint's thread is a daemon: nothing is left behind that outlives the process
    }
  }
}
