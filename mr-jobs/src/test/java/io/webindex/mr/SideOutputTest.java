package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A side output's files are named and committed as Hadoop's {@code MultipleOutputs} names and
 * commits a named output's ({@code <name>/part-r-NNNNN} in the task's work directory, moved with
 * the task's output when it commits), and an output that got no record has no file.
 */
class SideOutputTest {
  @TempDir Path dir;

  private static final SideOutput.Spec<Text, IntWritable> LINES =
      new SideOutput.Spec<>("lines", TextOutputFormat.class, Text.class, IntWritable.class);
  private static final SideOutput.Spec<Text, IntWritable> UNUSED =
      new SideOutput.Spec<>("unused", TextOutputFormat.class, Text.class, IntWritable.class);

  @Test
  void writesItsFilesBesideTheTasksAndCommitsWithThem() throws Exception {
    Path out = dir.resolve("out");
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.output.fileoutputformat.outputdir", out.toUri().toString());
    TaskAttemptID attempt = TaskAttemptID.forName("attempt_1_0001_r_000003_0");
    JobContext job = new JobContextImpl(conf, JobID.forName("job_1_0001"));
    FileOutputCommitter committer =
        new FileOutputCommitter(new org.apache.hadoop.fs.Path(out.toUri()), job);
    committer.setupJob(job);
    TaskAttemptContext task = new TaskAttemptContextImpl(conf, attempt);

    SideOutput<Text, IntWritable> lines = LINES.of(task);
    SideOutput<Text, IntWritable> unused = UNUSED.of(task);
    lines.write(new Text("a"), new IntWritable(1));
    lines.write(new Text("b"), new IntWritable(2));
    lines.close();
    unused.close();
    // the task's own configuration is not the output's
    assertNull(conf.get(SideOutput.BASE_OUTPUT_NAME));

    committer.commitTask(task);
    committer.commitJob(job);
    assertEquals(List.of("_SUCCESS", "lines/part-r-00003"), files(out));
    assertEquals("a\t1\nb\t2\n", Files.readString(out.resolve("lines/part-r-00003")));
  }

  private static List<String> files(Path root) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString())
          .filter(n -> !n.endsWith(".crc") && !n.contains("/."))
          .sorted()
          .toList();
    }
  }
}
