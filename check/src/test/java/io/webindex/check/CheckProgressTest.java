package io.webindex.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.RangeTotals;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The check's progress line, and that every call reaches the accumulator behind it. */
class CheckProgressTest {
  @Test
  void theLineSaysCellsAndRate() {
    // 2,000,000 cells in 4 s
    assertEquals(
        "check: 2,000,000 cells compared (500,000 cells/s)",
        CheckProgress.line(2_000_000, 4_000_000_000L));
  }

  @Test
  void passesEverythingOn() {
    CheckAccumulator acc = new CheckAccumulator(5);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CheckProgress p =
        new CheckProgress(acc, new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
    for (int i = 0; i < 70_000; i++) {
      p.compared("p:", i % 7 == 0);
    }
    p.done();
    // 70,000 cells, every 7th of them (10,000) skipped, all in range p:
    RangeTotals t =
        acc.ranges().stream().filter(r -> r.range().equals("p:")).findFirst().orElseThrow();
    assertEquals(60_000, t.compared());
    assertEquals(10_000, t.skipped());
    // well under the 10 s period: no line yet on a non-terminal
    assertTrue(bytes.toString(StandardCharsets.UTF_8).isEmpty());
  }
}
