package io.webindex.cli;

import io.webindex.store.StoreException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM that holds an embedded Accumulo for a command whose own JVM has no {@code
 * JDK_JAVA_OPTIONS} (see {@code EmbeddedAccumulo}'s class comment for why), both of its sides: the
 * command starts it with {@link #launch}; in it, the program's {@code main} hands {@link #serve}
 * the start of the cluster in its directory (which writes the connection files), and the host
 * answers {@value #READY} on stdout, then keeps the cluster up until its stdin ends, which happens
 * when the command stops it (the stop {@link #launch} returns) or exits in any way, even killed.
 * Its stderr, with everything it logs, goes to {@value #LOG_FILE} in the directory.
 *
 * <p>{@code EmbeddedAccumulo} uses this class (its {@code start} and {@code main}), never the
 * reverse.
 */
final class EmbeddedAccumuloHost {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedAccumuloHost.class);

  static final String READY = "ready";
  static final String FAILED = "failed: ";
  static final String LOG_FILE = "embedded-accumulo.log";

  /** The environment variable the host JVM gets its extra options from. */
  static final String JDK_JAVA_OPTIONS = "JDK_JAVA_OPTIONS";

  private static final long STOP_SECONDS = 120;

  /** What the host JVM runs: starts the instance, and returns how to stop it. */
  interface Program {
    Runnable start() throws Exception;
  }

  /**
   * The system property with which {@code bin/webindex} names the {@code HADOOP_CONF_DIR} it put on
   * the class path: the embedded instance runs on the local file system whatever it names.
   */
  static final String HADOOP_CONF = "webindex.hadoop.conf.dir";

  private EmbeddedAccumuloHost() {}

  /** This JVM's class path without the Hadoop configuration directory {@code hadoopConf}. */
  static String hostClassPath(String classPath, String hadoopConf) {
    if (hadoopConf == null || hadoopConf.isEmpty()) {
      return classPath;
    }
    List<String> kept = new ArrayList<>();
    for (String entry : classPath.split(java.io.File.pathSeparator, -1)) {
      if (!entry.equals(hadoopConf)) {
        kept.add(entry);
      }
    }
    return String.join(java.io.File.pathSeparator, kept);
  }

  /**
   * Starts a host JVM that runs {@code main} with the argument {@code root} and the options {@code
   * jdkOptions} added to its {@code JDK_JAVA_OPTIONS}, and waits until it answers that its cluster
   * is up.
   *
   * @param root the instance's directory, existing; the host's log goes there
   * @return stops the host: ends its stdin, so that it stops its cluster, and waits for it to exit
   * @throws StoreException when the cluster does not start (the message names the log file)
   */
  static Runnable launch(Path root, Class<?> main, List<String> jdkOptions)
      throws IOException, InterruptedException {
    Path logFile = root.resolve(LOG_FILE);
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(hostClassPath(System.getProperty("java.class.path"), System.getProperty(HADOOP_CONF)));
    cmd.add(main.getName());
    cmd.add(root.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd);
    String have = System.getenv(JDK_JAVA_OPTIONS);
    pb.environment()
        .put(
            JDK_JAVA_OPTIONS,
            (have == null || have.isBlank() ? "" : have.strip() + " ")
                + String.join(" ", jdkOptions));
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
    return () -> stop(host);
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

  /** The host JVM's side, for its {@code main}: see the class comment. Exits the JVM. */
  static void serve(Program program) {
    // stdout is the answer to launch() only; everything else goes to stderr, the log file
    PrintStream answer = System.out;
    System.setOut(System.err);
    org.apache.log4j.Logger.getLogger("io.webindex").setLevel(org.apache.log4j.Level.INFO);
    Runnable stop;
    try {
      stop = program.start();
    } catch (Exception e) {
      log.error("the embedded Accumulo did not start", e);
      String message = String.valueOf(e.getMessage()).replace('\n', ' ');
      answer.println(FAILED + message);
      answer.flush();
      System.exit(1);
      return;
    }
    // Ctrl-C reaches this JVM too (same process group): stop the cluster on any exit
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "webindex-embedded-accumulo-stop"));
    answer.println(READY);
    answer.flush();
    try {
      while (System.in.read() >= 0) {
        // nothing is sent: the host waits for the end of its stdin
      }
    } catch (IOException e) {
      log.info("stdin failed ({}): stopping", e.toString());
    }
    stop.run();
    log.info("embedded Accumulo stopped");
    System.exit(0);
  }
}
