package io.webindex.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.Connector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster pool on a pool of its own (not the build's): the first lease starts a daemon and its
 * cluster, a lease after it was given up takes over the same cluster with what it holds, and the
 * daemon stops and deletes the cluster once nobody leased it for its idle time.
 */
class ClusterPoolIT {
  @TempDir Path pool;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aGivenUpClusterIsTakenOverAndStopsWhenIdle() throws Exception {
    String classPath =
        ClusterPool.daemonClassPath().orElseThrow(() -> new AssertionError("no daemon class path"));
    String before = System.getProperty(ClusterPool.IDLE_PROPERTY);
    System.setProperty(ClusterPool.IDLE_PROPERTY, "3");
    ClusterPool.Lease first;
    try {
      first = ClusterPool.lease(pool, classPath, Duration.ofMinutes(3));
    } finally {
      if (before == null) {
        System.clearProperty(ClusterPool.IDLE_PROPERTY);
      } else {
        System.setProperty(ClusterPool.IDLE_PROPERTY, before);
      }
    }
    ClusterPool.Cluster c = first.cluster();
    assertTrue(first.started(), "the first lease starts the daemon");
    assertTrue(Files.isDirectory(c.dir()), c.dir().toString());
    rootOf(c).tableOperations().create("left_by_the_first");
    first.close();

    try (ClusterPool.Lease second = ClusterPool.lease(pool, classPath, Duration.ofMinutes(3))) {
      assertFalse(second.started(), "a free cluster is taken over, not started");
      assertEquals(first.slot(), second.slot());
      assertEquals(c, second.cluster());
      assertTrue(rootOf(c).tableOperations().exists("left_by_the_first"));
    }

    ProcessHandle daemon = ProcessHandle.of(c.daemonPid()).orElse(null);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (daemon != null && daemon.isAlive() && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(250);
    }
    assertFalse(daemon != null && daemon.isAlive(), "the daemon stopped after its idle time");
    assertFalse(Files.exists(first.slot().resolve(ClusterPool.READY)));
    assertFalse(Files.exists(c.dir()), "the cluster's directory is deleted");
    assertTrue(
        Files.readString(first.slot().resolve(ClusterPool.DAEMON_LOG)).contains("stopping: idle"),
        Files.readString(first.slot().resolve(ClusterPool.DAEMON_LOG)));
  }

  private static Connector rootOf(ClusterPool.Cluster c) throws Exception {
    return AccumuloITBase.connect(
        c.instanceName(), c.zookeepers(), AccumuloITBase.ROOT_USER, AccumuloITBase.ROOT_PASSWORD);
  }
}
