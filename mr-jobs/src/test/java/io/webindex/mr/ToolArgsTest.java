package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.check.CheckTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/**
 * {@code parseArgs} of the Tools refuses exactly what their {@code run} refuses as a usage error
 * (exit 2), with the same message, and accepts what they run; no Accumulo needed.
 */
class ToolArgsTest {
  @Test
  void recomputeArguments() {
    assertDoesNotThrow(
        () ->
            RecomputeTool.parseArgs(
                new String[] {"--webindex-conf", "w.properties", "--run", "r_1", "--restart"}));
    assertDoesNotThrow(() -> RecomputeTool.parseArgs(new String[] {"--snapshot", "3"}));
    assertDoesNotThrow(() -> RecomputeTool.parseArgs(new String[] {"--help", "--bogus"}));
    assertRefused("unknown option --bogus", () -> RecomputeTool.parseArgs(a("--bogus")));
    assertRefused(
        "--snapshot must be a whole number: x",
        () -> RecomputeTool.parseArgs(a("--snapshot", "x")));
    assertRefused("--run needs a value", () -> RecomputeTool.parseArgs(a("--run")));
    assertRefused(
        "--run takes letters, digits and '_': a-b",
        () -> RecomputeTool.parseArgs(a("--run", "a-b")));
    assertRefused(
        "--restart needs the --run it restarts", () -> RecomputeTool.parseArgs(a("--restart")));
  }

  @Test
  void checkArguments() {
    assertDoesNotThrow(
        () -> CheckTool.parseArgs(a("--run", "r", "--actual", "t", "--applied", "4", "--fluo")));
    assertDoesNotThrow(
        () ->
            CheckTool.parseArgs(a("--run", "r", "--served", "--mode", "mapreduce", "--out", "d")));
    assertRefused(
        "--run and --actual (or --served) are required",
        () -> CheckTool.parseArgs(a("--run", "r")));
    assertRefused(
        "--actual and --served name the same table: give one",
        () -> CheckTool.parseArgs(a("--run", "r", "--served", "--actual", "t")));
    assertRefused("unknown option --tabel", () -> CheckTool.parseArgs(a("--tabel", "t")));
    assertRefused("--run needs a value", () -> CheckTool.parseArgs(a("--run")));
    assertRefused(
        "unexpected argument 't'", () -> CheckTool.parseArgs(a("--run", "r", "--served", "t")));
    assertRefused(
        "--mode takes auto, files, scanner or mapreduce, not fast",
        () -> CheckTool.parseArgs(a("--run", "r", "--served", "--mode", "fast")));
    assertRefused(
        "--applied must be a whole number: x",
        () -> CheckTool.parseArgs(a("--run", "r", "--served", "--applied", "x")));
    assertRefused(
        "--run given twice", () -> CheckTool.parseArgs(a("--run", "r", "--served", "--run", "s")));
  }

  @Test
  void whatParseArgsRefusesTheToolsRefuseWithStatusTwo() throws Exception {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    assertEquals(
        RecomputeTool.USAGE,
        ToolRunner.run(new Configuration(false), new RecomputeTool(quiet), a("--restart")));
    assertEquals(
        CheckTool.USAGE,
        ToolRunner.run(new Configuration(false), new CheckTool(quiet), a("--run", "r")));
    ByteArrayOutputStream help = new ByteArrayOutputStream();
    assertEquals(
        0,
        ToolRunner.run(
            new Configuration(false),
            new CheckTool(new PrintStream(help, true, StandardCharsets.UTF_8)),
            a("--help")));
    assertEquals(
        true,
        help.toString(StandardCharsets.UTF_8).contains("(--actual TABLE | --served [--settle S])"));
  }

  private static String[] a(String... args) {
    return args;
  }

  private static void assertRefused(String message, Runnable parse) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, parse::run);
    assertEquals(message, e.getMessage());
  }
}
