package io.webindex.store.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.MetricRegistry;
import io.webindex.testkit.PrometheusText;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class MetricsServerTest {
  static HttpResponse<String> get(URI uri) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void figuresAreServedAsPrometheusTextAndOverJmx() throws Exception {
    MetricRegistry r = Metrics.registry();
    r.counter("webindex.test.things").inc(7);
    r.counter("webindex.web.responses.api_top.200").inc(3);
    r.timer("webindex.web.latency.api_top").update(20, TimeUnit.MILLISECONDS);
    MetricRegistry other = new MetricRegistry();
    other.counter("fluo.system.app.tx_status_committed").inc(5);
    Metrics.include(other);
    Metrics.startJmx();
    try (MetricsServer s = MetricsServer.start("127.0.0.1", 0)) {
      HttpResponse<String> res = get(s.url());
      assertEquals(200, res.statusCode());
      assertTrue(res.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
      String text = res.body();
      assertEquals(7, PrometheusText.value(text, "webindex_test_things", Map.of()), text);
      assertEquals(
          3,
          PrometheusText.value(
              text, "webindex_web_responses", Map.of("route", "api_top", "status", "200")),
          text);
      assertEquals(
          1,
          PrometheusText.value(text, "webindex_web_latency_count", Map.of("route", "api_top")),
          text);
      assertEquals(
          5, PrometheusText.value(text, "fluo_system_app_tx_status_committed", Map.of()), text);
      assertTrue(PrometheusText.has(text, "jvm_memory_bytes_used"), "the JVM's figures too");
      assertEquals(404, get(s.url().resolve("/other")).statusCode());
    } finally {
      Metrics.exclude(other);
    }
    assertEquals(
        7L,
        ManagementFactory.getPlatformMBeanServer()
            .getAttribute(new ObjectName("webindex:name=webindex.test.things"), "Count"));
    assertFalse(PrometheusText.has(Metrics.scrape(), "fluo_system_app_tx_status_committed"));
  }

  @Test
  void aTakenPortIsAClearError() {
    try (MetricsServer s = MetricsServer.start("127.0.0.1", 0)) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class,
              () -> MetricsServer.start("127.0.0.1", s.url().getPort()));
      assertTrue(
          e.getMessage().startsWith("cannot listen for metrics on 127.0.0.1:"), e.getMessage());
      assertTrue(
          e.getMessage().endsWith("give each process on a host its own webindex.metrics.port"));
    }
  }
}
