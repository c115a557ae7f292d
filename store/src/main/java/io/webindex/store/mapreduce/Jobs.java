package io.webindex.store.mapreduce;

import io.webindex.store.JobSecrets;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;

/**
 * Runs webindex's MapReduce jobs, all through {@link #run}: secrets are stripped from the job's
 * configuration ({@link JobSecrets}), an observer sees the job as it is submitted, the job runs to
 * its end, and a failure is reported with the exception of the first failed task attempt (recorded
 * by {@link TaskGuard}), not the local runner's {@code NA}.
 */
public final class Jobs {
  /** The job's stage: {@code latest}, {@code uris}, {@code write} or {@code check}. */
  public static final String STAGE = "webindex.mr.stage";

  /** Where a failed task attempt records its exception; set by {@link #run}. */
  public static final String TASK_ERRORS_DIR = "webindex.mr.task.errors.dir";

  /**
   * TESTS ONLY: a fault to inject, for the fault tests of docs/recompute.md. {@code latest}, {@code
   * uris}, {@code write}, {@code check}: reduce task 0 of that stage fails after writing its
   * output; {@code import}: recompute takes its fresh table offline just before the bulk import, so
   * Accumulo refuses the import. A stage followed by {@link #ONCE} ({@code write:once}): only the
   * first attempt of that reduce task fails, so a retrying framework (YARN) completes the job.
   * Never set it in a real configuration.
   */
  public static final String TEST_FAULT = "webindex.mr.test.fault";

  /** Suffix of a {@link #TEST_FAULT} stage whose task fails in its first attempt only. */
  public static final String ONCE = ":once";

  /** The tag every webindex job carries ({@code yarn application -list -appTags webindex}). */
  public static final String TAG = "webindex";

  private Jobs() {}

  /**
   * Sets {@code key} to {@code value} unless a configuration file, the command line or the code set
   * it: a value that only Hadoop's {@code *-default.xml} gives counts as unset. (Once a JVM has
   * loaded {@code JobConf}, every configuration in it reads {@code mapred-default.xml}, and
   * Hadoop's own {@code setIfUnset} takes its values, e.g. a 5 s completion poll, for settings.)
   */
  public static void setUnlessConfigured(Configuration conf, String key, String value) {
    String[] sources = conf.getPropertySources(key);
    boolean onlyDefaults =
        sources != null
            && sources.length > 0
            && Arrays.stream(sources).allMatch(s -> s.endsWith("-default.xml"));
    if (conf.get(key) == null || onlyDefaults) {
      conf.set(key, value);
    }
  }

  /**
   * Whether jobs of {@code conf} run on Hadoop's local job runner, in this process ({@code
   * mapreduce.framework.name} unset or {@code local}), rather than on a cluster.
   */
  public static boolean runLocally(Configuration conf) {
    return MRConfig.LOCAL_FRAMEWORK_NAME.equals(
        conf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME));
  }

  /**
   * Names job {@code job} of {@code tool} for run {@code runId} and stage {@code stage} ({@code
   * webindex recompute 202612010300: latest}) and adds its YARN application tags ({@code
   * mapreduce.job.tags}): {@code webindex}, {@code webindex-run-<run>} and {@code
   * webindex-<stage>}, after the tags the configuration carries already (a scheduler's own, e.g.
   * Oozie's launcher tag). YARN keeps tags in lower case, so the run's tag is lower case.
   */
  public static void label(Job job, String tool, String runId, String stage) {
    job.setJobName("webindex " + tool + " " + runId + ": " + stage);
    Configuration c = job.getConfiguration();
    java.util.LinkedHashSet<String> tags =
        new java.util.LinkedHashSet<>(c.getTrimmedStringCollection(MRJobConfig.JOB_TAGS));
    tags.addAll(tags(runId, stage));
    c.setStrings(MRJobConfig.JOB_TAGS, tags.toArray(new String[0]));
  }

  /** The YARN application tags of a webindex job of run {@code runId}, stage {@code stage}. */
  public static List<String> tags(String runId, String stage) {
    return List.of(TAG, runTag(runId), (TAG + "-" + stage).toLowerCase(java.util.Locale.ROOT));
  }

  /** The tag of every job of run {@code runId}: {@code webindex-run-<run id in lower case>}. */
  public static String runTag(String runId) {
    return (TAG + "-run-" + runId).toLowerCase(java.util.Locale.ROOT);
  }

  /** A job that did not succeed; the message says why. */
  public static final class JobFailed extends IOException {
    private static final long serialVersionUID = 1L;

    JobFailed(String m) {
      super(m);
    }
  }

  /** Whether the test-only fault {@code what} is set. */
  public static boolean testFault(Configuration conf, String what) {
    return what.equals(conf.get(TEST_FAULT));
  }

  /**
   * Runs a job to its end.
   *
   * @param errorsDir where its failed task attempts record their exceptions (created by them)
   * @param beforeSubmit sees the job, secrets already stripped, just before it is submitted
   * @throws JobFailed when it does not succeed, with the first failed task's exception
   */
  public static void run(Job job, Path errorsDir, Consumer<? super Job> beforeSubmit)
      throws IOException, InterruptedException, ClassNotFoundException {
    FileSystem fs = errorsDir.getFileSystem(job.getConfiguration());
    Path dir = fs.makeQualified(errorsDir);
    job.getConfiguration().set(TASK_ERRORS_DIR, dir.toString());
    job.getConfiguration()
        .setClass(
            MRConfig.SHUFFLE_CONSUMER_PLUGIN,
            GuardedShuffle.class,
            org.apache.hadoop.mapred.ShuffleConsumerPlugin.class);
    job.getConfiguration()
        .setClass(
            org.apache.hadoop.mapreduce.MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR,
            GuardedCollector.class,
            org.apache.hadoop.mapred.MapOutputCollector.class);
    JobSecrets.scrub(job.getConfiguration());
    beforeSubmit.accept(job);
    job.submit();
    JobProgress.stderr().watch(job);
    if (!job.isSuccessful()) {
      throw new JobFailed("job '" + job.getJobName() + "' failed: " + failure(job, fs, dir));
    }
  }

  /** What to change when a task's exception says what it ran out of. */
  static String hint(String taskError) {
    if (taskError.contains("OutOfMemoryError")) {
      return ". The task ran out of heap: give tasks more (mapreduce.map.java.opts,"
          + " mapreduce.reduce.java.opts; on the local job runner the command's own heap,"
          + " WEBINDEX_JAVA_OPTS=-Xmx…) or let them hold less in memory"
          + " (mapreduce.task.io.sort.mb, mapreduce.reduce.shuffle.input.buffer.percent)";
    }
    return "";
  }

  /**
   * Why a job failed: the exception a failed task attempt recorded (the earliest), else the
   * framework's failure info or a task's first diagnostic line, else a pointer to the logs.
   */
  static String failure(Job job, FileSystem fs, Path errorsDir) {
    List<FileStatus> recorded = new ArrayList<>();
    try {
      if (fs.exists(errorsDir)) {
        for (FileStatus st : fs.listStatus(errorsDir)) {
          String n = st.getPath().getName();
          if (st.isFile() && !n.startsWith(".") && !n.startsWith("_")) {
            recorded.add(st);
          }
        }
      }
      if (!recorded.isEmpty()) {
        recorded.sort(
            Comparator.comparingLong(FileStatus::getModificationTime)
                .thenComparing(st -> st.getPath().getName()));
        FileStatus first = recorded.get(0);
        String text;
        try (InputStream in = fs.open(first.getPath())) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        return "task "
            + first.getPath().getName()
            + ": "
            + text
            + (recorded.size() > 1 ? " (" + (recorded.size() - 1) + " more attempts failed)" : "")
            + hint(text);
      }
    } catch (IOException e) {
      // fall back to what the framework knows
    }
    try {
      String info = job.getStatus().getFailureInfo();
      if (info != null && !info.isBlank() && !info.equals("NA")) {
        return info;
      }
      for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 100)) {
        if (e.getStatus() == TaskCompletionEvent.Status.FAILED) {
          for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
            return d.lines().findFirst().orElse(d);
          }
        }
      }
    } catch (IOException e) {
      // nothing more to say
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "a task failed and the job runner reports no cause (see the job's task logs)";
  }
}
