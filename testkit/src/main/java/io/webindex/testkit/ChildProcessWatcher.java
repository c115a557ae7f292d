package io.webindex.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records what the child processes of this JVM (and their children) were given: the command line of
 * each, as {@code ps} shows it to every user of the machine (Linux {@code /proc/<pid>/cmdline}),
 * and the environment ({@code /proc/<pid>/environ}, readable by the same user). A daemon thread
 * polls the process tree; a process that lives only a few hundred milliseconds, like MiniAccumulo's
 * {@code Initialize}, is seen at the fast interval.
 *
 * <p>On a system without {@code /proc}, the command line comes from {@link ProcessHandle.Info} and
 * the environment is not recorded.
 */
public final class ChildProcessWatcher implements AutoCloseable {

  /** One state of one process: its pid, command line (arguments joined by spaces), environment. */
  public record Seen(long pid, String commandLine, String environment) {
    private static final Pattern PROC = Pattern.compile("-Dproc=(\\S+)");

    /**
     * The pid, program and MiniAccumulo's {@code -Dproc=} name: never the arguments, which may be
     * what a test looks for.
     */
    @Override
    public String toString() {
      String program = commandLine.split(" ", 2)[0];
      Matcher proc = PROC.matcher(commandLine);
      return pid + " " + program + (proc.find() ? " " + proc.group() : "");
    }
  }

  /** The interval while processes start; see {@link #slowDown()}. */
  public static final long FAST_MILLIS = 20;

  /** The interval after {@link #slowDown()}. */
  public static final long SLOW_MILLIS = 250;

  private static final Path PROC = Paths.get("/proc");

  private final Set<Seen> seen = new LinkedHashSet<>();
  private final Thread thread;
  private volatile boolean stopped;
  private volatile long intervalMillis = FAST_MILLIS;

  private ChildProcessWatcher() {
    thread = new Thread(this::loop, "child-process-watcher");
    thread.setDaemon(true);
  }

  /** Starts watching at the fast interval. */
  public static ChildProcessWatcher start() {
    ChildProcessWatcher w = new ChildProcessWatcher();
    w.poll();
    w.thread.start();
    return w;
  }

  /** Polls at {@link #SLOW_MILLIS} from now on (once the processes of interest run). */
  public void slowDown() {
    intervalMillis = SLOW_MILLIS;
  }

  /** Polls at {@link #FAST_MILLIS} from now on. */
  public void speedUp() {
    intervalMillis = FAST_MILLIS;
  }

  /** Every distinct (pid, command line, environment) seen so far, in the order first seen. */
  public List<Seen> seen() {
    poll();
    synchronized (seen) {
      return new ArrayList<>(seen);
    }
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop() {
    while (!stopped) {
      poll();
      try {
        Thread.sleep(intervalMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void poll() {
    List<Seen> now = new ArrayList<>();
    ProcessHandle.current().descendants().forEach(p -> now.add(read(p)));
    synchronized (seen) {
      for (Seen s : now) {
        if (s != null && !s.commandLine().isEmpty()) {
          seen.add(s);
        }
      }
    }
  }

  private static Seen read(ProcessHandle p) {
    long pid = p.pid();
    Path dir = PROC.resolve(Long.toString(pid));
    if (Files.isDirectory(dir)) {
      String cmd = readNulSeparated(dir.resolve("cmdline"));
      String env = readNulSeparated(dir.resolve("environ"));
      return new Seen(pid, cmd, env);
    }
    String cmd = p.info().commandLine().orElse("");
    return new Seen(pid, cmd, "");
  }

  /** A NUL-separated /proc file as one line, NULs as spaces; empty when it cannot be read. */
  private static String readNulSeparated(Path file) {
    try {
      byte[] b = Files.readAllBytes(file);
      return new String(b, StandardCharsets.UTF_8).replace('\0', ' ').strip();
    } catch (IOException | SecurityException e) {
      return ""; // the process ended
    }
  }
}
