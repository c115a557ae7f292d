package io.webindex.store.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobsTest {
  @Test
  void hadoopsDefaultsAreNotSettings() {
    // a JobConf reads mapred-default.xml, as every configuration of a JVM that loaded JobConf does
    Configuration conf = new org.apache.hadoop.mapred.JobConf();
    assertEquals("5000", conf.get("mapreduce.client.completion.pollinterval"));
    Jobs.setUnlessConfigured(conf, "mapreduce.client.completion.pollinterval", "50");
    assertEquals("50", conf.get("mapreduce.client.completion.pollinterval"));
    // set in code (or a site file, or -D): kept
    conf.set("mapreduce.task.io.sort.mb", "64");
    Jobs.setUnlessConfigured(conf, "mapreduce.task.io.sort.mb", "16");
    assertEquals("64", conf.get("mapreduce.task.io.sort.mb"));
    // not set at all: set
    Configuration bare = new Configuration(false);
    Jobs.setUnlessConfigured(bare, "webindex.example", "1");
    assertEquals("1", bare.get("webindex.example"));
  }

  /** Where jobs run, as Hadoop reads it: unset is its default, the local job runner. */
  @Test
  void runLocallyUnlessAFrameworkIsNamed() {
    Configuration conf = new Configuration(false);
    assertTrue(Jobs.runLocally(conf));
    conf.set("mapreduce.framework.name", "local");
    assertTrue(Jobs.runLocally(conf));
    conf.set("mapreduce.framework.name", "yarn");
    assertFalse(Jobs.runLocally(conf));
  }

  @TempDir Path tmp;

  @Test
  void describeIsOneLineWithEachCauseOnce() {
    Exception e =
        new IOException(
            "outer\nsecond line", new UncheckedIOException(new IOException("disk gone")));
    String d = TaskGuard.describe(e);
    assertEquals(
        "java.io.IOException: outer | second line <- caused by java.io.UncheckedIOException:"
            + " java.io.IOException: disk gone",
        d);
    assertTrue(TaskGuard.describe(new RuntimeException("x".repeat(5000))).length() < 2100);
  }

  @Test
  void theFailureIsTheEarliestRecordedTaskException() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("task-errors"));
    Path late = Files.writeString(dir.resolve("attempt_local1_0001_r_000001_0"), "late failure");
    Path early = Files.writeString(dir.resolve("attempt_local1_0001_m_000003_0"), "root cause\n");
    Files.writeString(dir.resolve(".attempt_local1_0001_m_000003_0.crc"), "checksum");
    Files.setLastModifiedTime(early, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    Files.setLastModifiedTime(late, FileTime.from(Instant.parse("2026-01-01T00:00:05Z")));
    String why = failureRecordedIn(dir);
    assertEquals("task attempt_local1_0001_m_000003_0: root cause (1 more attempts failed)", why);
  }

  @Test
  void aTaskOutOfMemoryIsToldWhichSettingsToChange() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("oom-errors"));
    Files.writeString(
        dir.resolve("attempt_local1_0002_r_000000_0"),
        "org.apache.hadoop.mapreduce.task.reduce.Shuffle$ShuffleError: error in shuffle in"
            + " localfetcher#19 <- caused by java.lang.OutOfMemoryError: Java heap space");
    String why = failureRecordedIn(dir);
    assertTrue(why.startsWith("task attempt_local1_0002_r_000000_0: "), why);
    assertTrue(why.contains("java.lang.OutOfMemoryError: Java heap space"), why);
    for (String setting :
        new String[] {
          "mapreduce.reduce.java.opts",
          "WEBINDEX_JAVA_OPTS",
          "mapreduce.reduce.shuffle.input.buffer.percent",
          "mapreduce.task.io.sort.mb"
        }) {
      assertTrue(why.contains(setting), why);
    }
    assertEquals("", Jobs.hint("java.io.IOException: disk gone"));
  }

  /** What {@link Jobs#failure} says of a job whose task attempts recorded into {@code dir}. */
  private static String failureRecordedIn(Path dir) throws IOException {
    Configuration conf = new Configuration();
    return Jobs.failure(
        Job.getInstance(conf),
        FileSystem.getLocal(conf),
        new org.apache.hadoop.fs.Path(dir.toUri()));
  }

  /** Runs an empty task body as attempt {@code attempt} of task {@code task} of {@code type}. */
  static void runAttempt(String fault, String stage, TaskType type, int task, int attempt)
      throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(Jobs.STAGE, stage);
    if (fault != null) {
      conf.set(Jobs.TEST_FAULT, fault);
    }
    TaskAttemptID id = new TaskAttemptID("20260101", 7, type, task, attempt);
    TaskGuard.run(new TaskAttemptContextImpl(conf, id), () -> {});
  }

  @Test
  void theInjectedFaultHitsReduceTaskZeroOfItsStageAndOnceOnlyItsFirstAttempt() throws Exception {
    IOException always =
        assertThrows(IOException.class, () -> runAttempt("write", "write", TaskType.REDUCE, 0, 3));
    assertTrue(
        always.getMessage().contains("reduce task 0 of stage write fails"), always.toString());
    IOException first =
        assertThrows(
            IOException.class, () -> runAttempt("write:once", "write", TaskType.REDUCE, 0, 0));
    assertTrue(first.getMessage().contains("attempt_20260101_0007_r_000000_0"), first.getMessage());
    // not hit: a retry of a once-only fault, another task, a map task, another stage, no fault
    runAttempt("write:once", "write", TaskType.REDUCE, 0, 1);
    runAttempt("write:once", "write", TaskType.REDUCE, 1, 0);
    runAttempt("write", "write", TaskType.MAP, 0, 0);
    runAttempt("write:once", "uris", TaskType.REDUCE, 0, 0);
    runAttempt("write", "uris", TaskType.REDUCE, 0, 0);
    runAttempt(null, "write", TaskType.REDUCE, 0, 0);
  }
}
