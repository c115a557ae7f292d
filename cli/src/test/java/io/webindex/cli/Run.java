package io.webindex.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** One in-process run of {@link Main}: exit status, stdout, stderr. */
record Run(int status, String out, String err) {
  static Run of(Path home, String... args) {
    return of(home, Arrays.asList(args));
  }

  static Run of(Path home, List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args, new Cli(home, out, err));
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Lines of stdout. */
  List<String> lines() {
    return out.lines().toList();
  }

  @Override
  public String toString() {
    return "status " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
