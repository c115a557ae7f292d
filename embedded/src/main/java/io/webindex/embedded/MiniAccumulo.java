package io.webindex.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.admin.SecurityOperations;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.core.security.SystemPermission;
import org.apache.accumulo.minicluster.MemoryUnit;
import org.apache.accumulo.minicluster.MiniAccumuloCluster;
import org.apache.accumulo.minicluster.MiniAccumuloConfig;
import org.apache.accumulo.minicluster.ServerType;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MiniAccumuloCluster 1.10 as webindex runs one, built in one place for {@code bin/webindex dev},
 * {@code demo} and {@code bench} (cli's {@code EmbeddedAccumulo}) and for every {@code *IT}
 * (testkit's {@code AccumuloITBase}): ZooKeeper, master, one tablet server of {@value
 * #TABLET_SERVER_MEMORY_MB} MB (MiniAccumulo's 128 MB default is too small beyond toy data) with
 * in-memory maps and caches that fit it, and the garbage collector, as child processes of this JVM.
 *
 * <p>The tablet server keeps its in-memory map in Accumulo's native map (C++, outside the Java
 * heap) when this module's build made the library for this platform ({@code NativeMapLibrary}) and
 * {@value #NATIVE_MAP_PROPERTY} is not {@code false}; else in Accumulo's Java map, with a one-line
 * warning saying why. {@link #memoryMap()} tells which one the tablet server really uses.
 *
 * <p>No password reaches a command line for long: MiniAccumulo runs Accumulo's {@code Initialize}
 * with the root password as an argument, visible in {@code ps} to every user of the machine, so
 * {@link Builder#start()} initialises with a random throw-away, which the caller replaces through
 * the client API ({@link #replaceRootPassword}, {@link #dropRootPassword}) before it hands out a
 * connection. The instance secret (ZooKeeper ACLs, Accumulo's system user) is random too, not
 * MiniAccumulo's fixed default.
 *
 * <p>The child processes inherit this JVM's environment: on JDK 17 they need {@code
 * JDK_JAVA_OPTIONS} as the root pom sets it for the tests (docs/stack.md).
 */
public final class MiniAccumulo {
  /** Accumulo's root user. */
  public static final String ROOT_USER = "root";

  /** Heap of the tablet server. */
  public static final int TABLET_SERVER_MEMORY_MB = 768;

  /** {@code tserver.memory.maps.max} of the tablet server. */
  public static final String TSERV_MAXMEM = "256M";

  /** {@code tserver.cache.data.size} of the tablet server. */
  public static final String TSERV_DATACACHE = "64M";

  /** {@code tserver.cache.index.size} of the tablet server. */
  public static final String TSERV_INDEXCACHE = "32M";

  /**
   * ZooKeeper's worker threads for client requests, as a line of its configuration file (ZooKeeper
   * sets every key it does not know as the system property {@code zookeeper.<key>}); 0: the
   * selector thread does the work.
   */
  static final String ZK_WORKER_THREADS = "nio.numWorkerThreads=0";

  /** {@code gc.cycle.delay}: how often the garbage collector runs. */
  public static final String GC_CYCLE_DELAY = "60s";

  /** {@code tserver.compaction.major.delay}: how often the tablet server looks for compactions. */
  public static final String TSERV_MAJC_DELAY = "30s";

  /**
   * System property: {@code false} keeps the tablet server on Accumulo's Java in-memory map; {@code
   * true} (the default) uses the native map when the build made it. {@link Builder#nativeMap}
   * overrides it.
   */
  public static final String NATIVE_MAP_PROPERTY = "webindex.embedded.native-map";

  /** What the tablet server logs when it loaded the native map library. */
  static final String NATIVE_LOADED = "Loaded native map shared library";

  /** The in-memory map a tablet server uses. */
  public enum MemoryMap {
    /** Accumulo's native map, C++ outside the Java heap. */
    NATIVE,
    /** Accumulo's Java map (a concurrent skip list on the heap). */
    JAVA;

    /** {@code native} or {@code java}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private static final Logger log = LoggerFactory.getLogger(MiniAccumulo.class);

  private static final SecureRandom RANDOM = new SecureRandom();

  private final MiniAccumuloCluster cluster;
  private final String instanceSecret;
  private String rootPassword; // null once dropped

  private MiniAccumulo(MiniAccumuloCluster cluster, String instanceSecret, String rootPassword) {
    this.cluster = cluster;
    this.instanceSecret = instanceSecret;
    this.rootPassword = rootPassword;
  }

  /**
   * A cluster in {@code dir}, which must not exist or be empty; MiniAccumulo cannot restart from
   * the files of an earlier one.
   */
  public static Builder in(Path dir) {
    return new Builder(dir);
  }

  /** What the two kinds of cluster set differently. */
  public static final class Builder {
    private final Path dir;
    private String instanceName;
    private Boolean nativeMap;
    private String gcCycleDelay = GC_CYCLE_DELAY;

    private Builder(Path dir) {
      this.dir = dir;
    }

    /** The instance name (default: MiniAccumulo's). */
    public Builder instanceName(String name) {
      this.instanceName = name;
      return this;
    }

    /**
     * {@code gc.cycle.delay}, the pause between two runs of the garbage collector (default {@value
     * #GC_CYCLE_DELAY}), and before its first ({@code gc.cycle.start}, which MiniAccumulo would set
     * to 0: a collection as the cluster starts, when there is nothing to collect); a cluster that
     * lives minutes and is deleted after may never need one.
     */
    public Builder gcCycleDelay(String delay) {
      this.gcCycleDelay = delay;
      return this;
    }

    /**
     * Whether the tablet server uses Accumulo's native in-memory map when the build made it
     * (default: {@value #NATIVE_MAP_PROPERTY}, else true).
     */
    public Builder nativeMap(boolean enabled) {
      this.nativeMap = enabled;
      return this;
    }

    /**
     * Starts the cluster, initialised with a random throw-away root password and a random instance
     * secret. When the start fails, what started is stopped before the exception goes on.
     */
    public MiniAccumulo start() throws IOException, InterruptedException {
      boolean wanted = nativeMap != null ? nativeMap : nativeMapProperty();
      String bootstrap = randomSecret();
      String secret = randomSecret();
      MiniAccumuloConfig config = new MiniAccumuloConfig(dir.toFile(), bootstrap);
      if (instanceName != null) {
        config.setInstanceName(instanceName);
      }
      config.setNumTservers(1);
      config.setMemory(ServerType.TABLET_SERVER, TABLET_SERVER_MEMORY_MB, MemoryUnit.MEGABYTE);
      Map<String, String> site = new HashMap<>();
      site.put(Property.INSTANCE_SECRET.getKey(), secret);
      site.put(Property.TSERV_MAXMEM.getKey(), TSERV_MAXMEM);
      site.put(Property.TSERV_DATACACHE_SIZE.getKey(), TSERV_DATACACHE);
      site.put(Property.TSERV_INDEXCACHE_SIZE.getKey(), TSERV_INDEXCACHE);
      // MiniAccumulo's own defaults run the garbage collector every 4 s and look for major
      // compactions every 3 s (Accumulo's: 5 min and 30 s). Each collection reads the metadata
      // table, the write-ahead log markers and the servers' locks in ZooKeeper: with 150 tables of
      // four tablets an idle cluster used 22 % of a core, 3.4 % with these (docs/testing.md).
      site.put(Property.GC_CYCLE_DELAY.getKey(), gcCycleDelay);
      site.put(Property.GC_CYCLE_START.getKey(), gcCycleDelay);
      site.put(Property.TSERV_MAJC_DELAY.getKey(), TSERV_MAJC_DELAY);
      Optional<Path> nativeDir = wanted ? nativeMapDirectory() : Optional.empty();
      if (!wanted) {
        log.info(
            "native in-memory map switched off ({}=false): using Accumulo's Java map",
            NATIVE_MAP_PROPERTY);
      }
      // MiniAccumulo puts the directories on the servers' LD_LIBRARY_PATH (java.library.path)
      nativeDir.ifPresent(d -> config.setNativeLibPaths(d.toString()));
      site.put(Property.TSERV_NATIVEMAP_ENABLED.getKey(), String.valueOf(nativeDir.isPresent()));
      config.setSiteConfig(site);
      MiniAccumuloCluster mac = new MiniAccumuloCluster(config);
      try {
        writeServersHadoopSite(dir.resolve("conf"));
        answerOnTheSelectorThread(dir.resolve("conf").resolve("zoo.cfg"));
        mac.start();
      } catch (IOException | RuntimeException e) {
        try {
          mac.stop();
        } catch (IOException | RuntimeException s) {
          e.addSuppressed(s);
        } catch (InterruptedException s) {
          Thread.currentThread().interrupt();
          e.addSuppressed(s);
        }
        throw e;
      }
      return new MiniAccumulo(mac, secret, bootstrap);
    }
  }

  /**
   * ZooKeeper answers each request on its selector thread instead of handing it to a pool of worker
   * threads first: a thread switch less per request. MiniAccumulo writes {@code zoo.cfg} when the
   * cluster object is made and ZooKeeper reads it when it starts. The master alone asks about 400
   * times a second while tables are created, bulk imported into and dropped; CheckIT alone, three
   * runs each: ZooKeeper 4.6-5.0 s of CPU against 6.4-7.4 s (docs/testing.md).
   */
  private static void answerOnTheSelectorThread(Path zooCfg) throws IOException {
    if (!Files.isRegularFile(zooCfg)) {
      throw new IOException("MiniAccumulo wrote no " + zooCfg);
    }
    Files.writeString(zooCfg, "\n" + ZK_WORKER_THREADS + "\n", StandardOpenOption.APPEND);
  }

  /**
   * The servers' {@code core-site.xml}: their {@code file:} file system is {@link
   * ForklessLocalFileSystem}, which sets the permission of every file the tablet server writes
   * (write-ahead logs, flushes, compactions, imports) without a {@code chmod} process. MiniAccumulo
   * puts {@code conf} first on the servers' class path and writes no {@code core-site.xml} there
   * when it runs without HDFS, as here.
   */
  static void writeServersHadoopSite(Path confDir) throws IOException {
    Configuration site = ForklessLocalFileSystem.configure(new Configuration(false));
    Files.createDirectories(confDir);
    try (OutputStream out = Files.newOutputStream(confDir.resolve("core-site.xml"))) {
      site.writeXml(out);
    }
  }

  /**
   * {@value #NATIVE_MAP_PROPERTY} of this JVM: true unless it says {@code false}.
   *
   * @throws IllegalArgumentException when it is neither {@code true} nor {@code false}
   */
  public static boolean nativeMapProperty() {
    String v = System.getProperty(NATIVE_MAP_PROPERTY);
    if (v == null || v.isBlank()) {
      return true;
    }
    switch (v.strip().toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException(
            NATIVE_MAP_PROPERTY + " must be true or false, not '" + v.strip() + "'");
    }
  }

  /**
   * The native map library's directory, or empty (after a warning saying why) when there is none.
   */
  private static Optional<Path> nativeMapDirectory() {
    try {
      Optional<Path> dir = NativeMapLibrary.directory();
      if (dir.isEmpty()) {
        log.warn(
            "native in-memory map unavailable (not built for {}: no g++ when this build was made):"
                + " using Accumulo's Java map",
            NativeMapLibrary.platform());
      }
      return dir;
    } catch (IOException e) {
      log.warn(
          "native in-memory map unavailable (cannot copy it into {}: {}): using Accumulo's Java map",
          NativeMapLibrary.cacheRoot(),
          e.toString());
      return Optional.empty();
    }
  }

  /**
   * The in-memory map this cluster's tablet server uses, as its log says (see {@link
   * #memoryMapIn}).
   */
  public MemoryMap memoryMap() {
    return memoryMapIn(cluster.getConfig().getDir().toPath());
  }

  /**
   * The in-memory map the tablet server of the MiniAccumulo in {@code dir} uses, as its log under
   * {@code dir/logs} says: {@link MemoryMap#NATIVE} when it logged that it loaded the native map
   * library ({@value #NATIVE_LOADED}, which the shipped log4j configurations let through), else
   * {@link MemoryMap#JAVA}. The tablet server loads it as it starts, before it serves a request.
   */
  public static MemoryMap memoryMapIn(Path dir) {
    Path logs = dir.resolve("logs");
    if (!Files.isDirectory(logs)) {
      return MemoryMap.JAVA;
    }
    try (Stream<Path> files = Files.list(logs)) {
      return files
              .filter(f -> f.getFileName().toString().startsWith("TabletServer_"))
              .anyMatch(MiniAccumulo::saysNativeLoaded)
          ? MemoryMap.NATIVE
          : MemoryMap.JAVA;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean saysNativeLoaded(Path logFile) {
    try (Stream<String> lines = Files.lines(logFile, StandardCharsets.ISO_8859_1)) {
      return lines.anyMatch(l -> l.contains(NATIVE_LOADED));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The running cluster. */
  public MiniAccumuloCluster cluster() {
    return cluster;
  }

  public String instanceName() {
    return cluster.getInstanceName();
  }

  public String zookeepers() {
    return cluster.getZooKeepers();
  }

  /**
   * The instance secret: ZooKeeper nodes Accumulo protects are readable with the digest {@code
   * accumulo:<secret>}.
   */
  public String instanceSecret() {
    return instanceSecret;
  }

  /**
   * A connector as {@link #ROOT_USER} with the current root password.
   *
   * @throws IllegalStateException once the root password was dropped
   */
  public Connector rootConnector() throws AccumuloException, AccumuloSecurityException {
    if (rootPassword == null) {
      throw new IllegalStateException("the root password of this cluster was dropped");
    }
    return cluster.getConnector(ROOT_USER, rootPassword);
  }

  /**
   * Creates the local user {@code user} with {@code password} and exactly the system permissions
   * {@code granted}; it has table permissions only on the tables it creates.
   */
  public void createUser(String user, String password, Set<SystemPermission> granted)
      throws AccumuloException, AccumuloSecurityException {
    createUser(rootConnector(), user, password, granted);
  }

  /**
   * Creates, through {@code root} (a connector as root of any instance), the local user {@code
   * user} with {@code password} and exactly the system permissions {@code granted}.
   */
  public static void createUser(
      Connector root, String user, String password, Set<SystemPermission> granted)
      throws AccumuloException, AccumuloSecurityException {
    SecurityOperations security = root.securityOperations();
    security.createLocalUser(user, new PasswordToken(password));
    for (SystemPermission p : granted) {
      security.grantSystemPermission(user, p);
    }
  }

  /** Replaces the root password (at first the throw-away {@code Initialize} showed to ps). */
  public void replaceRootPassword(String password)
      throws AccumuloException, AccumuloSecurityException {
    rootConnector()
        .securityOperations()
        .changeLocalUserPassword(ROOT_USER, new PasswordToken(password));
    rootPassword = password;
  }

  /**
   * Replaces the root password by a random one that is kept nowhere, so that nobody holds root;
   * {@link #rootConnector()} refuses from now on.
   */
  public void dropRootPassword() throws AccumuloException, AccumuloSecurityException {
    replaceRootPassword(randomSecret());
    rootPassword = null;
  }

  /** Stops the cluster's processes. */
  public void stop() throws IOException, InterruptedException {
    cluster.stop();
  }

  /** 24 random bytes, URL-safe Base64: a password or secret for one cluster. */
  public static String randomSecret() {
    byte[] b = new byte[24];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
