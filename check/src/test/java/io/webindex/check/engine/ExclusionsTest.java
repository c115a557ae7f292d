package io.webindex.check.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.schema.Cell;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which cells a check skips for batches newer than the snapshot (docs/check.md): every cell of a
 * touched URI and the page count of a touched domain, nothing else. The rows are written by hand in
 * the query table's layout (counts as 16 hex digits of {@code Long.MAX_VALUE - n}).
 */
class ExclusionsTest {
  static final String ENC_3 = "7ffffffffffffffc";
  static final String ENC_0 = "7fffffffffffffff";

  static Cell.Column col(String row, String family, String qualifier) {
    return new Cell.Column(row, family, qualifier);
  }

  @Test
  void aTouchedUrisCellsAndATouchedDomainsPageCountAreSkipped() {
    Exclusions x = new Exclusions(Set.of("com.c", "com.a:8080/p"), Set.of("com.c"));
    List<Cell.Column> skipped =
        List.of(
            col("p:com.c", "page", "incount"),
            col("p:com.c", "inlinks", "com.b"),
            col("p:com.a:8080/p", "page", "cur"),
            col("t:" + ENC_3 + ":com.c", "", ""),
            col("t:" + ENC_0 + ":com.a:8080/p", "", ""),
            col("d:com.c", "rank", ENC_3 + ":com.c"),
            col("d:com.a", "rank", ENC_0 + ":com.a:8080/p"),
            col("d:com.c", "domain", "pagecount"));
    for (Cell.Column c : skipped) {
      assertTrue(x.excludes(c), c.toString());
    }
    List<Cell.Column> kept =
        List.of(
            col("p:com.c/x", "page", "incount"),
            col("p:com.b", "inlinks", "com.c"),
            col("p:com.a", "page", "cur"),
            col("t:" + ENC_3 + ":com.c/x", "", ""),
            col("d:com.c", "rank", ENC_3 + ":com.c/x"),
            col("d:com.a", "domain", "pagecount"),
            col("x:com.c", "", ""));
    for (Cell.Column c : kept) {
      assertFalse(x.excludes(c), c.toString());
    }
  }

  @Test
  void aTouchedDomainAloneSkipsOnlyItsPageCount() {
    Exclusions x = new Exclusions(Set.of(), Set.of("com.c"));
    assertFalse(x.isEmpty());
    assertTrue(x.excludes(col("d:com.c", "domain", "pagecount")));
    assertFalse(x.excludes(col("d:com.c", "rank", ENC_3 + ":com.c")));
    assertFalse(x.excludes(col("p:com.c", "page", "incount")));
  }

  @Test
  void noneSkipsNothing() {
    assertTrue(Exclusions.NONE.isEmpty());
    assertFalse(Exclusions.NONE.excludes(col("p:com.c", "page", "incount")));
    assertFalse(new Exclusions(Set.of("com.c"), Set.of()).isEmpty());
    assertEquals(Exclusions.NONE, new Exclusions(Set.of(), Set.of()));
  }

  /**
   * A live table's invariant violation in a cell of a batch in flight is not counted (but counted
   * apart); the same violation elsewhere, or in the batch table, is.
   */
  @Test
  void violationsInCellsOfWorkInFlightAreCountedApart() {
    CheckAccumulator acc = new CheckAccumulator(5);
    acc.ignoreInFlight(CheckAccumulator.ACTUAL, new Exclusions(Set.of("com.c"), Set.of("com.c")));
    Finding inFlight =
        new Finding(
            Kind.PAGECOUNT_MISMATCH, "actual", "d:", "d:com.c", "domain:pagecount", "2", "3", "");
    Finding rank =
        new Finding(
            Kind.RANK_MISMATCH,
            "actual",
            "d:",
            "d:com.a",
            "rank:" + ENC_3 + ":com.c",
            "3",
            "2",
            "");
    Finding elsewhere =
        new Finding(
            Kind.PAGECOUNT_MISMATCH, "actual", "d:", "d:com.b", "domain:pagecount", "2", "3", "");
    CheckAccumulator part = acc.part();
    part.violation(CheckAccumulator.ACTUAL, inFlight);
    part.violation(CheckAccumulator.ACTUAL, rank);
    part.violation(CheckAccumulator.ACTUAL, elsewhere);
    part.violation(CheckAccumulator.EXPECTED, inFlight);
    acc.merge(part);
    assertEquals(2, acc.inFlightViolations());
    assertEquals(
        java.util.Map.of(
            CheckAccumulator.ACTUAL, java.util.Map.of(Kind.PAGECOUNT_MISMATCH, 1L),
            CheckAccumulator.EXPECTED, java.util.Map.of(Kind.PAGECOUNT_MISMATCH, 1L)),
        acc.invariants());
  }
}
