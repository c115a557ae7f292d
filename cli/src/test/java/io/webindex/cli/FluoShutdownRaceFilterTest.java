package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.RejectedExecutionException;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.apache.log4j.PropertyConfigurator;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The two shipped log configurations (the built-in one and conf/'s example) drop Curator's ERRORs
 * of a stopping Fluo client (a worker's refused task, a listener interrupted as the client closes)
 * and let everything else through, that logger's other errors included.
 */
class FluoShutdownRaceFilterTest {
  private static final String CACHE =
      "org.apache.curator.framework.recipes.cache.PathChildrenCache";

  private final PrintStream stderr = System.err;

  @AfterEach
  void restore() {
    System.setErr(stderr);
    LogManager.resetConfiguration();
    URL testConfig = getClass().getClassLoader().getResource("log4j.properties");
    if (testConfig != null) {
      PropertyConfigurator.configure(testConfig);
    }
  }

  @Test
  void theBuiltInConfiguration() throws IOException {
    assertLogs(Path.of("src/main/resources/log4j.properties"));
  }

  @Test
  void theShippedExample() throws IOException {
    assertLogs(Path.of("../conf/log4j.properties.example"));
  }

  private void assertLogs(Path file) throws IOException {
    Properties config = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      config.load(in);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    // the console appender takes System.err as it is configured
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    LogManager.resetConfiguration();
    PropertyConfigurator.configure(config);
    Logger cache = Logger.getLogger(CACHE);
    cache.error("", new RejectedExecutionException("refused by a terminated pool (race)"));
    cache.error(
        "", new InterruptedException("a listener asking ZooKeeper as the client closes (race)"));
    cache.error("", new IllegalStateException("a real failure of the cache"));
    // the oracle listener of a closing client: its Curator closed, its leader selector let go
    cache.error(
        "",
        fromOracleListener(
            new IllegalStateException(
                "instance must be started before calling this method (race)")));
    cache.error(
        "", fromOracleListener(new NullPointerException("this.leaderSelector is null (race)")));
    // an oracle that stops: its leader node gone between the listener's two questions
    cache.error(
        "",
        fromOracleListener(
            new KeeperException.NoNodeException("/oracle/server/_c_1-lock-0000000000 (race)")));
    // another listener's null pointer is a failure, and so is ZooKeeper's NoNode elsewhere
    cache.error("", new NullPointerException("a null pointer of another listener"));
    cache.error("", new KeeperException.NoNodeException("/another/node of another listener"));
    cache.error("no exception at all");
    Logger.getLogger("org.apache.curator.framework.imps.CuratorFrameworkImpl")
        .error("another logger", new RejectedExecutionException("of another logger"));
    // the same refusal met on ZooKeeper's event thread, logged by ZooKeeper's client
    Logger zookeeper = Logger.getLogger("org.apache.zookeeper.ClientCnxn");
    zookeeper.error(
        "Error while calling watcher",
        refused("the cache's watcher refused by a terminated pool (race)", CACHE + "$1"));
    zookeeper.error(
        "Error while calling watcher",
        refused("another watcher's refused task", "org.example.SomeWatcher"));
    IllegalStateException failure =
        new IllegalStateException("another failure of a watcher, its stack through the cache");
    failure.setStackTrace(refused("", CACHE + "$1").getStackTrace());
    zookeeper.error("Error while calling watcher", failure);
    System.err.flush();
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertFalse(out.contains("(race)"), out);
    assertTrue(out.contains("a real failure of the cache"), out);
    assertTrue(out.contains("no exception at all"), out);
    assertTrue(out.contains("of another logger"), out);
    assertTrue(out.contains("another watcher's refused task"), out);
    assertTrue(out.contains("a null pointer of another listener"), out);
    assertTrue(out.contains("/another/node of another listener"), out);
    assertTrue(out.contains("another failure of a watcher"), out);
    assertEquals(7, out.lines().filter(l -> l.contains("ERROR")).count(), out);
  }

  /** {@code e} thrown from the oracle listener of a Fluo client, as Curator's cache calls it. */
  private static <T extends Exception> T fromOracleListener(T e) {
    e.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(
              "org.apache.curator.framework.recipes.leader.LeaderSelector",
              "getLeader",
              "LeaderSelector.java",
              338),
          new StackTraceElement(
              "org.apache.fluo.core.oracle.OracleClient$TimestampRetriever",
              "childEvent",
              "OracleClient.java",
              138),
          new StackTraceElement(CACHE + "$5", "apply", "PathChildrenCache.java", 516)
        });
    return e;
  }

  /** A refused task whose stack passes through {@code watcher}'s process method, as ZooKeeper's. */
  private static RejectedExecutionException refused(String message, String watcher) {
    RejectedExecutionException e = new RejectedExecutionException(message);
    e.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(
              "java.util.concurrent.ThreadPoolExecutor", "reject", "ThreadPoolExecutor.java", 833),
          new StackTraceElement(watcher, "process", "Watcher.java", 100),
          new StackTraceElement(
              "org.apache.zookeeper.ClientCnxn$EventThread", "processEvent", "ClientCnxn.java", 532)
        });
    return e;
  }
}
