package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.config.WebindexConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Long-running {@code bin/webindex} commands (the Fluo services, {@code load --watch}) as JVMs of
 * their own, as an operator runs them: each one's stdout and stderr in a log file, the password
 * only in the configuration's password file. {@link #close} kills what is still running.
 */
final class ServiceProcesses implements AutoCloseable {
  /** One child: {@code bin/webindex} in a JVM of its own. */
  record Child(String name, Process process, Path logFile) {
    /** SIGTERM, as an operator stops a service; the exit status. */
    int stop() throws InterruptedException {
      process.destroy();
      assertTrue(process.waitFor(90, TimeUnit.SECONDS), name + " stopped within 90 s");
      return process.exitValue();
    }

    /** SIGKILL: a host that dies. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), name + " killed");
    }

    String log() {
      try {
        return Files.readString(logFile, StandardCharsets.UTF_8);
      } catch (IOException e) {
        return e.toString();
      }
    }

    /** Its log and, while it runs, its threads' stacks (jcmd), for a failure message. */
    String logAndThreads() {
      StringBuilder sb = new StringBuilder(log());
      if (process.isAlive()) {
        Path jcmd = Paths.get(System.getProperty("java.home"), "bin", "jcmd");
        try {
          Process p =
              new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                  .redirectErrorStream(true)
                  .start();
          String stacks = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          p.waitFor(30, TimeUnit.SECONDS);
          sb.append("\n--- threads of ").append(name).append('\n').append(stacks);
        } catch (IOException e) {
          sb.append("\n(no thread dump: ").append(e).append(')');
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return sb.toString();
    }
  }

  private final Path dir;
  private final String conf;
  private final List<Child> children = new ArrayList<>();

  /**
   * @param dir where the logs and the logging configuration go
   * @param conf the webindex configuration every child gets ({@code --conf})
   */
  ServiceProcesses(Path dir, String conf) throws IOException {
    this(dir, conf, "WARN", "log4j.logger.io.webindex=INFO");
  }

  /**
   * @param rootLevel the children's root log level
   * @param loggers further lines of their log4j configuration ({@code log4j.logger.x=LEVEL})
   */
  ServiceProcesses(Path dir, String conf, String rootLevel, String... loggers) throws IOException {
    this.dir = dir;
    this.conf = conf;
    List<String> lines =
        new ArrayList<>(
            List.of(
                "log4j.rootLogger=" + rootLevel + ", stderr",
                "log4j.appender.stderr=org.apache.log4j.ConsoleAppender",
                "log4j.appender.stderr.Target=System.err",
                "log4j.appender.stderr.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.stderr.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c - %m%n"));
    lines.addAll(List.of(loggers));
    lines.add("");
    Files.writeString(dir.resolve("child-log4j.properties"), String.join("\n", lines));
  }

  /** Every child started so far. */
  List<Child> children() {
    return List.copyOf(children);
  }

  /** Starts {@code bin/webindex args… --conf CONF} in a JVM of its own. */
  Child start(String name, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Dlog4j.configuration=" + dir.resolve("child-log4j.properties").toUri());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    cmd.add("--conf");
    cmd.add(conf);
    Path log = dir.resolve(name + ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    pb.environment().remove(WebindexConfig.PASSWORD_ENV);
    Child ch = new Child(name, pb.start(), log);
    children.add(ch);
    return ch;
  }

  /** Fails when a child died that nobody stopped (its log in the message). */
  void assertAlive() {
    for (Child ch : children) {
      if (!ch.process().isAlive()
          && ch.process().exitValue() != 143
          && ch.process().exitValue() != 137) {
        throw new AssertionError(
            ch.name() + " died (" + ch.process().exitValue() + "): " + ch.log());
      }
    }
  }

  /** Every child's log, for a failure message. */
  String logs() {
    StringBuilder sb = new StringBuilder();
    for (Child ch : children) {
      sb.append("\n--- ").append(ch.name()).append('\n').append(ch.log());
    }
    return sb.toString();
  }

  /** Waits up to {@code max} for {@code done}, failing when a child dies meanwhile. */
  void await(String what, Duration max, BooleanSupplier done) {
    poll(
        what,
        max,
        () -> {
          assertAlive();
          return done.getAsBoolean();
        },
        this::logs);
  }

  /**
   * Waits up to {@code max} for {@code done}; the failure message ends with {@code detail}. Asks
   * every 250 ms for the first 5 s, then every 750 ms: many conditions open a Fluo client or a
   * ZooKeeper session per question (FluoSession.applied, WebindexApp.processes), which costs the
   * test JVM, ZooKeeper and the oracle CPU the whole suite shares, and most waits last tens of
   * seconds (a batch applied by a loader that looks every 2 s, services that follow a cut-over).
   */
  static void poll(String what, Duration max, BooleanSupplier done, Supplier<String> detail) {
    Instant start = Instant.now();
    Instant until = start.plus(max);
    while (!done.getAsBoolean()) {
      assertFalse(
          Instant.now().isAfter(until), () -> "timed out waiting for " + what + detail.get());
      try {
        Thread.sleep(Instant.now().isBefore(start.plusSeconds(5)) ? 250 : 750);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    for (Child ch : children) {
      if (ch.process().isAlive()) {
        ch.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }
}
