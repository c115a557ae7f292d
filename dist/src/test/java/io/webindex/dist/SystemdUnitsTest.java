package io.webindex.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.cli.Cli;
import io.webindex.cli.Main;
import io.webindex.testkit.SystemdUnits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd units of {@code systemd/}: the five services, each running a real {@code
 * bin/webindex} command as a non-root user, stopped with the signal the services handle, restarted
 * when they die; and, where {@code systemd-analyze} is installed, accepted by it without a warning.
 */
class SystemdUnitsTest {
  private static final Path REPO = Path.of(System.getProperty("webindex.repo", "..")).normalize();

  @TempDir Path tmp;

  /** unit file → the bin/webindex command it runs (a hand-written expectation). */
  private static final Map<String, String> EXPECTED =
      Map.of(
          "webindex-oracle.service", "fluo-oracle",
          "webindex-worker@.service", "fluo-worker",
          "webindex-loader.service", "load",
          "webindex-web.service", "serve",
          "webindex-frontier.service", "frontier-serve");

  @Test
  void theFiveServicesRunTheirCommandsAsTheWebindexUser() throws IOException {
    SystemdUnits units = SystemdUnits.read(REPO.resolve("systemd"));
    assertEquals(EXPECTED.keySet(), units.byFile().keySet());
    for (Map.Entry<String, String> e : EXPECTED.entrySet()) {
      String unit = e.getKey();
      List<String> exec = Arrays.asList(units.one(unit, "Service.ExecStart").split("\\s+"));
      assertEquals(SystemdUnits.INSTALL_ROOT + "/bin/webindex", exec.get(0), unit);
      assertEquals(e.getValue(), exec.get(1), unit);
      // the launcher exists in the distribution's tree and is executable
      assertTrue(Files.isExecutable(REPO.resolve("bin/webindex")), "bin/webindex");
      // the command and its options, as bin/webindex reads them: help for it, and its options
      // named in its usage
      String usage = help(e.getValue());
      for (String arg : exec.subList(2, exec.size())) {
        if (arg.startsWith("--")) {
          assertTrue(
              usage.contains(arg + " "), unit + ": " + arg + " is not an option of " + usage);
        }
      }
      assertEquals("webindex", units.one(unit, "Service.User"), unit);
      assertEquals("webindex", units.one(unit, "Service.Group"), unit);
      assertEquals("simple", units.one(unit, "Service.Type"), unit);
      assertEquals("/etc/webindex/webindex.env", units.one(unit, "Service.EnvironmentFile"), unit);
      // StopOnSignal: SIGTERM stops a service cleanly, the JVM then exits with 143
      assertEquals("SIGTERM", units.one(unit, "Service.KillSignal"), unit);
      assertEquals("143", units.one(unit, "Service.SuccessExitStatus"), unit);
      // and waits up to 60 s for the cleanup: systemd must wait longer before SIGKILL
      assertTrue(Integer.parseInt(units.one(unit, "Service.TimeoutStopSec")) > 60, unit);
      assertEquals("always", units.one(unit, "Service.Restart"), unit);
      assertEquals("2", units.one(unit, "Service.RestartPreventExitStatus"), unit);
      assertTrue(units.one(unit, "Service.Environment").startsWith("WEBINDEX_JAVA_OPTS=-Xmx"));
      assertEquals("multi-user.target", units.one(unit, "Install.WantedBy"), unit);
    }
    assertTrue(
        units.one("webindex-loader.service", "Service.ExecStart").contains(" load --watch "),
        "the loader watches");
  }

  /** {@code bin/webindex help <command>}, in this JVM; fails unless it exits 0. */
  private String help(String command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(List.of("help", command), new Cli(tmp, out, err));
    assertEquals(0, status, command + ": " + err.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * systemd's own check of each unit (an instance for the template), with the install root made
   * this checkout's, which has bin/webindex where the distribution has it. Without systemd-analyze
   * (not a systemd host) the parse above is the check.
   */
  @Test
  void systemdAnalyzeVerifiesEveryUnit() throws Exception {
    Path analyze = Path.of("/usr/bin/systemd-analyze");
    if (!Files.isExecutable(analyze)) {
      analyze = Path.of("/bin/systemd-analyze");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isExecutable(analyze), "systemd-analyze is not installed");
    Path env = Files.writeString(tmp.resolve("webindex.env"), "WEBINDEX_WORKER_OPTS=--threads 2\n");
    Path root = REPO.toAbsolutePath().normalize();
    List<String> cmd = new ArrayList<>(List.of(analyze.toString(), "verify", "--man=no"));
    for (String unit : EXPECTED.keySet()) {
      String text =
          Files.readString(REPO.resolve("systemd").resolve(unit))
              .replace("/etc/webindex/webindex.env", env.toString())
              .replace(SystemdUnits.INSTALL_ROOT + "/", root + "/");
      String name = unit.replace("@.service", "@1.service");
      cmd.add(Files.writeString(tmp.resolve(name), text).toString());
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "systemd-analyze did not end");
    assertEquals(0, p.exitValue(), said);
    assertEquals("", said, "systemd-analyze warned");
  }
}
