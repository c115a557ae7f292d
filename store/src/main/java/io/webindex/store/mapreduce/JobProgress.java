package io.webindex.store.mapreduce;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * Progress of a running job for the operator: map and reduce percentages, records read, their rate
 * and an estimate of the time left. On a terminal one line is rewritten in place every second;
 * otherwise (a log, a scheduler) a line is written every {@link #PERIOD_MILLIS}.
 */
public final class JobProgress {
  /** How often a line is written when the output is not a terminal. */
  static final long PERIOD_MILLIS = 10_000;

  /**
   * Polling starts at {@link #FIRST_POLL_MILLIS} and doubles up to {@link #POLL_MILLIS}: a small
   * job on the local runner ends within a second, and a fixed one-second poll would add up to a
   * second to each of them; a long job is polled once a second.
   */
  private static final long FIRST_POLL_MILLIS = 25;

  private static final long POLL_MILLIS = 1_000;

  private final PrintStream out;
  private final boolean live;

  JobProgress(PrintStream out, boolean live) {
    this.out = out;
    this.live = live;
  }

  /** Standard error; live when this process runs on a terminal. */
  public static JobProgress stderr() {
    return new JobProgress(System.err, System.console() != null);
  }

  /** Waits for the job to end, reporting as it goes. The job must have been submitted. */
  void watch(Job job) throws IOException, InterruptedException {
    long start = System.currentTimeMillis();
    long lastLine = start;
    int width = 0;
    long poll = FIRST_POLL_MILLIS;
    while (!job.isComplete()) {
      Thread.sleep(poll);
      poll = Math.min(POLL_MILLIS, poll * 2);
      long now = System.currentTimeMillis();
      if (!live && now - lastLine < PERIOD_MILLIS) {
        continue;
      }
      String line = line(job, now - start);
      if (line == null) {
        continue;
      }
      if (live) {
        out.print('\r' + line + " ".repeat(Math.max(0, width - line.length())));
        width = line.length();
      } else {
        out.println(line);
      }
      out.flush();
      lastLine = now;
    }
    if (live && width > 0) {
      out.print('\r' + " ".repeat(width) + '\r');
      out.flush();
    }
  }

  /** One progress line, or null while the job has no status yet. */
  static String line(Job job, long elapsedMillis) {
    float map;
    float reduce;
    long records = -1;
    try {
      map = job.mapProgress();
      reduce = job.getNumReduceTasks() == 0 ? 1f : job.reduceProgress();
      org.apache.hadoop.mapreduce.Counters c = job.getCounters();
      if (c != null) {
        Counter in = c.findCounter(TaskCounter.MAP_INPUT_RECORDS);
        records = in == null ? -1 : in.getValue();
      }
    } catch (IOException | RuntimeException e) {
      return null; // not started yet, or between attempts
    }
    return format(
        job.getJobName(), map, job.getNumReduceTasks() == 0 ? -1 : reduce, records, elapsedMillis);
  }

  /** {@code <job>: map 100% reduce 37%, 1,234,567 records in (210,345/s), 12 s left}. */
  static String format(String name, float map, float reduce, long records, long elapsedMillis) {
    StringBuilder sb = new StringBuilder(name).append(": map ").append(percent(map));
    if (reduce >= 0) {
      sb.append(" reduce ").append(percent(reduce));
    }
    double secs = Math.max(elapsedMillis, 1) / 1000.0;
    if (records >= 0) {
      sb.append(String.format(Locale.ROOT, ", %,d records in (%,.0f/s)", records, records / secs));
    }
    float done = reduce >= 0 ? (map + reduce) / 2 : map;
    if (done > 0.02f && done < 1f) {
      long left = Math.round(secs * (1 - done) / done);
      sb.append(String.format(Locale.ROOT, ", about %d s left", left));
    }
    return sb.toString();
  }

  private static String percent(float f) {
    return Math.round(Math.max(0, Math.min(1, f)) * 100) + "%";
  }
}
