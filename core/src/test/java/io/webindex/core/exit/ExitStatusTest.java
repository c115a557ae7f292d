package io.webindex.core.exit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExitStatusTest {
  /** The documented table (docs/cli.md, "Exit status"): a scheduler's contract. */
  @Test
  void theDocumentedNumbers() {
    assertEquals(
        List.of(0, 1, 2, 3, 4),
        List.of(
            ExitStatus.OK,
            ExitStatus.INCONSISTENT,
            ExitStatus.USAGE,
            ExitStatus.TRANSIENT,
            ExitStatus.INTERNAL));
    // 1 is what the JVM gives an uncaught exception: only the verdict may use it, so no failure
    // class may map to it
    assertEquals(
        5,
        Set.of(
                ExitStatus.name(0),
                ExitStatus.name(1),
                ExitStatus.name(2),
                ExitStatus.name(3),
                ExitStatus.name(4))
            .size());
  }
}
