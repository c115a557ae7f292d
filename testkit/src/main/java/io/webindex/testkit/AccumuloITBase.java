package io.webindex.testkit;

import io.webindex.core.files.LocalFiles;
import io.webindex.core.schema.DumpFormat;
import io.webindex.embedded.MiniAccumulo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map.Entry;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.ClientConfiguration;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.ZooKeeperInstance;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.accumulo.core.security.SystemPermission;
import org.apache.accumulo.minicluster.MiniAccumuloCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one base class for every {@code *IT}: one {@link MiniAccumuloCluster} 1.10 per test class,
 * built as {@code bin/webindex dev} builds its own ({@link MiniAccumulo}).
 *
 * <p>The cluster starts in {@link #startAccumulo()} (JUnit 5 {@code @BeforeAll}, so it runs before
 * any {@code @BeforeAll} of a subclass) in a fresh directory under {@code target/mini-accumulo} (or
 * {@code java.io.tmpdir} when there is no {@code target/}), and is stopped and deleted in {@link
 * #stopAccumulo()} ({@code @AfterAll}, after those of a subclass). Subclasses use {@link
 * #connector()} and {@link #createTable()} / {@link #newTableName()} so that each test works in its
 * own table and tests in one class do not see each other's data.
 *
 * <p>The test JVM must run with {@code JDK_JAVA_OPTIONS} as set by the root pom for
 * surefire/failsafe (see docs/stack.md): MiniAccumulo's child processes inherit it.
 *
 * <p>No password a test configures reaches a command line: MiniAccumulo runs Accumulo's {@code
 * Initialize} with the root password as an argument (visible in {@code ps} to every user of the
 * machine), so the cluster is initialised with a random throw-away root password ({@link
 * MiniAccumulo}), which is replaced by {@link #ROOT_PASSWORD} through the client API once the
 * cluster is up. The instance secret (ZooKeeper ACLs, the system user) is random per class too, not
 * MiniAccumulo's fixed default. In a class marked {@link WatchesChildProcesses}, a {@link
 * ChildProcessWatcher} records every child process's command line and environment while the class
 * runs ({@link #childProcesses()}).
 *
 * <p>A class marked {@link SharedCluster} does not start a cluster of its own: in a build it leases
 * one of the build's {@link ClusterPool} (each cluster in a daemon process, leased by one JVM at a
 * time, taken over by the next JVM of any module that needs one: as many clusters as forks run at
 * once instead of one per fork and module); without the pool it takes over the cluster the marked
 * class before it in the same JVM used. A cluster start costs its six JVMs 15-20 s of CPU.
 *
 * <p>The state is static, one cluster per class at a time: do not run IT classes in parallel in one
 * JVM.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public abstract class AccumuloITBase {

  private static final Logger log = LoggerFactory.getLogger(AccumuloITBase.class);

  /** Root user of the throwaway test cluster. */
  public static final String ROOT_USER = MiniAccumulo.ROOT_USER;

  /**
   * Root password of the test cluster; only ever used for a local MiniAccumulo. It is set through
   * the client API after the start, so it is on no command line (see the class comment).
   */
  public static final String ROOT_PASSWORD = "throwaway-mini-accumulo-secret";

  /**
   * System property: when {@code true}, the cluster directory (with the server logs under {@code
   * logs/}) is kept after the class, for debugging; {@code mvn verify -Dwebindex.it.keepDir=true}.
   */
  public static final String KEEP_DIR_PROPERTY = "webindex.it.keepDir";

  /**
   * Table names are unique across the JVMs that share a cluster of the {@link ClusterPool}: each
   * JVM counts from its process id times 100,000 (the tables a JVM's classes left are dropped in
   * the background while the next lessee's classes create theirs).
   */
  private static final AtomicLong TABLE_COUNTER =
      new AtomicLong(ProcessHandle.current().pid() * 100_000L);

  /**
   * The garbage collector of a test cluster runs every 10 minutes (bin/webindex dev's every minute,
   * {@link MiniAccumulo#GC_CYCLE_DELAY}): no test needs the files of a dropped table deleted, and
   * each run reads the metadata table and the write-ahead log markers; a cluster lives seconds to
   * minutes and is deleted after its class.
   */
  static final String GC_CYCLE_DELAY = "10m";

  private static Path clusterDir;

  /** This class's cluster when it runs in this JVM; null on a cluster of the pool. */
  private static MiniAccumulo cluster;

  private static Connector connector;

  /** Where this class's cluster is: its instance, ZooKeeper and instance secret. */
  private record Coordinates(String instanceName, String zookeepers, String instanceSecret) {}

  private static Coordinates coordinates;

  /** This JVM's lease on a cluster of the {@link ClusterPool}, held from class to class. */
  private static ClusterPool.Lease lease;

  private static Connector leaseConnector;
  private static ChildProcessWatcher watcher;

  /** The cluster the {@link SharedCluster} classes of this JVM run on, while it runs. */
  private static Shared shared;

  private static boolean shutdownHookAdded;

  private record Shared(Path dir, MiniAccumulo cluster, Connector connector) {}

  /**
   * Drops tables in the background: those the classes before left on the shared cluster, while the
   * next one runs, and each test's once it ended.
   */
  private static ExecutorService dropper;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  static void startAccumulo(TestInfo info) throws Exception {
    synchronized (AccumuloITBase.class) {
      runningTests = 0; // a class starts: no test runs (the sweep below drops what any left)
      testTableNames.clear();
    }
    boolean share =
        info.getTestClass().map(c -> c.isAnnotationPresent(SharedCluster.class)).orElse(false);
    boolean watch =
        info.getTestClass()
            .map(c -> c.isAnnotationPresent(WatchesChildProcesses.class))
            .orElse(false);
    if (share && leaseFromPool(watch)) {
      return;
    }
    synchronized (AccumuloITBase.class) {
      releaseLease(); // a class of this JVM that does not share: the cluster is free for others
      if (share && shared != null) {
        clusterDir = shared.dir();
        cluster = shared.cluster();
        connector = shared.connector();
        coordinates = coordinatesOf(cluster);
        watchIf(watch);
        sweepEarlierTables(connector);
        log.info(
            "MiniAccumulo {} shared with the classes before (zookeepers {}, dir {})",
            cluster.instanceName(),
            cluster.zookeepers(),
            clusterDir);
        return;
      }
      // a class of its own: no idle cluster beside it
      stopShared();
    }
    clusterDir = Files.createTempDirectory(baseDir(), "mac-");
    long start = System.nanoTime();
    watcher = watch ? ChildProcessWatcher.start() : null;
    MiniAccumulo mac = MiniAccumulo.in(clusterDir).gcCycleDelay(GC_CYCLE_DELAY).start();
    cluster = mac;
    if (watcher != null) {
      watcher.slowDown();
    }
    mac.replaceRootPassword(ROOT_PASSWORD);
    connector = mac.rootConnector();
    coordinates = coordinatesOf(mac);
    log.info(
        "MiniAccumulo {} up in {} ms (zookeepers {}, dir {})",
        mac.instanceName(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
        mac.zookeepers(),
        clusterDir);
    if (share) {
      synchronized (AccumuloITBase.class) {
        shared = new Shared(clusterDir, mac, connector);
        if (!shutdownHookAdded) {
          shutdownHookAdded = true;
          Runtime.getRuntime()
              .addShutdownHook(new Thread(AccumuloITBase::stopShared, "stop-shared-mini-accumulo"));
        }
      }
    }
  }

  /**
   * Starts this class's {@link ChildProcessWatcher} when {@code watch}, on a cluster that already
   * runs (its start's processes are no concern of the class).
   */
  private static void watchIf(boolean watch) {
    if (watch) {
      watcher = ChildProcessWatcher.start();
      watcher.slowDown();
    }
  }

  private static Coordinates coordinatesOf(MiniAccumulo mac) {
    return new Coordinates(mac.instanceName(), mac.zookeepers(), mac.instanceSecret());
  }

  /**
   * Runs this {@link SharedCluster} class on a cluster of the build's {@link ClusterPool}: the one
   * this JVM leased for a class before it, or a free one another JVM left (after its users but root
   * are dropped; its tables are dropped in the background), or a new one. False when the pool is
   * off or testkit has no daemon class path (then the class shares a cluster of this JVM).
   */
  private static boolean leaseFromPool(boolean watch) throws Exception {
    Optional<Path> pool = ClusterPool.poolDir();
    if (pool.isEmpty()) {
      return false;
    }
    synchronized (AccumuloITBase.class) {
      if (lease == null) {
        Optional<String> classPath = ClusterPool.daemonClassPath();
        if (classPath.isEmpty()) {
          log.warn(
              "{} is set but testkit has no cluster daemon class path ({}): the class shares a"
                  + " cluster of this JVM",
              ClusterPool.POOL_PROPERTY,
              ClusterPool.CLASSPATH_RESOURCE);
          return false;
        }
        stopShared();
        long start = System.nanoTime();
        ClusterPool.Lease l = ClusterPool.lease(pool.get(), classPath.get(), Duration.ofMinutes(3));
        ClusterPool.Cluster c = l.cluster();
        Connector conn;
        try {
          conn = connect(c.instanceName(), c.zookeepers(), ROOT_USER, ROOT_PASSWORD);
          dropUsersButRoot(conn);
        } catch (Exception | Error e) {
          l.close();
          throw e;
        }
        lease = l;
        leaseConnector = conn;
        log.info(
            "MiniAccumulo {} of the cluster pool ({} it in {} ms; zookeepers {}, slot {})",
            c.instanceName(),
            l.started() ? "started" : "leased",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
            c.zookeepers(),
            l.slot());
      } else {
        log.info("MiniAccumulo {} of the cluster pool kept", lease.cluster().instanceName());
      }
      ClusterPool.Cluster c = lease.cluster();
      clusterDir = c.dir();
      cluster = null;
      connector = leaseConnector;
      coordinates = new Coordinates(c.instanceName(), c.zookeepers(), c.instanceSecret());
      watchIf(watch);
      sweepEarlierTables(connector);
      return true;
    }
  }

  /** Gives this JVM's lease on a cluster of the pool up, if it holds one. */
  private static synchronized void releaseLease() {
    stopDropper();
    ClusterPool.Lease l = lease;
    lease = null;
    leaseConnector = null;
    if (l != null) {
      try {
        l.close();
      } catch (RuntimeException e) {
        log.warn("could not give the lease on {} up: {}", l.slot(), e.toString());
      }
    }
  }

  /** Drops every local user but root: the users of the JVMs that leased the cluster before. */
  private static void dropUsersButRoot(Connector conn)
      throws AccumuloException, AccumuloSecurityException {
    for (String user : conn.securityOperations().listLocalUsers()) {
      if (!ROOT_USER.equals(user)) {
        conn.securityOperations().dropLocalUser(user);
      }
    }
  }

  static Connector connect(String instanceName, String zookeepers, String user, String password)
      throws AccumuloException, AccumuloSecurityException {
    return new ZooKeeperInstance(
            ClientConfiguration.create().withInstance(instanceName).withZkHosts(zookeepers))
        .getConnector(user, new PasswordToken(password));
  }

  /**
   * Drops, in the background, every table the classes before this one left on the shared cluster
   * (none of them is this class's: its tables get names no class used before). A cluster that keeps
   * hundreds of tables (a fork's classes recompute, initialise and reconcile dozens of runs) costs
   * every later class: with 300 tables of four tablets, the idle master, ZooKeeper and garbage
   * collector used about 2.5 times the CPU of an empty cluster, and a split or a delete took a
   * second instead of 0.15 s.
   */
  private static synchronized void sweepEarlierTables(Connector conn) {
    stopDropper();
    Set<String> left = new HashSet<>();
    for (String t : conn.tableOperations().list()) {
      if (!t.startsWith("accumulo.")) {
        left.add(t);
      }
    }
    if (!left.isEmpty()) {
      dropInBackground(conn, left::contains, "of the earlier classes");
    }
  }

  /**
   * The table names {@link #newTableName} handed out while test methods (their {@code @BeforeEach}
   * methods included) ran, since none ran.
   */
  private static final List<String> testTableNames = new ArrayList<>();

  /**
   * The test methods running now: one, unless a class runs its tests side by side (then the tables
   * of those that overlapped are dropped when the last of them ends).
   */
  private static int runningTests;

  @BeforeEach
  void countRunningTest() {
    synchronized (AccumuloITBase.class) {
      runningTests++;
    }
  }

  /**
   * Drops, in the background, the tables of the test that just ended: every table named by {@link
   * #newTableName} in it, and every table whose name starts with such a name and {@code _} (the
   * runs', history, frontier, meta and Fluo tables the commands create under a table prefix). The
   * master asks ZooKeeper about every table of the cluster on each pass of its tablet watchers, and
   * every table operation wakes them: a cluster that keeps the tables of the tests before pays for
   * them in each later table operation (docs/testing.md). Tables named in {@code @BeforeAll} belong
   * to the class and stay until the next class's sweep. When tests run side by side, the tables of
   * those that overlapped are dropped once the last of them has ended.
   */
  @AfterEach
  void dropTestTables(TestInfo info) {
    List<String> owned;
    Connector conn;
    synchronized (AccumuloITBase.class) {
      runningTests = Math.max(0, runningTests - 1);
      if (runningTests > 0) {
        return;
      }
      owned = List.copyOf(testTableNames);
      testTableNames.clear();
      conn = connector;
    }
    if (owned.isEmpty() || conn == null) {
      return;
    }
    dropInBackground(
        conn,
        t -> owned.stream().anyMatch(n -> t.equals(n) || t.startsWith(n + "_")),
        "of " + info.getDisplayName());
  }

  /**
   * Drops the tables {@code which} accepts (Accumulo's own never), one at a time, in this JVM's
   * dropper thread, so that the master's other FATE threads stay free for the tests.
   */
  private static synchronized void dropInBackground(
      Connector conn, Predicate<String> which, String whose) {
    if (dropper == null) {
      dropper =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, "drop-tables");
                t.setDaemon(true);
                return t;
              });
    }
    dropper.execute(
        () -> {
          long start = System.nanoTime();
          List<String> tables = new ArrayList<>();
          for (String t : conn.tableOperations().list()) {
            if (!t.startsWith("accumulo.") && which.test(t)) {
              tables.add(t);
            }
          }
          int dropped = 0;
          for (String table : tables) {
            if (Thread.currentThread().isInterrupted()) {
              break;
            }
            try {
              conn.tableOperations().delete(table);
              dropped++;
            } catch (TableNotFoundException gone) {
              // dropped by its test already
            } catch (AccumuloException | AccumuloSecurityException | RuntimeException e) {
              log.info("could not drop {} {}: {}", table, whose, e.toString());
            }
          }
          log.info(
              "dropped {} of {} tables {} in {} ms",
              dropped,
              tables.size(),
              whose,
              TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        });
  }

  /**
   * Stops the dropper, if one runs, and waits a moment for it (a delete under way ends when the
   * master answers, or fails when the cluster stops); what it had not dropped yet, the next class's
   * sweep drops.
   */
  private static synchronized void stopDropper() {
    ExecutorService d = dropper;
    dropper = null;
    if (d != null) {
      d.shutdownNow();
      try {
        d.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Stops and deletes the shared cluster, if one runs. */
  private static synchronized void stopShared() {
    stopDropper();
    Shared s = shared;
    shared = null;
    if (s != null) {
      try {
        stop(s.cluster(), s.dir());
      } catch (Exception e) {
        log.warn("could not stop the shared MiniAccumulo in {}: {}", s.dir(), e.toString());
      }
    }
  }

  @AfterAll
  @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  static void stopAccumulo() throws Exception {
    MiniAccumulo mac = cluster;
    Path dir = clusterDir;
    ChildProcessWatcher w = watcher;
    cluster = null;
    connector = null;
    clusterDir = null;
    coordinates = null;
    watcher = null;
    if (w != null) {
      w.close(); // the class's own, also on a shared cluster
    }
    synchronized (AccumuloITBase.class) {
      if (mac == null && lease != null) {
        return; // a cluster of the pool: this JVM keeps its lease for the next class
      }
      if (shared != null && shared.cluster() == mac) {
        return; // the next SharedCluster class takes it over
      }
      stopDropper(); // the cluster stops: nothing left to drop
    }
    stop(mac, dir);
  }

  private static void stop(MiniAccumulo mac, Path dir) throws Exception {
    try {
      if (mac != null) {
        mac.stop();
      }
    } finally {
      if (dir != null && Boolean.getBoolean(KEEP_DIR_PROPERTY)) {
        log.info("kept MiniAccumulo directory {}", dir);
      } else if (dir != null) {
        deleteRecursively(dir);
      }
    }
  }

  /** A connector as the root user of this class's cluster. */
  protected static Connector connector() {
    if (connector == null) {
      throw new IllegalStateException("MiniAccumulo is not running");
    }
    return connector;
  }

  /**
   * This class's running cluster, when it runs in this JVM: a class marked {@link SharedCluster}
   * may run on a cluster of the build's pool, which is another process's (use {@link #connector()},
   * {@link #connectorAs} and the coordinates).
   */
  protected static MiniAccumuloCluster cluster() {
    running();
    if (cluster == null) {
      throw new IllegalStateException(
          "this class runs on a MiniAccumulo of the cluster pool, which has no MiniAccumuloCluster"
              + " in this JVM");
    }
    return cluster.cluster();
  }

  private static Coordinates running() {
    if (coordinates == null) {
      throw new IllegalStateException("MiniAccumulo is not running");
    }
    return coordinates;
  }

  /** A connector to this class's cluster as {@code user}. */
  protected static Connector connectorAs(String user, String password) {
    Coordinates c = running();
    try {
      return connect(c.instanceName(), c.zookeepers(), user, password);
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new IllegalStateException("cannot connect as " + user, e);
    }
  }

  protected static String instanceName() {
    return running().instanceName();
  }

  protected static String zookeepers() {
    return running().zookeepers();
  }

  /**
   * The directory the cluster lives in; deleted when the cluster stops (after the class, or for a
   * {@link SharedCluster} class when its fork ends).
   */
  protected static Path clusterDir() {
    running();
    return clusterDir;
  }

  /**
   * The instance secret ({@code instance.secret}) of this class's cluster: random per cluster.
   * ZooKeeper nodes Accumulo protects are readable with the digest {@code accumulo:<secret>}.
   */
  protected static String instanceSecret() {
    return running().instanceSecret();
  }

  /**
   * Every command line and environment of this JVM's child processes (MiniAccumulo's ZooKeeper,
   * Initialize, master, tablet server, garbage collector, and any a test starts) seen since the
   * cluster started (for a {@link SharedCluster} class: since the class started, so the processes
   * it started itself). Only in a class marked {@link WatchesChildProcesses}.
   */
  protected static List<ChildProcessWatcher.Seen> childProcesses() {
    running();
    if (watcher == null) {
      throw new IllegalStateException(
          "no child processes recorded: mark the class @" + WatchesChildProcesses.class.getName());
    }
    return watcher.seen();
  }

  /**
   * Creates the local Accumulo user {@code user} with {@code password} and exactly the system
   * permissions {@code granted} (none when empty); it has table permissions only on the tables it
   * creates.
   */
  protected static void createUser(String user, String password, SystemPermission... granted) {
    try {
      MiniAccumulo.createUser(connector(), user, password, Set.copyOf(List.of(granted)));
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new IllegalStateException("cannot create user " + user, e);
    }
  }

  /** The table layout of {@link #writeWebindexConf} unless a test sets its own. */
  protected static final List<String> SMALL_LAYOUT =
      List.of("webindex.recompute.tablets=2", "webindex.fluo.buckets=4");

  /**
   * Writes a webindex configuration for this cluster into {@code dir}: the connection (the password
   * in a file beside it), table prefix and Fluo application {@code prefix}, the raw page store
   * {@code dir/store} and the work directory {@code dir/work}; {@code extra} lines ({@code
   * key=value}) are appended. Unless {@code extra} sets them, the recompute writes 2 tablets per
   * table and the Fluo application keeps 4 buckets per queue ({@link #SMALL_LAYOUT}): the tests'
   * webs are a few hundred pages, and every tablet costs the cluster's servers CPU for the rest of
   * the class (the product's defaults, 4 and 16, run in the demo, bench and distribution tests).
   *
   * @return the configuration file
   */
  protected static Path writeWebindexConf(Path dir, String prefix, String... extra) {
    try {
      Path pw = dir.resolve("accumulo.password");
      Files.deleteIfExists(pw);
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(
            pw, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      Files.writeString(pw, ROOT_PASSWORD);
      List<String> lines =
          new ArrayList<>(
              List.of(
                  "webindex.accumulo.instance=" + instanceName(),
                  "webindex.accumulo.zookeepers=" + zookeepers(),
                  "webindex.accumulo.user=" + ROOT_USER,
                  "webindex.accumulo.password.file=" + pw,
                  "webindex.table.prefix=" + prefix,
                  "webindex.fluo.app=" + prefix,
                  "webindex.store.root=" + dir.resolve("store").toUri(),
                  "webindex.work.dir=" + dir.resolve("work").toUri()));
      for (String d : SMALL_LAYOUT) {
        String key = d.substring(0, d.indexOf('=') + 1);
        if (Arrays.stream(extra).noneMatch(e -> e.startsWith(key))) {
          lines.add(d);
        }
      }
      lines.addAll(List.of(extra));
      return Files.write(dir.resolve("webindex.properties"), lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A table name not used before in this JVM; the table is not created. */
  protected static String newTableName() {
    return newTableName("t");
  }

  /**
   * A table name not used before in this JVM, starting with {@code hint} reduced to the characters
   * Accumulo allows; the table is not created. Asked for in a test (or its {@code @BeforeEach}),
   * the tables of that name and under it as a prefix are dropped after the test ({@link
   * #dropTestTables}); asked for in {@code @BeforeAll}, they belong to the class ({@link
   * #newClassTableName}).
   */
  protected static String newTableName(String hint) {
    String name = uniqueTableName(hint);
    synchronized (AccumuloITBase.class) {
      if (runningTests > 0) {
        testTableNames.add(name);
      }
    }
    return name;
  }

  /**
   * A table name like {@link #newTableName(String)}'s that belongs to the class, not to the test
   * that asks for it: for state that several tests share and the first of them to need it makes.
   * Its tables are not dropped after that test (only by the next class's sweep).
   */
  protected static String newClassTableName(String hint) {
    return uniqueTableName(hint);
  }

  private static String uniqueTableName(String hint) {
    String clean = hint.replaceAll("[^A-Za-z0-9_]", "_").toLowerCase(Locale.ROOT);
    if (clean.isEmpty()) {
      clean = "t";
    }
    return clean + "_" + TABLE_COUNTER.incrementAndGet();
  }

  /** Creates a fresh, uniquely named table and returns its name. */
  protected static String createTable() {
    return createTable("t");
  }

  /** Creates a fresh table named after {@code hint} (see {@link #newTableName(String)}). */
  protected static String createTable(String hint) {
    String table = newTableName(hint);
    try {
      connector().tableOperations().create(table);
    } catch (AccumuloException | AccumuloSecurityException | TableExistsException e) {
      throw new IllegalStateException("cannot create table " + table, e);
    }
    return table;
  }

  /**
   * The whole table as lines {@code "row family:qualifier value"}, in Accumulo's key order
   * (visibility and timestamp left out).
   */
  protected static List<String> readTable(String table) {
    List<String> lines = new ArrayList<>();
    scan(table, (key, value) -> lines.add(cellName(key) + " " + value));
    return lines;
  }

  /**
   * The whole table in webindex's readable dump format ({@code DumpFormat.line} of each cell), in
   * Accumulo's key order: what the independent oracle's dump and the golden files are compared
   * with.
   */
  protected static List<String> dumpTable(String table) {
    List<String> lines = new ArrayList<>();
    scan(
        table,
        (key, value) ->
            lines.add(
                DumpFormat.line(
                    key.getRow().toString(),
                    key.getColumnFamily().toString(),
                    key.getColumnQualifier().toString(),
                    value)));
    return lines;
  }

  /**
   * The whole table as a sorted map from {@code "row family:qualifier"} to the value; when one cell
   * has several versions or visibilities, the last one scanned wins.
   */
  protected static SortedMap<String, String> readTableAsMap(String table) {
    SortedMap<String, String> cells = new TreeMap<>();
    scan(table, (key, value) -> cells.put(cellName(key), value));
    return cells;
  }

  private interface CellConsumer {
    void accept(Key key, String value);
  }

  private static void scan(String table, CellConsumer consumer) {
    Scanner scanner;
    try {
      scanner = connector().createScanner(table, Authorizations.EMPTY);
    } catch (TableNotFoundException e) {
      throw new IllegalArgumentException("no table " + table, e);
    }
    try {
      for (Entry<Key, Value> e : scanner) {
        consumer.accept(e.getKey(), e.getValue().toString());
      }
    } finally {
      scanner.close();
    }
  }

  private static String cellName(Key key) {
    return key.getRow() + " " + key.getColumnFamily() + ":" + key.getColumnQualifier();
  }

  private static Path baseDir() throws IOException {
    Path target = Paths.get("target");
    Path base =
        Files.isDirectory(target)
            ? target.resolve("mini-accumulo")
            : Paths.get(System.getProperty("java.io.tmpdir"), "webindex-mini-accumulo");
    return Files.createDirectories(base).toAbsolutePath();
  }

  private static void deleteRecursively(Path dir) {
    try {
      LocalFiles.deleteRecursively(dir);
    } catch (IOException e) {
      log.warn("could not delete {}: {}", dir, e.toString());
    }
  }
}
