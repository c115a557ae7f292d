package io.webindex.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.files.SecretFilesTest;
import io.webindex.core.read.ReadLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebindexConfigTest {
  @Test
  void shippedExampleLoadsAndRoundTrips() {
    WebindexConfig c =
        WebindexConfig.load(Path.of("../conf/webindex.properties.example"), Map.of());
    assertEquals("accumulo", c.accumuloInstance());
    assertEquals(16, c.recomputeTablets());
    assertEquals("snappy", c.recomputeCompression());
    assertEquals("webindex_meta", c.metaTable());
    assertEquals("webindex_20261122", c.runTable("20261122"));
    WebindexConfig again = WebindexConfig.fromMap(c.toMapWithoutSecrets(), Map.of());
    assertEquals(c.toMapWithoutSecrets(), again.toMapWithoutSecrets());
  }

  @Test
  void passwordSourcesAndMasking(@TempDir Path dir) throws Exception {
    Map<String, String> m = new HashMap<>();
    assertEquals(
        "env-secret",
        WebindexConfig.fromMap(m, Map.of("WEBINDEX_ACCUMULO_PASSWORD", "env-secret"))
            .accumuloPassword()
            .value());
    Path f = dir.resolve("pw");
    Files.writeString(SecretFilesTest.privateFile(f), "file-secret\n");
    m.put(WebindexConfig.PASSWORD_FILE, f.toString());
    WebindexConfig c =
        WebindexConfig.fromMap(m, Map.of("WEBINDEX_ACCUMULO_PASSWORD", "env-secret"));
    assertEquals("file-secret", c.accumuloPassword().value());
    assertFalse(c.toString().contains("file-secret"));
    assertFalse(c.toMapWithoutSecrets().containsValue("file-secret"));
  }

  @Test
  void relativePasswordFileIsRelativeToTheConfFile(@TempDir Path dir) throws Exception {
    Files.writeString(SecretFilesTest.privateFile(dir.resolve("pw")), "s3cret");
    Files.writeString(
        dir.resolve("w.properties"),
        "webindex.accumulo.password.file=pw\nwebindex.fluo.app=wébindex\n");
    WebindexConfig c = WebindexConfig.load(dir.resolve("w.properties"), Map.of());
    assertEquals("s3cret", c.accumuloPassword().value());
    assertEquals("wébindex", c.fluoApp(), "read as UTF-8");
  }

  @Test
  void badValuesAreClearErrors() {
    assertThrows(
        IllegalArgumentException.class,
        () -> WebindexConfig.fromMap(Map.of("webindex.typo", "1"), Map.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> WebindexConfig.fromMap(Map.of(WebindexConfig.RECOMPUTE_TABLETS, "x"), Map.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> WebindexConfig.fromMap(Map.of(WebindexConfig.TABLE_PREFIX, "bad-name"), Map.of()));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WebindexConfig.fromMap(
                    Map.of(WebindexConfig.RECOMPUTE_COMPRESSION, "lzo"), Map.of()));
    assertEquals(
        "webindex.recompute.compression is one of [gz, none, snappy]: lzo", e.getMessage());
    assertEquals(
        "gz",
        WebindexConfig.fromMap(Map.of(WebindexConfig.RECOMPUTE_COMPRESSION, "gz"), Map.of())
            .recomputeCompression());
  }

  @Test
  void readLimitsAreBounded() {
    for (String bad : new String[] {"0", "-1", "1023", "268435457", "2147483647", "99999999999"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> WebindexConfig.fromMap(Map.of(WebindexConfig.MAX_RECORD_BYTES, bad), Map.of()),
              bad);
      assertTrue(
          e.getMessage().startsWith(WebindexConfig.MAX_RECORD_BYTES + " must be between"),
          e.getMessage());
      assertTrue(e.getMessage().contains("256 MiB"), e.getMessage());
    }
    for (String bad : new String[] {"0", "-5", "10000001"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> WebindexConfig.fromMap(Map.of(WebindexConfig.MAX_LINKS, bad), Map.of()),
              bad);
      assertTrue(e.getMessage().startsWith(WebindexConfig.MAX_LINKS + " must be between"));
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> WebindexConfig.fromMap(Map.of(WebindexConfig.MAX_RECORD_BYTES, "8MB"), Map.of()));
    assertEquals(
        256 << 20,
        WebindexConfig.fromMap(Map.of(WebindexConfig.MAX_RECORD_BYTES, "268435456"), Map.of())
            .readLimits()
            .maxRecordBytes());
    assertEquals(
        1024,
        WebindexConfig.fromMap(Map.of(WebindexConfig.MAX_RECORD_BYTES, " 1024 "), Map.of())
            .readLimits()
            .maxRecordBytes());
    assertThrows(IllegalArgumentException.class, () -> new ReadLimits((256 << 20) + 1, 10));
    assertThrows(IllegalArgumentException.class, () -> new ReadLimits(0, 10));
  }

  @Test
  void aPasswordFileOthersMayReadIsRefused(@TempDir Path dir) throws Exception {
    Path f = SecretFilesTest.privateFile(dir.resolve("pw"));
    Files.writeString(f, "s3cret\n");
    Files.setPosixFilePermissions(
        f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    Map<String, String> m = Map.of(WebindexConfig.PASSWORD_FILE, f.toString());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> WebindexConfig.fromMap(m, Map.of()));
    assertEquals(
        WebindexConfig.PASSWORD_FILE
            + " "
            + f
            + " may be read by other users (mode rw-r--r--): make it private to its owner with"
            + " chmod 600 "
            + f,
        e.getMessage());
    assertFalse(e.getMessage().contains("s3cret"));
  }

  @Test
  void connectTimeoutHasADefaultAndABound() {
    assertEquals(60, WebindexConfig.fromMap(Map.of(), Map.of()).connectTimeoutSeconds());
    assertEquals(
        5,
        WebindexConfig.fromMap(Map.of(WebindexConfig.CONNECT_TIMEOUT, "5"), Map.of())
            .connectTimeoutSeconds());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> WebindexConfig.fromMap(Map.of(WebindexConfig.CONNECT_TIMEOUT, "0"), Map.of()));
    assertTrue(e.getMessage().startsWith(WebindexConfig.CONNECT_TIMEOUT), e.getMessage());
  }

  @Test
  void fluoKeysPassThroughAndTheOnesWebindexSetsAreRefused() {
    Map<String, String> m = new HashMap<>();
    m.put("fluo.metrics.reporter.jmx.enable", "true");
    m.put("fluo.metrics.reporter.slf4j.enable", "true");
    m.put("fluo.tx.rollback.time", "300000");
    m.put("other.key", "ignored");
    WebindexConfig c = WebindexConfig.fromMap(m, Map.of());
    assertEquals(
        Map.of(
            "fluo.metrics.reporter.jmx.enable", "true",
            "fluo.metrics.reporter.slf4j.enable", "true",
            "fluo.tx.rollback.time", "300000"),
        c.fluoProperties());
    assertThrows(UnsupportedOperationException.class, () -> c.fluoProperties().put("fluo.x", "y"));
    for (String key :
        new String[] {
          "fluo.accumulo.password",
          "fluo.connection.zookeepers",
          "fluo.client.accumulo.user",
          "fluo.app.anything",
          "fluo.observer.provider",
          "fluo.worker.num.threads",
          "fluo.impl.worker.finder.maxSleep",
          "fluo.mini.data.dir"
        }) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> WebindexConfig.fromMap(Map.of(key, "1"), Map.of()),
              key);
      assertTrue(
          e.getMessage().startsWith("configuration key " + key + " is set by webindex itself"),
          e.getMessage());
    }
    // the ZooKeeper session timeout passes although fluo.connection.* is reserved
    assertEquals(
        Map.of("fluo.connection.zookeeper.timeout", "5000"),
        WebindexConfig.fromMap(Map.of("fluo.connection.zookeeper.timeout", "5000"), Map.of())
            .fluoProperties());
    // a reserved exact key is not a prefix: a longer key beside it passes
    assertEquals(
        Map.of("fluo.worker.num.threads.x", "1"),
        WebindexConfig.fromMap(Map.of("fluo.worker.num.threads.x", "1"), Map.of())
            .fluoProperties());
  }

  @Test
  void metricsEndpointIsOffByDefaultAndPortIsChecked() {
    WebindexConfig c = WebindexConfig.fromMap(Map.of(), Map.of());
    assertEquals(0, c.metricsPort());
    assertEquals("127.0.0.1", c.metricsBind());
    assertEquals(
        9101,
        WebindexConfig.fromMap(Map.of(WebindexConfig.METRICS_PORT, "9101"), Map.of())
            .metricsPort());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> WebindexConfig.fromMap(Map.of(WebindexConfig.METRICS_PORT, "70000"), Map.of()));
    assertEquals("webindex.metrics.port must be between 0 (none) and 65535: 70000", e.getMessage());
  }

  @Test
  void frontierPortDefaultsToTheReferenceServicesAndIsChecked() {
    assertEquals(7071, WebindexConfig.fromMap(Map.of(), Map.of()).frontierPort());
    WebindexConfig c = WebindexConfig.fromMap(Map.of("webindex.frontier.port", "0"), Map.of());
    assertEquals(0, c.frontierPort());
    assertEquals("0", c.toMapWithoutSecrets().get("webindex.frontier.port"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> WebindexConfig.fromMap(Map.of("webindex.frontier.port", "-1"), Map.of()));
    assertEquals(
        "webindex.frontier.port must be between 0 (a free one) and 65535: -1", e.getMessage());
  }
}
