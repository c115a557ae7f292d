package io.webindex.store;

import io.webindex.core.exit.ExitStatus;
import java.io.PrintStream;
import java.io.PrintWriter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code main} of every webindex Hadoop Tool and the failure handling of their {@code run}: a
 * failure becomes one line on stderr and its {@link ExitStatus} ({@link Failures}), never an
 * uncaught exception (which the JVM ends with status 1, the check's verdict INCONSISTENT).
 */
public final class ToolMain {
  private static final Logger log = LoggerFactory.getLogger(ToolMain.class);

  private ToolMain() {}

  /** Runs {@code tool} through {@link ToolRunner} and exits the JVM with its status. */
  public static void exit(String name, Tool tool, String[] args) {
    System.exit(run(name, tool, args));
  }

  /** As {@link #exit} without exiting: the status. */
  public static int run(String name, Tool tool, String[] args) {
    try {
      return ToolRunner.run(new Configuration(), tool, args);
    } catch (Throwable e) {
      PrintWriter err = new PrintWriter(System.err, true);
      int status = fail(name, e, err);
      err.flush();
      return status;
    }
  }

  /**
   * Reports {@code e}, thrown by Tool {@code name}, on {@code err} as one line {@code name:
   * message} (an internal failure also logged with its stack trace) and returns its exit status.
   */
  public static int fail(String name, Throwable e, PrintWriter err) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    int status = Failures.exitStatus(e);
    if (status == ExitStatus.INTERNAL) {
      log.error("{} failed", name, e);
    } else {
      log.debug("{} failed", name, e);
    }
    String advice = Failures.advice(status);
    err.println(name + ": " + Failures.describe(e) + (advice.isEmpty() ? "" : " (" + advice + ")"));
    return status;
  }

  /** As {@link #fail(String, Throwable, PrintWriter)} on a {@link PrintStream}. */
  public static int fail(String name, Throwable e, PrintStream err) {
    PrintWriter w = new PrintWriter(err, true);
    int status = fail(name, e, w);
    w.flush();
    return status;
  }
}
