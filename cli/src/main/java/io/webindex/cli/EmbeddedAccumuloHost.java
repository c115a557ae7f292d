package io.webindex.cli;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.StoreException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM that holds an {@link EmbeddedAccumulo} for a command whose own JVM has no {@code
 * JDK_JAVA_OPTIONS} (see {@link EmbeddedAccumulo}'s class comment for why): the command starts it
 * with {@link #launch}, it starts the cluster in its directory, writes the connection files and
 * answers {@value #READY} on stdout, then keeps the cluster up until its stdin ends, which happens
 * when the command closes it ({@link EmbeddedAccumulo#close}) or exits in any way, even killed. Its
 * stderr, with everything it logs, goes to {@value #LOG_FILE} in the directory.
 */
final class EmbeddedAccumuloHost {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedAccumuloHost.class);

  static final String READY = "ready";
  static final String FAILED = "failed: ";
  static final String LOG_FILE = "embedded-accumulo.log";

  private static final long STOP_SECONDS = 120;

  private EmbeddedAccumuloHost() {}

  /**
   * Starts a host JVM for {@code dir} and waits until its cluster is up.
   *
   * @throws StoreException when the cluster does not start (the message names the log file)
   */
  static EmbeddedAccumulo launch(Path dir) throws IOException, InterruptedException {
    Path root = EmbeddedAccumulo.createOwnerOnlyDirectory(dir);
    Path logFile = root.resolve(LOG_FILE);
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(EmbeddedAccumuloHost.class.getName());
    cmd.add(root.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd);
    String have = System.getenv(EmbeddedAccumulo.JDK_JAVA_OPTIONS);
    pb.environment()
        .put(
            EmbeddedAccumulo.JDK_JAVA_OPTIONS,
            (have == null || have.isBlank() ? "" : have.strip() + " ")
                + String.join(" ", EmbeddedAccumulo.REQUIRED_JDK_OPTIONS));
    pb.redirectError(logFile.toFile());
    log.info("starting the embedded Accumulo's host JVM; its log: {}", logFile);
    Process host = pb.start();
    String answer;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8))) {
      answer = out.readLine();
    }
    if (!READY.equals(answer)) {
      stop(host);
      String why =
          answer != null && answer.startsWith(FAILED)
              ? answer.substring(FAILED.length())
              : "its host JVM ended with status " + host.exitValue();
      throw new StoreException("the embedded Accumulo did not start (" + why + "); see " + logFile);
    }
    WebindexConfig cfg =
        WebindexConfig.load(root.resolve(EmbeddedAccumulo.CONNECTION_FILE), Map.of());
    String password = Files.readString(root.resolve(EmbeddedAccumulo.PASSWORD_FILE)).strip();
    return new EmbeddedAccumulo(
        root, cfg.accumuloInstance(), cfg.zookeepers(), password, () -> stop(host));
  }

  /** Ends the host's stdin, so that it stops its cluster, and waits for it to exit. */
  private static void stop(Process host) {
    try {
      host.getOutputStream().close();
    } catch (IOException e) {
      log.debug("closing the host's stdin", e);
    }
    try {
      if (!host.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
        log.warn("the embedded Accumulo's host JVM did not stop in {} s; killing it", STOP_SECONDS);
        host.descendants().forEach(ProcessHandle::destroyForcibly);
        host.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("interrupted while stopping the embedded Accumulo");
    }
  }

  /** {@code EmbeddedAccumuloHost DIR}: see the class comment. */
  public static void main(String[] args) {
    // stdout is the answer to launch() only; everything else goes to stderr, the log file
    PrintStream answer = System.out;
    System.setOut(System.err);
    org.apache.log4j.Logger.getLogger("io.webindex").setLevel(org.apache.log4j.Level.INFO);
    EmbeddedAccumulo embedded;
    try {
      embedded = EmbeddedAccumulo.startHere(Path.of(args[0]));
    } catch (Exception e) {
      log.error("the embedded Accumulo did not start", e);
      String message = String.valueOf(e.getMessage()).replace('\n', ' ');
      answer.println(FAILED + message);
      answer.flush();
      System.exit(1);
      return;
    }
    // Ctrl-C reaches this JVM too (same process group): stop the cluster on any exit
    Runtime.getRuntime()
        .addShutdownHook(new Thread(embedded::close, "webindex-embedded-accumulo-stop"));
    answer.println(READY);
    answer.flush();
    try {
      while (System.in.read() >= 0) {
        // nothing is sent: the host waits for the end of its stdin
      }
    } catch (IOException e) {
      log.info("stdin failed ({}): stopping", e.toString());
    }
    embedded.close();
    log.info("embedded Accumulo stopped");
    System.exit(0);
  }
}
