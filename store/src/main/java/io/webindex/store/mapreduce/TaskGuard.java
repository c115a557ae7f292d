package io.webindex.store.mapreduce;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the body of every webindex map and reduce task ({@code run(Context)}): when it throws, the
 * exception is recorded in the job's task-errors directory ({@link Jobs#TASK_ERRORS_DIR}, one file
 * per failed attempt) before it propagates, so the driver can say why a job failed — Hadoop's local
 * job runner reports no failure info and no task diagnostics, and on a cluster they are a stack
 * trace in a log. Also home of the test-only fault switch {@link Jobs#TEST_FAULT}.
 */
public final class TaskGuard {
  private static final Logger log = LoggerFactory.getLogger(TaskGuard.class);
  private static final int MAX_CHARS = 2000;

  private TaskGuard() {}

  /** A task body: {@code () -> super.run(context)}. */
  public interface Body {
    void run() throws IOException, InterruptedException;
  }

  public static void run(TaskAttemptContext context, Body body)
      throws IOException, InterruptedException {
    try {
      body.run();
      injectedFault(context);
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      record(context, e);
      throw e;
    }
  }

  /**
   * The test-only fault: with {@code webindex.mr.test.fault=<stage>}, reduce task 0 of that stage
   * fails after it has written its output, before the output is committed, in every attempt; with
   * {@code <stage>:once} ({@link Jobs#ONCE}) only its first attempt fails, so a framework that
   * retries failed tasks (YARN; the local job runner does not) still completes the job.
   */
  private static void injectedFault(TaskAttemptContext context) throws IOException {
    Configuration c = context.getConfiguration();
    String fault = c.get(Jobs.TEST_FAULT);
    if (fault == null) {
      return;
    }
    boolean once = fault.endsWith(Jobs.ONCE);
    String target = once ? fault.substring(0, fault.length() - Jobs.ONCE.length()) : fault;
    String stage = c.get(Jobs.STAGE);
    TaskAttemptID id = context.getTaskAttemptID();
    if (target.equals(stage)
        && id.getTaskType() == TaskType.REDUCE
        && id.getTaskID().getId() == 0
        && (!once || id.getId() == 0)) {
      throw new IOException(
          "injected fault ("
              + Jobs.TEST_FAULT
              + "="
              + fault
              + ", a test setting): reduce task 0 of stage "
              + stage
              + (once ? " fails in its first attempt " + id : " fails"));
    }
  }

  /**
   * The test-only fault of a framework plug-in ({@link GuardedShuffle}, {@link GuardedCollector}):
   * with {@code webindex.mr.test.fault=<stage><suffix>}, task 0 of that stage fails there.
   *
   * @return the exception to throw, or null
   */
  static IOException pluginFault(
      Configuration conf,
      org.apache.hadoop.mapreduce.TaskAttemptID id,
      String suffix,
      String where) {
    String fault = conf.get(Jobs.TEST_FAULT);
    if (fault == null
        || !fault.equals(conf.get(Jobs.STAGE) + suffix)
        || id.getTaskID().getId() != 0) {
      return null;
    }
    return new IOException(
        "injected fault ("
            + Jobs.TEST_FAULT
            + "="
            + fault
            + ", a test setting): "
            + where
            + " of "
            + (id.getTaskType() == TaskType.MAP ? "map" : "reduce")
            + " task 0 fails");
  }

  /** Writes {@code <task errors dir>/<attempt id>}; best effort, never throws. */
  static void record(TaskAttemptContext context, Throwable t) {
    record(context.getConfiguration(), context.getTaskAttemptID(), t);
  }

  /** As {@link #record(TaskAttemptContext, Throwable)}, for a task's configuration and id. */
  static void record(
      Configuration conf, org.apache.hadoop.mapreduce.TaskAttemptID attempt, Throwable t) {
    String dir = conf.get(Jobs.TASK_ERRORS_DIR);
    if (dir == null || dir.isEmpty()) {
      return;
    }
    Path file = new Path(dir, attempt.toString());
    try {
      FileSystem fs = file.getFileSystem(conf);
      try (OutputStream out = fs.create(file, true)) {
        out.write(describe(t).getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException | RuntimeException e) {
      log.warn("could not record the failure of {} in {}: {}", attempt, dir, e);
    }
  }

  /** One line: the exception and its causes, each once. */
  static String describe(Throwable t) {
    StringBuilder sb = new StringBuilder(t.toString());
    Throwable c = t.getCause();
    for (int depth = 0; c != null && c != t && depth < 5; depth++, c = c.getCause()) {
      String s = c.toString();
      if (!sb.toString().contains(s)) {
        sb.append(" <- caused by ").append(s);
      }
    }
    String line = sb.toString().replaceAll("\\s*[\\r\\n]+\\s*", " | ");
    return line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS) + " …";
  }
}
