package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.CheckTool;
import io.webindex.store.JobSecrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobSecretsTest {
  private static final String SECRET = "hunter2-do-not-print";

  @Test
  void secretKeysAreTheWebindexPasswordsAndSecrets() {
    assertTrue(JobSecrets.isSecretKey("webindex.accumulo.password"));
    assertTrue(JobSecrets.isSecretKey("webindex.accumulo.password.file"));
    assertTrue(JobSecrets.isSecretKey("webindex.fluo.zookeeper.Secret"));
    assertTrue(JobSecrets.isSecretKey("webindex.something.PASSWORD"));
    assertFalse(JobSecrets.isSecretKey("webindex.accumulo.user"));
    assertFalse(JobSecrets.isSecretKey("ssl.server.keystore.password"), "not ours to judge");
  }

  @Test
  void scrubRemovesThemAndNothingElse() {
    Configuration c = new Configuration(false);
    c.set("webindex.accumulo.password", SECRET);
    c.set("webindex.check.secret.token", SECRET);
    c.set("webindex.accumulo.user", "root");
    c.set("mapreduce.job.queuename", "batch");
    assertEquals(
        List.of("webindex.accumulo.password", "webindex.check.secret.token"), JobSecrets.scrub(c));
    assertEquals(List.of(), JobSecrets.secretKeys(c));
    assertEquals("root", c.get("webindex.accumulo.user"));
    assertEquals("batch", c.get("mapreduce.job.queuename"));
  }

  record Run(int exit, String stderr) {}

  static Run run(Tool tool, String... args) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream saved = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int exit = ToolRunner.run(new Configuration(), tool, args);
      return new Run(exit, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(saved);
    }
  }

  /**
   * {@code -D webindex.accumulo.password=…} (or any webindex password key) is a usage error: the
   * tools stop before they read anything, name the key, never the value, and print no stack trace.
   */
  @ParameterizedTest
  @ValueSource(strings = {"webindex.accumulo.password", "webindex.accumulo.password.file"})
  void theToolsRefuseAPasswordGivenAsHadoopProperty(String key) throws Exception {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    for (Tool tool : List.of(new RecomputeTool(quiet), new CheckTool(quiet))) {
      Run r =
          run(
              tool,
              "-D",
              key + "=" + SECRET,
              "--webindex-conf",
              "/nonexistent/webindex.properties",
              "--run",
              "r1",
              "--actual",
              "t");
      String name = tool.getClass().getSimpleName();
      assertEquals(2, r.exit(), name + ": " + r.stderr());
      assertTrue(r.stderr().contains(key + " given as a Hadoop property"), r.stderr());
      assertTrue(r.stderr().contains("--webindex-conf"), "says where it belongs: " + r.stderr());
      assertFalse(r.stderr().contains(SECRET), name + " printed the value");
      assertFalse(r.stderr().contains("\tat "), name + " printed a stack trace: " + r.stderr());
    }
  }
}
