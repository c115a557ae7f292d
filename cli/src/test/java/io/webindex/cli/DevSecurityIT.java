package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.testkit.ChildProcessWatcher;
import io.webindex.testkit.SecretScan;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * {@code bin/webindex dev} keeps its secret: the directory is owner-only, the password file too,
 * the connection file names the least-privileged user {@value EmbeddedAccumulo#USER}, and neither
 * that user's password nor a working root password is on any child process's command line (read
 * from {@code /proc}: MiniAccumulo's Initialize gets the root password as an argument).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DevSecurityIT {
  @TempDir Path home;

  @Test
  void devDirectoryPasswordAndCommandLines() throws Exception {
    Path devDir = home.resolve(Cli.DEV_DIR);
    Path pwFile = devDir.resolve(EmbeddedAccumulo.PASSWORD_FILE);
    ByteArrayOutputStream devOut = new ByteArrayOutputStream();
    ByteArrayOutputStream devErr = new ByteArrayOutputStream();
    Cli devCtx = new Cli(home, devOut, devErr);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (ChildProcessWatcher children = ChildProcessWatcher.start()) {
      Future<Integer> dev = pool.submit(() -> Main.run(List.of("dev"), devCtx));
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!devOut.toString(StandardCharsets.UTF_8).contains("press Ctrl-C")) {
        assertFalse(dev.isDone(), () -> "dev ended: " + devErr.toString(StandardCharsets.UTF_8));
        assertTrue(System.nanoTime() < deadline, "dev did not start in 3 minutes");
        Thread.sleep(200);
      }
      children.slowDown();

      assertEquals("rwx------", permissions(devDir), "the dev directory is owner-only");
      assertEquals("rw-------", permissions(pwFile), "the password file is owner-only");
      String password = Files.readString(pwFile).strip();
      WebindexConfig cfg =
          WebindexConfig.load(devDir.resolve(EmbeddedAccumulo.CONNECTION_FILE), Map.of());
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
      found.addAll(scan.text("dev stdout", devOut.toString(StandardCharsets.UTF_8)));
      found.addAll(scan.text("dev stderr", devErr.toString(StandardCharsets.UTF_8)));
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

      devCtx.requestStop();
      assertEquals(0, (int) dev.get(2, TimeUnit.MINUTES), devErr.toString(StandardCharsets.UTF_8));
      assertFalse(Files.exists(pwFile), "password file removed on stop");
    } finally {
      devCtx.requestStop();
      pool.shutdown();
      pool.awaitTermination(2, TimeUnit.MINUTES);
    }
  }

  private static String permissions(Path p) throws java.io.IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
