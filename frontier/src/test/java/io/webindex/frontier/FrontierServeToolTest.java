package io.webindex.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The Tool's arguments, its one line when it serves, its stop and its exit statuses. */
class FrontierServeToolTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private FrontierServeTool tool() {
    FrontierServeTool t =
        new FrontierServeTool(
            cfg -> new RecordingFrontier(), new PrintWriter(out, true), new PrintWriter(err, true));
    t.setConf(new Configuration(false));
    return t;
  }

  @Test
  void servesUntilStoppedAndSaysWhere() throws Exception {
    FrontierServeTool t = tool();
    CompletableFuture<Integer> status = new CompletableFuture<>();
    Thread runner =
        new Thread(
            () -> {
              try {
                status.complete(t.run(new String[] {"--port", "0"}));
              } catch (Exception e) {
                status.completeExceptionally(e);
              }
            });
    runner.start();
    Pattern serving =
        Pattern.compile("^serving URLFrontier on 127\\.0\\.0\\.1:(\\d+) \\(port (\\d+); Ctrl-C");
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Matcher m = serving.matcher("");
    while (System.nanoTime() < end && !(m = serving.matcher(out.toString())).find()) {
      Thread.sleep(50);
    }
    assertTrue(m.find(0), out + "\n" + err);
    assertEquals(m.group(1), m.group(2));
    assertTrue(Integer.parseInt(m.group(2)) > 0);
    t.requestStop();
    assertEquals(0, status.get(30, TimeUnit.SECONDS), err.toString());
    assertEquals("", err.toString());
  }

  @Test
  void aBadPortIsAUsageErrorOfOneLine() throws Exception {
    assertEquals(2, tool().run(new String[] {"--port", "70000"}));
    assertEquals("frontier-serve: --port must be between 0 and 65535\n", err.toString());
    assertEquals("", out.toString());
  }

  @Test
  void helpPrintsTheUsage() throws Exception {
    assertEquals(0, tool().run(new String[] {"--help"}));
    assertTrue(out.toString().startsWith("usage: FrontierServeTool [--port N]"), out.toString());
  }
}
