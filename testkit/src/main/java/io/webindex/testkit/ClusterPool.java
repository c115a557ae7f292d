package io.webindex.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * MiniAccumulo clusters that the test JVMs of a whole build share, one JVM at a time: each cluster
 * runs in a daemon process of its own ({@link ClusterPoolDaemon}) in a slot directory of the pool,
 * and a JVM that needs one leases a free slot (an exclusive lock on the slot's {@value
 * #LEASE_LOCK}, which the operating system drops when the JVM ends) or, when every slot is leased,
 * starts a new daemon. A daemon stops its cluster when no JVM leased it for {@link #idleSeconds()}
 * or when the process that started the build (the test JVM's parent, Maven) ends.
 *
 * <p>A cluster start costs its six JVMs 15-20 s of CPU on the 2-core machine: with one cluster per
 * failsafe fork a build started one per fork of every module, with the pool as many as run at the
 * same time.
 *
 * <p>The pool is on when the system property {@value #POOL_PROPERTY} names its directory (the root
 * pom sets it for failsafe to the build's top {@code target/it-clusters}). The daemon runs on the
 * class path testkit's build wrote ({@value #CLASSPATH_RESOURCE}: testkit, MiniAccumulo and Fluo's
 * iterators, which every module's cluster needs, whatever the module's own class path holds).
 */
final class ClusterPool {
  /** System property: the pool's directory; no pool when unset or blank. */
  static final String POOL_PROPERTY = "webindex.it.clusterPool";

  /** System property: how long a daemon keeps an idle cluster, in seconds. */
  static final String IDLE_PROPERTY = "webindex.it.clusterPool.idleSeconds";

  /**
   * Default of {@value #IDLE_PROPERTY}: longer than the gaps between two modules' ITs in the build
   * (compiling and packaging the modules between them, about 100 s on the 2-core machine); an idle
   * cluster costs about 5 s of CPU a minute.
   */
  static final int DEFAULT_IDLE_SECONDS = 150;

  /** The slot's cluster as its daemon describes it, written once the cluster is ready. */
  static final String READY = "cluster.properties";

  /** The slot's lock file: whoever holds the lock on it leases the cluster. */
  static final String LEASE_LOCK = "lease.lock";

  /** Touched when a JVM gives a lease up: the daemon's idle time counts from it. */
  static final String RELEASED = "released";

  /** The daemon's output. */
  static final String DAEMON_LOG = "daemon.log";

  /**
   * The daemon's class path as testkit's build writes it ({@code build-classpath}: the entries
   * joined by the path separator).
   */
  static final String CLASSPATH_RESOURCE = "io/webindex/testkit/cluster-daemon.classpath";

  private static final String SLOT_PREFIX = "slot-";

  private ClusterPool() {}

  /** A cluster of the pool, as its daemon wrote it into {@value #READY}. */
  record Cluster(
      String instanceName, String zookeepers, String instanceSecret, Path dir, long daemonPid) {

    void write(Path file) throws IOException {
      Properties p = new Properties();
      p.setProperty("instance", instanceName);
      p.setProperty("zookeepers", zookeepers);
      p.setProperty("secret", instanceSecret);
      p.setProperty("dir", dir.toString());
      p.setProperty("pid", Long.toString(daemonPid));
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      try (var out = Files.newOutputStream(tmp)) {
        p.store(out, "a MiniAccumulo of the IT cluster pool");
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    static Optional<Cluster> read(Path file) throws IOException {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(file)) {
        p.load(in);
      } catch (java.nio.file.NoSuchFileException gone) {
        return Optional.empty();
      }
      return Optional.of(
          new Cluster(
              p.getProperty("instance"),
              p.getProperty("zookeepers"),
              p.getProperty("secret"),
              Path.of(p.getProperty("dir")),
              Long.parseLong(p.getProperty("pid"))));
    }
  }

  /**
   * A JVM's hold on one cluster of the pool, until {@link #close()} or the JVM's end: the lock on
   * the slot's {@value #LEASE_LOCK}, held through {@code channel} (closing it releases the lock).
   *
   * @param started whether this lease started the slot's daemon (else it took over a cluster
   *     another JVM gave up)
   */
  record Lease(Path slot, Cluster cluster, FileChannel channel, boolean started)
      implements AutoCloseable {
    @Override
    public void close() {
      try {
        touch(slot.resolve(RELEASED));
        channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The pool's directory, when the pool is on ({@value #POOL_PROPERTY}). */
  static Optional<Path> poolDir() {
    String p = System.getProperty(POOL_PROPERTY, "");
    return p.isBlank() ? Optional.empty() : Optional.of(Path.of(p.strip()).toAbsolutePath());
  }

  static int idleSeconds() {
    return Integer.getInteger(IDLE_PROPERTY, DEFAULT_IDLE_SECONDS);
  }

  /**
   * The daemon's class path, or empty when this testkit was not built with one or an entry of it is
   * gone (a testkit jar from another build).
   */
  static Optional<String> daemonClassPath() throws IOException {
    List<String> entries = new ArrayList<>();
    try {
      entries.add(
          Path.of(ClusterPool.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toString());
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
    try (InputStream in =
        ClusterPool.class.getClassLoader().getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        return Optional.empty();
      }
      String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String e : all.split("[\\r\\n" + java.io.File.pathSeparator + "]+")) {
        if (!e.isBlank()) {
          entries.add(e.strip());
        }
      }
    }
    for (String e : entries) {
      if (!Files.exists(Path.of(e))) {
        return Optional.empty();
      }
    }
    return Optional.of(String.join(java.io.File.pathSeparator, entries));
  }

  /**
   * Leases a free cluster of the pool in {@code pool}, or starts one (waiting at most {@code
   * startTimeout} for it) when every cluster is leased.
   */
  static Lease lease(Path pool, String classPath, Duration startTimeout)
      throws IOException, InterruptedException {
    Files.createDirectories(pool);
    Path slot;
    FileChannel channel;
    Process daemon;
    try (FileChannel poolChannel =
            FileChannel.open(
                pool.resolve("pool.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock poolLock = poolChannel.lock()) {
      // twice: a daemon looking whether its cluster is idle holds its slot's lock for a moment
      for (int attempt = 0; attempt < 2; attempt++) {
        Optional<Lease> free = takeFree(pool);
        if (free.isPresent()) {
          return free.get();
        }
        Thread.sleep(200);
      }
      slot = Files.createTempDirectory(pool, SLOT_PREFIX);
      channel =
          FileChannel.open(
              slot.resolve(LEASE_LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      channel.lock();
      try {
        daemon = spawn(slot, classPath);
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    }
    long deadline = System.nanoTime() + startTimeout.toNanos();
    Path ready = slot.resolve(READY);
    while (true) {
      Optional<Cluster> c = Cluster.read(ready);
      if (c.isPresent()) {
        return new Lease(slot, c.get(), channel, true);
      }
      if (!daemon.isAlive() || System.nanoTime() > deadline) {
        boolean died = !daemon.isAlive();
        daemon.destroy();
        channel.close();
        throw new IllegalStateException(
            (died
                    ? "the cluster pool's daemon ended (exit " + daemon.exitValue() + ")"
                    : "the cluster pool's daemon was not ready in " + startTimeout)
                + " before its cluster was ready; the end of "
                + slot.resolve(DAEMON_LOG)
                + ":\n"
                + tail(slot.resolve(DAEMON_LOG), 40));
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
  }

  /** The first ready slot no JVM leases and whose daemon lives, leased; in the pool's lock. */
  private static Optional<Lease> takeFree(Path pool) throws IOException {
    List<Path> slots;
    try (Stream<Path> s = Files.list(pool)) {
      slots =
          s.filter(p -> p.getFileName().toString().startsWith(SLOT_PREFIX))
              .filter(p -> Files.exists(p.resolve(READY)))
              .sorted()
              .toList();
    }
    for (Path slot : slots) {
      FileChannel ch;
      try {
        ch = FileChannel.open(slot.resolve(LEASE_LOCK), StandardOpenOption.WRITE);
      } catch (java.nio.file.NoSuchFileException gone) {
        continue;
      }
      FileLock lk;
      try {
        lk = ch.tryLock();
      } catch (OverlappingFileLockException mine) {
        lk = null;
      }
      if (lk == null) {
        ch.close();
        continue;
      }
      // the daemon deletes READY, holding this lock, before it stops its cluster
      Optional<Cluster> c = Cluster.read(slot.resolve(READY));
      if (c.isPresent()
          && ProcessHandle.of(c.get().daemonPid()).map(ProcessHandle::isAlive).orElse(false)) {
        return Optional.of(new Lease(slot, c.get(), ch, false));
      }
      ch.close();
    }
    return Optional.empty();
  }

  private static Process spawn(Path slot, String classPath) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    long build = buildProcess().map(ProcessHandle::pid).orElse(-1L);
    List<String> cmd =
        List.of(
            java,
            "-Xmx256m",
            "-cp",
            classPath,
            ClusterPoolDaemon.class.getName(),
            slot.toString(),
            Integer.toString(idleSeconds()),
            Long.toString(build),
            Boolean.toString(Boolean.getBoolean(AccumuloITBase.KEEP_DIR_PROPERTY)));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(slot.resolve(DAEMON_LOG).toFile())
            .start();
    p.getOutputStream().close();
    return p;
  }

  /**
   * The process of the build that runs this JVM: its nearest ancestor that is a JVM (failsafe
   * starts its forks through a shell, whose parent is Maven's JVM; an IDE starts them itself).
   */
  static Optional<ProcessHandle> buildProcess() {
    Optional<ProcessHandle> p = ProcessHandle.current().parent();
    while (p.isPresent()) {
      Optional<String> command = p.get().info().command();
      if (command.isPresent() && Path.of(command.get()).getFileName().toString().equals("java")) {
        return p;
      }
      p = p.get().parent();
    }
    return Optional.empty();
  }

  static void touch(Path file) throws IOException {
    if (Files.exists(file)) {
      Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
    } else {
      Files.createFile(file);
    }
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
