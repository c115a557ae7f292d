package io.webindex.testkit;

import io.webindex.core.files.LocalFiles;
import io.webindex.embedded.MiniAccumulo;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * One cluster of the {@link ClusterPool}: starts a MiniAccumulo in {@code <slot>/mac} as {@link
 * AccumuloITBase} starts its own (a random instance secret, the root password set through the
 * client API to {@link AccumuloITBase#ROOT_PASSWORD}), describes it in {@code <slot>/}{@value
 * ClusterPool#READY}, and stops and deletes it when no JVM leased it for the idle time, when the
 * build's process ended and no JVM leases it, or on SIGTERM.
 *
 * <p>Arguments: the slot directory, the idle time in seconds, the build's process id (-1: none),
 * and whether to keep the cluster's directory.
 */
public final class ClusterPoolDaemon {
  private ClusterPoolDaemon() {}

  public static void main(String[] args) throws Exception {
    Path slot = Path.of(args[0]);
    long idleMillis = TimeUnit.SECONDS.toMillis(Long.parseLong(args[1]));
    long build = Long.parseLong(args[2]);
    boolean keep = Boolean.parseBoolean(args[3]);
    Path dir = slot.resolve("mac");
    long start = System.nanoTime();
    MiniAccumulo mac = MiniAccumulo.in(dir).gcCycleDelay(AccumuloITBase.GC_CYCLE_DELAY).start();
    Thread hook = new Thread(() -> stop(mac, slot, dir, keep, "signal"), "stop-pooled-cluster");
    Runtime.getRuntime().addShutdownHook(hook);
    mac.replaceRootPassword(AccumuloITBase.ROOT_PASSWORD);
    new ClusterPool.Cluster(
            mac.instanceName(),
            mac.zookeepers(),
            mac.instanceSecret(),
            dir,
            ProcessHandle.current().pid())
        .write(slot.resolve(ClusterPool.READY));
    say(
        "MiniAccumulo "
            + mac.instanceName()
            + " ready in "
            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
            + " ms (zookeepers "
            + mac.zookeepers()
            + ")");
    String why;
    long lastLeased = System.currentTimeMillis();
    try (FileChannel ch =
        FileChannel.open(slot.resolve(ClusterPool.LEASE_LOCK), StandardOpenOption.WRITE)) {
      while (true) {
        TimeUnit.SECONDS.sleep(1);
        boolean buildEnded =
            build > 0 && !ProcessHandle.of(build).map(ProcessHandle::isAlive).orElse(false);
        FileLock probe = ch.tryLock();
        if (probe == null) {
          // leased (after the build's end too: a JVM of another build in the same tree holds it)
          lastLeased = System.currentTimeMillis();
          continue;
        }
        if (buildEnded) {
          Files.delete(slot.resolve(ClusterPool.READY));
          why = "the build's process " + build + " ended";
          break;
        }
        Path released = slot.resolve(ClusterPool.RELEASED);
        long since =
            Math.max(
                lastLeased,
                Files.exists(released) ? Files.getLastModifiedTime(released).toMillis() : 0);
        if (System.currentTimeMillis() - since > idleMillis) {
          // no JVM can lease it from now on: they look for READY holding this lock
          Files.delete(slot.resolve(ClusterPool.READY));
          why = "idle for " + TimeUnit.MILLISECONDS.toSeconds(idleMillis) + " s";
          break;
        }
        probe.release();
      }
    }
    say("stopping: " + why);
    Runtime.getRuntime().removeShutdownHook(hook);
    stop(mac, slot, dir, keep, why);
    System.exit(0);
  }

  private static synchronized void stop(
      MiniAccumulo mac, Path slot, Path dir, boolean keep, String why) {
    try {
      mac.stop();
    } catch (IOException | InterruptedException | RuntimeException e) {
      say("could not stop the cluster (" + why + "): " + e);
    }
    try {
      if (keep) {
        say("kept " + dir);
      } else {
        LocalFiles.deleteRecursively(dir);
        Files.deleteIfExists(slot.resolve(ClusterPool.READY));
      }
    } catch (IOException e) {
      say("could not delete " + dir + ": " + e);
    }
  }

  private static void say(String line) {
    System.out.println(Instant.now() + " " + line);
    System.out.flush();
  }
}
