package io.webindex.check.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.schema.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The frontier tables' comparison and invariants, on cells written out literally. */
class FrontierCheckTest {
  static final String DUE0 = "0000000000000000:";
  static final String DUE = "000001a292e5bf60:";

  static Cell cell(String row, String qualifier, String value) {
    return new Cell(row, "due", qualifier, value);
  }

  static final Cell B = cell("q:b.com", DUE + "7ffffffffffffffe:com.b", "http://b.com/");
  static final Cell C = cell("q:c.com", DUE0 + "7ffffffffffffffc:com.c", "http://c.com/");
  static final Cell C1 =
      cell("q:c.com", DUE0 + "7ffffffffffffffe:com.c/page1", "http://c.com/page1");

  static List<String> findings(CheckAccumulator acc) {
    return acc.samples().stream()
        .map(f -> f.kind() + " " + f.table() + " " + f.row() + " " + f.column())
        .collect(Collectors.toList());
  }

  @Test
  void equalTablesAreEqualAndEveryCellIsCompared() {
    CheckAccumulator acc = new CheckAccumulator(10);
    new FrontierCheck(Exclusions.NONE, acc)
        .run(List.of(B, C, C1).iterator(), List.of(B, C, C1).iterator());
    assertEquals(List.of(), findings(acc));
    RangeTotals frontier = acc.ranges().get(acc.ranges().size() - 1);
    assertEquals(FrontierCheck.RANGE, frontier.range());
    assertEquals(3, frontier.compared());
    assertEquals(Map.of(), acc.invariants());
  }

  @Test
  void aMovedEntryIsAMissingAndAnExtraCellUnlessItsUriWasTouched() {
    // c.com's urc went from 3 to 4 on the actual side: its cell moved
    Cell moved = cell("q:c.com", DUE0 + "7ffffffffffffffb:com.c", "http://c.com/");
    List<Cell> actual = new ArrayList<>(List.of(B, moved, C1));
    CheckAccumulator acc = new CheckAccumulator(10);
    new FrontierCheck(Exclusions.NONE, acc).run(List.of(B, C, C1).iterator(), actual.iterator());
    assertEquals(
        List.of(
            "MISSING both q:c.com due:" + C.qualifier(),
            "EXTRA both q:c.com due:" + moved.qualifier()),
        findings(acc));
    CheckAccumulator skipped = new CheckAccumulator(10);
    new FrontierCheck(new Exclusions(Set.of("com.c"), Set.of()), skipped)
        .run(List.of(B, C, C1).iterator(), actual.iterator());
    assertEquals(List.of(), findings(skipped));
  }

  @Test
  void aDuplicateUriAndACellTheCodecDidNotWriteAreViolations() {
    Cell again = cell("q:c.com", DUE + "7ffffffffffffffc:com.c", "http://c.com/");
    Cell wrongQueue = cell("q:b.com", DUE + "7ffffffffffffffe:com.a", "http://a.com/");
    Cell wrongUrl = cell("q:c.com", DUE + "7ffffffffffffffe:com.c/x", "http://c.com/y");
    CheckAccumulator acc = new CheckAccumulator(10);
    List<Cell> actual = new ArrayList<>(List.of(wrongQueue, B, C, C1, again, wrongUrl));
    actual.sort(Cell.ORDER);
    new FrontierCheck(Exclusions.NONE, acc).run(List.of(B, C, C1).iterator(), actual.iterator());
    assertEquals(1L, acc.invariants().get("actual").get(Kind.FRONTIER_DUPLICATE));
    assertEquals(2L, acc.invariants().get("actual").get(Kind.MALFORMED));
    assertEquals(null, acc.invariants().get("expected"));
  }
}
