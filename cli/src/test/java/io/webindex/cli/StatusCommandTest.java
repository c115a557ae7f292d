package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.web.Overview;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/webindex status} without a cluster: its line layout and its usage errors. */
class StatusCommandTest {
  @TempDir Path home;

  @Test
  void labelsEndInAColonAndTheTextsAreAligned() {
    assertEquals(
        List.of(
            "served table:    wi_r2 (run r2)",
            "cut-over target: none",
            "last check:      no check recorded"),
        StatusCommand.text(
            List.of(
                new Overview.Line("served table", "wi_r2 (run r2)", ""),
                new Overview.Line("cut-over target", "none", ""),
                new Overview.Line("last check", "no check recorded", "warn"))));
  }

  @Test
  void configurationErrorsAreExitStatusTwoWithOneLine() {
    Run missing = Run.of(home, "status", "--conf", home.resolve("nope.properties").toString());
    assertEquals(2, missing.status(), missing.toString());
    assertEquals("", missing.out());
    assertEquals(
        List.of(
            "webindex: configuration file not found: "
                + home.resolve("nope.properties")
                + " (see bin/webindex help status)"),
        missing.err().lines().toList());

    Run none = Run.of(home, "status");
    assertEquals(2, none.status(), none.toString());
    assertTrue(none.err().startsWith("webindex: no configuration: "), none.toString());
    assertEquals(1, none.err().lines().count(), none.toString());

    Run extra = Run.of(home, "status", "now");
    assertEquals(2, extra.status(), extra.toString());
    assertTrue(extra.err().contains("(see bin/webindex help status)"), extra.toString());

    Run unknown = Run.of(home, "status", "--table", "t");
    assertEquals(2, unknown.status(), unknown.toString());
    assertTrue(unknown.err().contains("--table"), unknown.toString());
  }
}
