package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/** The Fluo stage tools' arguments, as a scheduler gives them (no cluster needed). */
class StageToolArgsTest {
  @Test
  void validArgumentsAreAccepted() {
    ReconcileTool.parseArgs(new String[] {"--webindex-conf", "c", "--run", "r1", "--embedded"});
    ReconcileTool.parseArgs(new String[] {"--run", "r1", "--wait", "30"});
    FluoInitTool.parseArgs(new String[] {"--webindex-conf", "c", "--run", "r0", "--force"});
    LoadTool.parseArgs(new String[] {"--webindex-conf", "c", "--up-to", "7", "--watch", "60"});
    LoadTool.parseArgs(new String[] {"--embedded", "--rate", "100"});
    FluoOracleTool.parseArgs(new String[] {"--webindex-conf", "c", "--app", "webindex_r1"});
    FluoWorkerTool.parseArgs(
        new String[] {"--app", "a", "--threads", "4", "--max-scan-interval", "2"});
  }

  @Test
  void badArgumentsAreRefusedWithTheReason() {
    assertEquals(
        "--run is required",
        assertThrows(IllegalArgumentException.class, () -> ReconcileTool.parseArgs(new String[0]))
            .getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> ReconcileTool.parseArgs(new String[] {"--run", "r1", "--force"}));
    assertThrows(
        IllegalArgumentException.class,
        () -> FluoInitTool.parseArgs(new String[] {"--run", "r1", "--wait", "soon"}));
    assertThrows(
        IllegalArgumentException.class, () -> LoadTool.parseArgs(new String[] {"--up-to"}));
    assertThrows(
        IllegalArgumentException.class, () -> LoadTool.parseArgs(new String[] {"--rate", "-1"}));
    assertThrows(
        IllegalArgumentException.class, () -> LoadTool.parseArgs(new String[] {"positional"}));
    assertThrows(
        IllegalArgumentException.class,
        () -> FluoOracleTool.parseArgs(new String[] {"--threads", "4"}));
    assertEquals(
        "a worker needs at least 1 thread: 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> FluoWorkerTool.parseArgs(new String[] {"--threads", "0"}))
            .getMessage());
    assertEquals(
        "the longest scan interval must be at least 100 ms, not 0 ms",
        assertThrows(
                IllegalArgumentException.class,
                () -> FluoWorkerTool.parseArgs(new String[] {"--max-scan-interval", "0"}))
            .getMessage());
  }

  @Test
  void aUsageErrorIsStatusTwoWithOneLineAndAPasswordPropertyIsRefused() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        ToolRunner.run(
            new Configuration(),
            new ReconcileTool(new PrintWriter(out), new PrintWriter(err)),
            new String[] {"--bogus"});
    assertEquals(2, status);
    assertEquals("reconcile: unknown option --bogus\n", err.toString());

    StringWriter err2 = new StringWriter();
    int refused =
        ToolRunner.run(
            new Configuration(),
            new FluoInitTool(new PrintWriter(new StringWriter()), new PrintWriter(err2)),
            new String[] {"-D", "webindex.accumulo.password=s3cr3t-value", "--run", "r0"});
    assertEquals(2, refused);
    assertTrue(err2.toString().contains("webindex.accumulo.password"), err2.toString());
    assertTrue(!err2.toString().contains("s3cr3t-value"), err2.toString());

    StringWriter err3 = new StringWriter();
    int worker =
        ToolRunner.run(
            new Configuration(),
            new FluoWorkerTool(new PrintWriter(new StringWriter()), new PrintWriter(err3)),
            new String[] {"--max-scan-interval", "soon"});
    assertEquals(2, worker);
    assertEquals(
        "fluo-worker: --max-scan-interval must be a whole number: soon\n", err3.toString());
  }
}
