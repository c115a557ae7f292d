package io.webindex.frontierit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A webindex process started by the test with a built class path: its output kept (for failure
 * messages) and watched for the line that says it is ready.
 */
final class ChildProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final List<String> output = new ArrayList<>();
  private final CompletableFuture<Matcher> ready = new CompletableFuture<>();

  private ChildProcess(String name, Process process, Pattern readyLine) {
    this.name = name;
    this.process = process;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                  synchronized (output) {
                    output.add(l);
                  }
                  Matcher m = readyLine.matcher(l);
                  if (m.find()) {
                    ready.complete(m);
                  }
                }
                ready.completeExceptionally(new IOException(name + " ended before it was ready"));
              } catch (IOException e) {
                ready.completeExceptionally(e);
              }
            },
            name + "-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** The class path of a module's launcher: its classes and its {@code classpath.txt}. */
  static String classpath(String module) throws IOException {
    Path target = repo().resolve(module).resolve("target");
    return target.resolve("classes")
        + java.io.File.pathSeparator
        + Files.readString(target.resolve("classpath.txt")).strip();
  }

  /** The repository's root (this module's parent). */
  static Path repo() {
    return Paths.get("").toAbsolutePath().getParent();
  }

  /**
   * Starts {@code java -cp classpath mainClass args} and waits up to {@code seconds} for a line
   * matching {@code readyLine}.
   */
  static ChildProcess start(
      String name,
      String classpath,
      List<String> jvmOptions,
      String mainClass,
      List<String> args,
      Pattern readyLine,
      long seconds)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass);
    cmd.addAll(args);
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
    ChildProcess c = new ChildProcess(name, p, readyLine);
    try {
      c.ready.get(seconds, TimeUnit.SECONDS);
    } catch (Exception e) {
      c.close();
      throw new AssertionError(name + " did not start; its output:\n" + c.output(), e);
    }
    return c;
  }

  /** The ready line's match. */
  Matcher ready() {
    return ready.getNow(null);
  }

  String output() {
    synchronized (output) {
      return String.join("\n", output);
    }
  }

  /** SIGTERM, as an operator stops a service; forcibly after a minute. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Kills the process at once (SIGKILL), as a crash would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }
}
