package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.files.LocalFiles;
import io.webindex.embedded.MiniAccumulo;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.security.SystemPermission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default: a MiniAccumuloCluster 1.10 (ZooKeeper, master, one tablet server and the
 * garbage collector as child processes, built by {@link MiniAccumulo} as the ITs build theirs) in a
 * directory, with the connection files other commands and processes use to reach it:
 *
 * <ul>
 *   <li>{@code <dir>/webindex.properties}: instance, zookeepers, user {@value #USER}, {@code
 *       webindex.accumulo.password.file=<dir>/accumulo.password}, {@code
 *       webindex.store.root=file:<dir>/store}, {@code webindex.work.dir=file:<dir>/work};
 *   <li>{@code <dir>/accumulo.password}: the password of {@value #USER}, random per instance,
 *       readable by the owner only. It is never printed or logged, and no process gets it on its
 *       command line.
 * </ul>
 *
 * <p>{@code <dir>} is made owner-only ({@code rwx------}), also when it exists. The user {@value
 * #USER} has exactly the permissions docs/permissions.md asks a production user to have ({@link
 * #USER_SYSTEM_PERMISSIONS}, and all permissions on the tables it creates), so every embedded run
 * ({@code dev}, {@code demo}) works with least privilege. MiniAccumulo runs Accumulo's {@code
 * Initialize} with the root password as an argument, visible in {@code ps} to every user of the
 * machine: that password is a random throw-away, used once to create {@value #USER} and then
 * replaced by a random one that is never written or shown anywhere, so nobody holds root. The
 * instance secret (ZooKeeper ACLs, Accumulo's system user) is random too, not MiniAccumulo's fixed
 * default.
 *
 * <p>Accumulo's own files live in {@code <dir>/accumulo} (server logs in {@code
 * <dir>/accumulo/logs}); MiniAccumulo cannot restart from them, so they are wiped at the next
 * start. {@code store/} and {@code work/} are kept. {@link #close()} stops the cluster and removes
 * the connection files.
 *
 * <p>MiniAccumulo 1.10 on JDK 17 needs {@code JDK_JAVA_OPTIONS} to hold {@link
 * #REQUIRED_JDK_OPTIONS}: it starts its servers as {@code java} processes whose command line it
 * builds itself (with CMS flags that JDK 17 rejects) and only lets a caller add system properties,
 * so an option like {@code -XX:+IgnoreUnrecognizedVMOptions} reaches them only through the
 * environment they inherit. A JVM started with that variable announces it on stderr ("NOTE: Picked
 * up JDK_JAVA_OPTIONS"), as do {@code JAVA_TOOL_OPTIONS} and {@code _JAVA_OPTIONS}. So when this
 * JVM has the variable (the test JVMs under Maven), the cluster runs in it; otherwise (every {@code
 * bin/webindex} command) {@link #start} runs the cluster in a host JVM of its own ({@link
 * EmbeddedAccumuloHost}, running {@link #main}) started with the variable, whose note goes to
 * {@code <dir>/embedded-accumulo.log} with the rest of its output, and the command's own stderr
 * stays quiet.
 *
 * <p>The tablet server keeps its in-memory map in Accumulo's native map when the build made it for
 * this platform, unless the caller switches it off ({@code webindex.embedded.native-map=false},
 * {@link Cli#embeddedNativeMap()}); {@link #memoryMap()} says which map it uses.
 */
public final class EmbeddedAccumulo implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedAccumulo.class);

  public static final String CONNECTION_FILE = "webindex.properties";
  public static final String PASSWORD_FILE = "accumulo.password";
  public static final String INSTANCE_NAME = "webindex";

  /** The Accumulo user the connection file names; see docs/permissions.md. */
  public static final String USER = "webindex";

  /**
   * The system permissions of {@link #USER}: the minimum docs/permissions.md documents. Everything
   * else comes from owning the tables it creates.
   */
  public static final Set<SystemPermission> USER_SYSTEM_PERMISSIONS =
      Collections.unmodifiableSet(EnumSet.of(SystemPermission.CREATE_TABLE));

  private static final String OWNER_ONLY_DIR = "rwx------";

  /**
   * What MiniAccumulo's child JVMs need on JDK 17: ignore the CMS flags MiniAccumulo 1.10
   * hard-codes, let ZooKeeper 3.5 answer {@code ruok}, keep ZooKeeper's admin server off port 8080.
   */
  public static final List<String> REQUIRED_JDK_OPTIONS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "-Dzookeeper.4lw.commands.whitelist=*",
          "-Dzookeeper.admin.enableServer=false");

  /**
   * The embedded instance's servers (and its host JVM) compile with C1 only. Its tablet server is
   * as young as the command that started it, and under a load the server compiler's work never
   * ended while we watched: in a 40,000-version load into a 100k-page index its C2 threads used
   * 0.2-0.34 of a core from start to end (3 minutes), and in a 20,000-version load it compiled the
   * same methods of the file readers and the conditional writes five to seven times (1-2 s each at
   * C2); C1-only code, slower once warm, measured faster for the minutes such an instance lives
   * (docs/performance.md, "The embedded servers' compiler"). A cluster's long-lived tablet servers
   * keep their own options.
   */
  static final List<String> SERVER_JIT_OPTIONS = List.of("-XX:TieredStopAtLevel=1");

  static final String JDK_JAVA_OPTIONS = EmbeddedAccumuloHost.JDK_JAVA_OPTIONS;

  private final Path dir;
  private final String instanceName;
  private final String zookeepers;
  private final Runnable stop;
  private boolean closed;

  private EmbeddedAccumulo(Path dir, String instanceName, String zookeepers, Runnable stop) {
    this.dir = dir;
    this.instanceName = instanceName;
    this.zookeepers = zookeepers;
    this.stop = stop;
  }

  /**
   * Starts an instance in {@code dir} (created if needed) and writes the connection files. The
   * caller makes sure no other instance uses {@code dir} ({@code dev} holds a {@link DevLock}).
   *
   * <p>In this JVM when its {@code JDK_JAVA_OPTIONS} holds {@link #REQUIRED_JDK_OPTIONS}, else in a
   * host JVM of its own (see the class comment).
   *
   * @throws StoreException when the cluster does not start
   */
  public static EmbeddedAccumulo start(Path dir, boolean nativeMap)
      throws IOException, InterruptedException {
    if (missingJdkOptions(System.getenv(JDK_JAVA_OPTIONS)).isEmpty()) {
      return startHere(dir, nativeMap);
    }
    Path root = createOwnerOnlyDirectory(dir);
    // the host JVM's MiniAccumulo reads the switch from its system property
    List<String> hostOptions = new ArrayList<>(REQUIRED_JDK_OPTIONS);
    hostOptions.add("-D" + MiniAccumulo.NATIVE_MAP_PROPERTY + "=" + nativeMap);
    hostOptions.addAll(serverJitOptions(System.getenv(JDK_JAVA_OPTIONS)));
    Runnable stopHost = EmbeddedAccumuloHost.launch(root, EmbeddedAccumulo.class, hostOptions);
    // the host wrote the connection files before it answered
    WebindexConfig cfg = WebindexConfig.load(root.resolve(CONNECTION_FILE), Map.of());
    return new EmbeddedAccumulo(root, cfg.accumuloInstance(), cfg.zookeepers(), stopHost);
  }

  /**
   * {@code EmbeddedAccumulo DIR}: the program of the host JVM ({@link EmbeddedAccumuloHost}), an
   * instance in DIR until its stdin ends.
   */
  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    EmbeddedAccumuloHost.serve(() -> startHere(dir, MiniAccumulo.nativeMapProperty())::close);
  }

  /**
   * {@link #start} in this JVM.
   *
   * @throws StoreException when the environment lacks {@link #REQUIRED_JDK_OPTIONS} or the cluster
   *     does not start
   */
  static EmbeddedAccumulo startHere(Path dir, boolean nativeMap)
      throws IOException, InterruptedException {
    checkJdkOptions(System.getenv(JDK_JAVA_OPTIONS));
    Path root = createOwnerOnlyDirectory(dir);
    Files.createDirectories(root.resolve("store"));
    Files.createDirectories(root.resolve("work"));
    Files.deleteIfExists(root.resolve(CONNECTION_FILE));
    Files.deleteIfExists(root.resolve(PASSWORD_FILE));
    Path macDir = root.resolve("accumulo");
    LocalFiles.deleteRecursively(macDir);

    log.info("starting embedded Accumulo in {}", macDir);
    long t0 = System.nanoTime();
    String password = MiniAccumulo.randomSecret();
    MiniAccumulo mac = null;
    try {
      // initialised with a throw-away root password (Initialize shows it on its command line)
      mac = MiniAccumulo.in(macDir).instanceName(INSTANCE_NAME).nativeMap(nativeMap).start();
      createUser(mac, password);
    } catch (IOException | RuntimeException e) {
      if (mac != null) {
        stopQuietly(mac);
      }
      throw new StoreException(
          "the embedded Accumulo did not start ("
              + e.getMessage()
              + "); its server logs are in "
              + macDir.resolve("logs"),
          e);
    }
    MiniAccumulo started = mac;
    EmbeddedAccumulo embedded =
        new EmbeddedAccumulo(
            root, mac.instanceName(), mac.zookeepers(), () -> stopQuietly(started));
    try {
      embedded.writeConnectionFiles(password);
    } catch (IOException | RuntimeException e) {
      embedded.close();
      throw e;
    }
    log.info(
        "embedded Accumulo '{}' up in {} ms, zookeepers {}",
        mac.instanceName(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
        mac.zookeepers());
    return embedded;
  }

  /**
   * Creates {@link #USER} with {@code password} and {@link #USER_SYSTEM_PERMISSIONS}, then replaces
   * the throw-away root password (seen on Initialize's command line) by a random one that is
   * dropped at once.
   */
  private static void createUser(MiniAccumulo mac, String password) {
    try {
      mac.createUser(USER, password, USER_SYSTEM_PERMISSIONS);
      mac.dropRootPassword();
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new StoreException(
          "cannot create the Accumulo user " + USER + ": " + e.getMessage(), e);
    }
  }

  /**
   * Creates {@code dir} (and its parents) readable, writable and searchable by the owner only, or
   * restricts an existing directory to the owner; nothing on a file system without POSIX
   * permissions but creating it.
   *
   * @return the absolute, normalised directory
   */
  static Path createOwnerOnlyDirectory(Path dir) throws IOException {
    Path d = dir.toAbsolutePath().normalize();
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return Files.createDirectories(d);
    }
    Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString(OWNER_ONLY_DIR);
    if (!Files.exists(d)) {
      if (d.getParent() != null) {
        Files.createDirectories(d.getParent());
      }
      try {
        Files.createDirectory(d, PosixFilePermissions.asFileAttribute(ownerOnly));
      } catch (FileAlreadyExistsException e) {
        // created meanwhile: restricted below
      }
    }
    if (!Files.isDirectory(d)) {
      throw new FileSystemException(d.toString(), null, "not a directory");
    }
    if (!Files.getPosixFilePermissions(d).equals(ownerOnly)) {
      // also when the umask took bits away from rwx------: the owner needs all three
      Files.setPosixFilePermissions(d, ownerOnly);
      log.info("restricted {} to its owner ({})", d, OWNER_ONLY_DIR);
    }
    return d;
  }

  /**
   * The just-in-time compiler of the embedded servers: the client compiler only ({@link
   * #SERVER_JIT_OPTIONS}), unless the caller's {@code JDK_JAVA_OPTIONS} chooses a compiler itself
   * (names {@code TieredStopAtLevel} or {@code TieredCompilation}), whose choice then stands.
   */
  static List<String> serverJitOptions(String jdkJavaOptions) {
    String have = jdkJavaOptions == null ? "" : jdkJavaOptions;
    return have.contains("TieredStopAtLevel") || have.contains("TieredCompilation")
        ? List.of()
        : SERVER_JIT_OPTIONS;
  }

  /** Those of {@link #REQUIRED_JDK_OPTIONS} that a {@code JDK_JAVA_OPTIONS} value lacks. */
  static List<String> missingJdkOptions(String jdkJavaOptions) {
    String have = jdkJavaOptions == null ? "" : jdkJavaOptions;
    return REQUIRED_JDK_OPTIONS.stream()
        .filter(o -> !List.of(have.trim().split("\\s+")).contains(o))
        .toList();
  }

  static void checkJdkOptions(String jdkJavaOptions) {
    List<String> missing = missingJdkOptions(jdkJavaOptions);
    if (!missing.isEmpty()) {
      throw new StoreException(
          "the embedded Accumulo needs the environment variable JDK_JAVA_OPTIONS to contain "
              + String.join(" ", REQUIRED_JDK_OPTIONS)
              + " (missing: "
              + String.join(" ", missing)
              + ")");
    }
  }

  public Path dir() {
    return dir;
  }

  /**
   * The in-memory map the tablet server uses, as its log says ({@link MiniAccumulo#memoryMapIn}).
   */
  public MiniAccumulo.MemoryMap memoryMap() {
    return MiniAccumulo.memoryMapIn(dir.resolve("accumulo"));
  }

  /** {@code <dir>/webindex.properties}. */
  public Path connectionFile() {
    return dir.resolve(CONNECTION_FILE);
  }

  public String instanceName() {
    return instanceName;
  }

  public String zookeepers() {
    return zookeepers;
  }

  /** The configuration in the connection file. */
  public WebindexConfig config() {
    return WebindexConfig.load(connectionFile(), Map.of());
  }

  /** A connector as {@link #USER}, the user of the connection file ({@link #config()}). */
  public Connector connector() {
    try {
      return AccumuloConnections.connect(config());
    } catch (StoreException e) {
      throw new StoreException("cannot connect to the embedded Accumulo: " + e.getMessage(), e);
    }
  }

  /** Stops the cluster and removes the connection files; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Files.deleteIfExists(connectionFile());
      Files.deleteIfExists(dir.resolve(PASSWORD_FILE));
    } catch (IOException e) {
      log.warn("could not remove the connection files in {}: {}", dir, e.toString());
    }
    log.info("stopping embedded Accumulo '{}'", instanceName);
    stop.run();
  }

  private void writeConnectionFiles(String password) throws IOException {
    Path passwordFile = dir.resolve(PASSWORD_FILE);
    writeAtomically(passwordFile, password + "\n", true);
    Map<String, String> p = new LinkedHashMap<>();
    p.put(WebindexConfig.INSTANCE, instanceName);
    p.put(WebindexConfig.ZOOKEEPERS, zookeepers);
    p.put(WebindexConfig.USER, USER);
    p.put(WebindexConfig.PASSWORD_FILE, passwordFile.toString());
    p.put(WebindexConfig.STORE_ROOT, fileUri(dir.resolve("store")));
    p.put(WebindexConfig.WORK_DIR, fileUri(dir.resolve("work")));
    StringBuilder sb = new StringBuilder();
    sb.append("# Connection file of the embedded Accumulo started by `bin/webindex dev`\n");
    sb.append("# (pid ")
        .append(ProcessHandle.current().pid())
        .append(", ")
        .append(Instant.now())
        .append("). Valid while it runs; removed when it stops.\n");
    for (Map.Entry<String, String> e : p.entrySet()) {
      sb.append(e.getKey()).append('=').append(escapeValue(e.getValue())).append('\n');
    }
    writeAtomically(connectionFile(), sb.toString(), false);
  }

  /** {@code file:///abs/path} without a trailing slash. */
  static String fileUri(Path p) {
    String uri = p.toAbsolutePath().normalize().toUri().toString();
    return uri.endsWith("/") && uri.length() > "file:///".length()
        ? uri.substring(0, uri.length() - 1)
        : uri;
  }

  /** A properties value that {@code Properties.load} (ISO-8859-1) reads back unchanged. */
  static String escapeValue(String v) {
    StringBuilder sb = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == '\\') {
        sb.append("\\\\");
      } else if (c == ' ' && i == 0) {
        sb.append("\\ ");
      } else if (c < 0x20 || c > 0x7e) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static void writeAtomically(Path file, String content, boolean ownerOnly)
      throws IOException {
    Path dir = file.getParent();
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    Path tmp =
        posix && ownerOnly
            ? Files.createTempFile(
                dir,
                "." + file.getFileName(),
                ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
            : Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
    try {
      Files.writeString(tmp, content, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static void stopQuietly(MiniAccumulo mac) {
    try {
      mac.stop();
    } catch (IOException | RuntimeException e) {
      log.warn("stopping the embedded Accumulo: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("interrupted while stopping the embedded Accumulo");
    }
  }
}
