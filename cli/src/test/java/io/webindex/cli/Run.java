package io.webindex.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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

  /**
   * {@code bin/webindex args… --conf conf} in this process, asserting its exit status; the output
   * is in the failure message.
   */
  static Run expect(Path home, String conf, int expected, String... args) {
    List<String> withConf = new ArrayList<>(List.of(args));
    withConf.add("--conf");
    withConf.add(conf);
    Run r = of(home, withConf);
    org.junit.jupiter.api.Assertions.assertEquals(
        expected, r.status(), String.join(" ", args) + ": " + r);
    return r;
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
