package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.exit.ExitStatus;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.accumulo.core.client.ClientConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connecting without a cluster: what an unreachable or misnamed ZooKeeper gives, and the client
 * configuration each key gives, by Accumulo 1.10's client property names.
 */
class AccumuloConnectionsTest {
  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void theZooKeeperHostsAreAskedFirst() throws Exception {
    int closed = closedPort();
    try (ServerSocket listening = new ServerSocket(0)) {
      int open = listening.getLocalPort();
      assertNull(
          AccumuloConnections.unreachableZooKeepers(
              "127.0.0.1:" + closed + ",127.0.0.1:" + open + "/accumulo", Duration.ofSeconds(2)),
          "one host answers");
    }
    String why =
        AccumuloConnections.unreachableZooKeepers("127.0.0.1:" + closed, Duration.ofSeconds(2));
    assertTrue(why.startsWith("127.0.0.1:" + closed + ": "), why);
    StoreException unknown =
        assertThrows(
            StoreException.class,
            () ->
                AccumuloConnections.unreachableZooKeepers(
                    "no-such-zk-host.invalid:2181", Duration.ofSeconds(2)));
    assertEquals(ExitStatus.USAGE, Failures.exitStatus(unknown), unknown.getMessage());
  }

  @Test
  void anUnreachableZooKeeperIsTransientAndBounded(@TempDir Path dir) throws Exception {
    Path pw =
        Files.createFile(
            dir.resolve("pw"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(pw, "secret\n");
    WebindexConfig cfg =
        WebindexConfig.fromMap(
            Map.of(
                WebindexConfig.INSTANCE,
                "i",
                WebindexConfig.ZOOKEEPERS,
                "127.0.0.1:" + closedPort(),
                WebindexConfig.PASSWORD_FILE,
                pw.toString(),
                WebindexConfig.CONNECT_TIMEOUT,
                "2"),
            Map.of());
    long t0 = System.nanoTime();
    StoreUnavailableException e =
        assertThrows(StoreUnavailableException.class, () -> AccumuloConnections.connect(cfg));
    assertTrue((System.nanoTime() - t0) / 1_000_000_000L < 10, "bounded by the timeout");
    assertEquals(ExitStatus.TRANSIENT, Failures.exitStatus(e));
    assertTrue(e.getMessage().contains("no ZooKeeper answers"), e.getMessage());
    assertTrue(!e.getMessage().contains("secret"), e.getMessage());
  }

  private static Map<String, String> base() {
    Map<String, String> m = new HashMap<>();
    m.put("webindex.accumulo.instance", "inst");
    m.put("webindex.accumulo.zookeepers", "zk1:2181,zk2:2181");
    return m;
  }

  private static String get(ClientConfiguration cc, String key) {
    return cc.getString(key);
  }

  @Test
  void plainByDefault() {
    ClientConfiguration cc =
        AccumuloConnections.clientConfiguration(WebindexConfig.fromMap(base(), Map.of()));
    assertEquals("inst", get(cc, "instance.name"));
    assertEquals("zk1:2181,zk2:2181", get(cc, "instance.zookeeper.host"));
    assertFalse(cc.getBoolean("instance.rpc.sasl.enabled", false));
    assertFalse(cc.getBoolean("instance.rpc.ssl.enabled", false));
  }

  @Test
  void saslKeysMapToTheClientProperties() {
    Map<String, String> m = base();
    m.put("webindex.accumulo.sasl.enabled", "true");
    m.put("webindex.accumulo.sasl.server.primary", "acc");
    m.put("webindex.accumulo.sasl.qop", "auth-conf");
    ClientConfiguration cc =
        AccumuloConnections.clientConfiguration(WebindexConfig.fromMap(m, Map.of()));
    assertEquals("true", get(cc, "instance.rpc.sasl.enabled"));
    assertEquals("acc", get(cc, "kerberos.server.primary"));
    assertEquals("auth-conf", get(cc, "rpc.sasl.qop"));
  }

  @Test
  void sslKeysMapToTheClientProperties(@TempDir Path dir) throws Exception {
    Path ts = Files.writeString(dir.resolve("trust.jks"), "x");
    Path ks = Files.writeString(dir.resolve("key.p12"), "x");
    Path pw = Files.writeString(dir.resolve("key.pw"), "ks-pw\n");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-------"));
    Map<String, String> m = base();
    m.put("webindex.accumulo.ssl.enabled", "true");
    m.put("webindex.accumulo.ssl.truststore", ts.toString());
    ClientConfiguration trustOnly =
        AccumuloConnections.clientConfiguration(
            WebindexConfig.fromMap(
                m, Map.of("WEBINDEX_ACCUMULO_SSL_TRUSTSTORE_PASSWORD", "ts-pw")));
    assertEquals("true", get(trustOnly, "instance.rpc.ssl.enabled"));
    assertEquals(ts.toString(), get(trustOnly, "rpc.javax.net.ssl.trustStore"));
    assertEquals("ts-pw", get(trustOnly, "rpc.javax.net.ssl.trustStorePassword"));
    assertEquals("jks", get(trustOnly, "rpc.javax.net.ssl.trustStoreType"));
    assertNull(get(trustOnly, "rpc.javax.net.ssl.keyStore"));
    assertFalse(trustOnly.getBoolean("instance.rpc.ssl.clientAuth", false));

    m.put("webindex.accumulo.ssl.keystore", ks.toString());
    m.put("webindex.accumulo.ssl.keystore.type", "PKCS12");
    m.put("webindex.accumulo.ssl.keystore.password.file", pw.toString());
    ClientConfiguration both =
        AccumuloConnections.clientConfiguration(WebindexConfig.fromMap(m, Map.of()));
    assertEquals("true", get(both, "instance.rpc.ssl.clientAuth"));
    assertEquals(ks.toString(), get(both, "rpc.javax.net.ssl.keyStore"));
    assertEquals("ks-pw", get(both, "rpc.javax.net.ssl.keyStorePassword"));
    assertEquals("PKCS12", get(both, "rpc.javax.net.ssl.keyStoreType"));
  }
}
