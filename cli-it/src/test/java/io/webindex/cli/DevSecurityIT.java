package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.Cells;
import io.webindex.testkit.ChildProcessWatcher;
import io.webindex.testkit.SecretScan;
import io.webindex.testkit.WorkedExample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.ClientConfiguration;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.ZooKeeperInstance;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.security.SystemPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/webindex dev} serves the other commands and keeps its secret: the directory is
 * owner-only, the password file too, the connection file names the least-privileged user {@value
 * EmbeddedAccumulo#USER} (the other commands find it with no {@code --conf}; a second {@code dev}
 * is refused; stopping removes the connection files), and neither that user's password nor a
 * working root password is on any child process's command line (read from {@code /proc}:
 * MiniAccumulo's Initialize gets the root password as an argument).
 *
 * <p>{@code dev} runs as {@code bin/webindex} starts it: a JVM of its own without {@code
 * JDK_JAVA_OPTIONS}, so its embedded Accumulo runs in a host JVM ({@link EmbeddedAccumuloHost});
 * its stderr has no "NOTE: Picked up" line, and SIGTERM stops every process it started.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DevSecurityIT {
  @TempDir Path home;

  @Test
  void devDirectoryPasswordAndCommandLines() throws Exception {
    Path devDir = home.resolve(Cli.DEV_DIR);
    Path pwFile = devDir.resolve(EmbeddedAccumulo.PASSWORD_FILE);
    Path connFile = devDir.resolve(EmbeddedAccumulo.CONNECTION_FILE);
    Path devOut = home.resolve("dev.out");
    Path devErr = home.resolve("dev.err");
    ProcessBuilder pb =
        new ProcessBuilder(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-D" + Cli.HOME_PROPERTY + "=" + home,
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "dev");
    pb.environment().remove(EmbeddedAccumulo.JDK_JAVA_OPTIONS);
    pb.redirectOutput(devOut.toFile()).redirectError(devErr.toFile());
    Process dev = null;
    try (ChildProcessWatcher children = ChildProcessWatcher.start()) {
      dev = pb.start();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!Files.readString(devOut).contains("press Ctrl-C")) {
        assertTrue(dev.isAlive(), "dev ended: " + Files.readString(devErr));
        assertTrue(System.nanoTime() < deadline, "dev did not start in 3 minutes");
        Thread.sleep(200);
      }
      children.slowDown();

      assertEquals("rwx------", permissions(devDir), "the dev directory is owner-only");
      assertEquals("rw-------", permissions(pwFile), "the password file is owner-only");
      String password = Files.readString(pwFile).strip();
      WebindexConfig cfg = WebindexConfig.load(connFile, Map.of());
      assertEquals(EmbeddedAccumulo.USER, cfg.accumuloUser());
      Connector user = AccumuloConnections.connect(cfg);
      for (SystemPermission p : SystemPermission.values()) {
        assertEquals(
            EmbeddedAccumulo.USER_SYSTEM_PERMISSIONS.contains(p),
            user.securityOperations().hasSystemPermission(EmbeddedAccumulo.USER, p),
            p.toString());
      }
      user.tableOperations().create("mine");
      user.tableOperations().delete("mine");

      // the other commands find the instance with no --conf (the connection file in the home),
      // and a second dev is refused
      String printed = Files.readString(devOut);
      assertTrue(printed.contains("connection file: " + connFile), printed);
      assertFalse(Files.readString(connFile).contains(password), "no password in " + connFile);
      assertEquals(password, cfg.accumuloPassword().value());
      assertEquals(EmbeddedAccumulo.fileUri(devDir.resolve("store")), cfg.storeRoot());
      assertEquals(EmbeddedAccumulo.fileUri(devDir.resolve("work")), cfg.workDir());
      assertTrue(Files.isDirectory(devDir.resolve("store")));
      user.tableOperations().create("worked");
      Cells.write(user, "worked", WorkedExample.index().cells());
      Run top = Run.of(home, "query", "top", "--table", "worked");
      assertEquals(0, top.status(), top.toString());
      assertEquals(CliIT.TOP, top.out());
      Run second = Run.of(home, "dev");
      assertEquals(2, second.status(), second.toString());
      assertTrue(second.err().contains("already running in " + devDir), second.err());

      List<ChildProcessWatcher.Seen> seen = children.seen();
      ChildProcessWatcher.Seen init =
          seen.stream()
              .filter(c -> c.commandLine().contains("org.apache.accumulo.server.init.Initialize"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("Initialize was not seen: " + seen));
      List<String> found = new ArrayList<>();
      SecretScan scan = new SecretScan(password);
      for (ChildProcessWatcher.Seen c : seen) {
        found.addAll(scan.text("command line of " + c, c.commandLine()));
        found.addAll(scan.text("environment of " + c, c.environment()));
      }
      found.addAll(scan.text("dev stdout", Files.readString(devOut)));
      found.addAll(scan.text("dev stderr", Files.readString(devErr)));
      found.addAll(scan.file(devDir.resolve(EmbeddedAccumuloHost.LOG_FILE)));
      assertEquals(List.of(), found);

      // the root password Initialize showed to ps opens nothing any more
      List<String> args = List.of(init.commandLine().split(" "));
      String shown = args.get(args.indexOf("--password") + 1);
      ZooKeeperInstance instance =
          new ZooKeeperInstance(
              ClientConfiguration.create()
                  .withInstance(cfg.accumuloInstance())
                  .withZkHosts(cfg.zookeepers()));
      assertThrows(
          AccumuloSecurityException.class,
          () -> instance.getConnector("root", new PasswordToken(shown)));

      // SIGTERM, as an operator's kill: the JVM's shutdown stops the host and its servers
      List<ProcessHandle> started = dev.descendants().toList();
      assertFalse(started.isEmpty(), "dev started no process");
      dev.destroy();
      assertTrue(dev.waitFor(2, TimeUnit.MINUTES), "dev stopped in 2 minutes");
      assertEquals(143, dev.exitValue(), Files.readString(devErr));
      for (ProcessHandle h : started) {
        assertTrue(
            h.onExit().get(1, TimeUnit.MINUTES) != null && !h.isAlive(),
            "still running after dev stopped: " + h.info());
      }
      assertFalse(Files.exists(pwFile), "password file removed on stop");
      assertFalse(Files.exists(connFile), "connection file removed on stop");
      Run after = Run.of(home, "query", "top", "--table", "worked");
      assertEquals(2, after.status(), after.toString());
      assertTrue(after.err().contains("no configuration"), after.err());
      // the launcher's note on JDK_JAVA_OPTIONS is in the host's log, not on dev's stderr
      assertFalse(Files.readString(devErr).contains("NOTE: Picked up"), Files.readString(devErr));
      assertTrue(
          Files.readString(devDir.resolve(EmbeddedAccumuloHost.LOG_FILE))
              .contains("NOTE: Picked up JDK_JAVA_OPTIONS"),
          "the host JVM got the options MiniAccumulo's servers need");
    } finally {
      if (dev != null && dev.isAlive()) {
        dev.descendants().forEach(ProcessHandle::destroyForcibly);
        dev.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
      }
    }
  }

  private static String permissions(Path p) throws java.io.IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
