package io.webindex.fluo;

import io.webindex.store.metrics.Metrics;
import java.util.List;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.core.metrics.ReporterStarter;

/**
 * Adds the figures of every Fluo environment of this process (an oracle's, a worker's, a client's:
 * transactions committed, failed, their collisions, notifications queued, …) to the process's
 * Prometheus figures ({@link Metrics}). Fluo finds it like its own reporters (Java's {@code
 * ServiceLoader}, {@code META-INF/services}) and calls it whenever an environment starts.
 *
 * <p>It hands Fluo something to close only when no other reporter is enabled: Fluo refuses more
 * than one reporter with its default histogram reservoir (which resets on every read); otherwise
 * the registry stays included until the closed environment is garbage.
 */
public final class FluoMetricsBridge implements ReporterStarter {
  @Override
  public List<AutoCloseable> start(Params params) {
    Metrics.include(params.getMetricRegistry());
    FluoConfiguration fc = new FluoConfiguration(params.getConfiguration());
    boolean otherReporter = false;
    for (String r : List.of("jmx", "console", "csv", "graphite", "slf4j")) {
      otherReporter |= fc.getReporterConfiguration(r).getBoolean("enable", false);
    }
    if (otherReporter) {
      return List.of();
    }
    return List.of(() -> Metrics.exclude(params.getMetricRegistry()));
  }
}
