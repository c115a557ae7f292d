package io.webindex.store.metrics;

import com.codahale.metrics.JmxReporter;
import com.codahale.metrics.MetricRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.dropwizard.samplebuilder.CustomMappingSampleBuilder;
import io.prometheus.client.dropwizard.samplebuilder.MapperConfig;
import io.prometheus.client.exporter.common.TextFormat;
import io.prometheus.client.hotspot.DefaultExports;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The figures of this process, in one place: webindex's own Dropwizard {@link MetricRegistry}
 * (names {@code webindex.*}), published over JMX in the domain {@code webindex} once {@link
 * #startJmx()} ran, and as Prometheus text ({@link #scrape()}: the same figures, the JVM's, and
 * those of the Fluo environments of this process that {@link #include} added). docs/metrics.md
 * names every figure.
 */
public final class Metrics {
  /** The JMX domain of webindex's own figures. */
  public static final String JMX_DOMAIN = "webindex";

  /** The content type of {@link #scrape()}: the Prometheus text format 0.0.4. */
  public static final String CONTENT_TYPE = TextFormat.CONTENT_TYPE_004;

  private static final MetricRegistry REGISTRY = new MetricRegistry();
  private static final CollectorRegistry PROMETHEUS = new CollectorRegistry(true);

  /** Registries of other libraries (Fluo's), held weakly: one that is closed and gone drops out. */
  private static final Set<MetricRegistry> INCLUDED =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private static JmxReporter jmx;

  static {
    // per-route web figures as one family with labels (route, status) instead of a name per route
    CustomMappingSampleBuilder labelled =
        new CustomMappingSampleBuilder(
            List.of(
                new MapperConfig(
                    "webindex.web.latency.*", "webindex_web_latency", Map.of("route", "${0}")),
                new MapperConfig(
                    "webindex.web.responses.*.*",
                    "webindex_web_responses",
                    Map.of("route", "${0}", "status", "${1}"))));
    new DropwizardExports(REGISTRY, labelled).register(PROMETHEUS);
    new IncludedRegistries().register(PROMETHEUS);
    DefaultExports.register(PROMETHEUS);
  }

  private Metrics() {}

  /** webindex's own registry of this process. */
  public static MetricRegistry registry() {
    return REGISTRY;
  }

  /**
   * Publishes webindex's figures over JMX (the platform MBean server, domain {@value #JMX_DOMAIN});
   * a second call does nothing.
   */
  public static synchronized void startJmx() {
    if (jmx == null) {
      jmx = JmxReporter.forRegistry(REGISTRY).inDomain(JMX_DOMAIN).build();
      jmx.start();
    }
  }

  /**
   * Adds another registry (a Fluo environment's) to the Prometheus figures for as long as it is in
   * use; it is held weakly.
   */
  public static void include(MetricRegistry other) {
    INCLUDED.add(other);
  }

  /** Removes a registry {@link #include} added. */
  public static void exclude(MetricRegistry other) {
    INCLUDED.remove(other);
  }

  /** The registries {@link #include} added that are still in use. */
  public static List<MetricRegistry> included() {
    synchronized (INCLUDED) {
      return new ArrayList<>(INCLUDED);
    }
  }

  /** Every figure of this process in the Prometheus text format 0.0.4. */
  public static String scrape() {
    StringWriter w = new StringWriter();
    try {
      TextFormat.write004(w, PROMETHEUS.metricFamilySamples());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  /**
   * The included registries as one collector: families of the same name merged, a sample that an
   * earlier registry gave already (same name and labels) left out, so that the text stays valid
   * when two Fluo environments of one process (an oracle and a worker) count under the same names.
   */
  private static final class IncludedRegistries extends Collector {
    @Override
    public List<MetricFamilySamples> collect() {
      List<MetricRegistry> registries = included();
      Map<String, MetricFamilySamples> families = new LinkedHashMap<>();
      Set<String> seen = new HashSet<>();
      for (MetricRegistry r : registries) {
        for (MetricFamilySamples f : new DropwizardExports(r).collect()) {
          MetricFamilySamples merged =
              families.computeIfAbsent(
                  f.name, n -> new MetricFamilySamples(n, f.type, f.help, new ArrayList<>()));
          for (MetricFamilySamples.Sample s : f.samples) {
            if (seen.add(s.name + s.labelNames + s.labelValues)) {
              merged.samples.add(s);
            }
          }
        }
      }
      return new ArrayList<>(families.values());
    }
  }
}
