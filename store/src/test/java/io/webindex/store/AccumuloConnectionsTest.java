package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Connecting without a cluster: what an unreachable or misnamed ZooKeeper gives. */
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
}
