package io.webindex.oozie;

/**
 * The JVM options of every process oozie-it's Hadoop mini-clusters start (YARN containers, Oozie's
 * launchers, the {@code hadoop jar} children), for {@link MiniOozieCluster} and {@code YarnCycleIT}
 * alike: those of the suite's test JVMs ({@code mini.jdk.options} in the root pom,
 * docs/testing.md), which these processes do not inherit.
 */
public final class TestJvms {
  /**
   * C1 only, the serial collector and transparent huge pages for the heap, no verification of
   * class-path classes, no performance counters, and a monitor deflation check every 5 s.
   */
  public static final String FAST =
      "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UseTransparentHugePages"
          + " -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote -XX:-UsePerfData"
          + " -XX:AsyncDeflationInterval=5000";

  /**
   * JVM options of MapReduce containers and of {@code hadoop jar}: Hadoop 3.3 on JDK 17 needs
   * java.lang opened for its MapReduce application master.
   */
  public static final String CONTAINER = "--add-opens java.base/java.lang=ALL-UNNAMED " + FAST;

  private TestJvms() {}
}
