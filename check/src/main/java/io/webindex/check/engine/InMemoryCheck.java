package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The whole check in one pass for tables that fit the URI facts in memory: the merge diff of the
 * two tables and, on the same cells, each table's row invariants, then the per-URI invariants.
 */
public final class InMemoryCheck {
  private InMemoryCheck() {}

  public static void run(
      Iterator<Cell> expected, Iterator<Cell> actual, Exclusions skip, CheckListener acc) {
    runRaw(RawCells.of(expected), RawCells.of(actual), skip, acc);
  }

  /** {@link #run} on the cells' bytes. */
  public static void runRaw(
      Iterator<RawCell> expected, Iterator<RawCell> actual, Exclusions skip, CheckListener acc) {
    Map<String, List<UriFact>> expFacts = new HashMap<>();
    Map<String, List<UriFact>> actFacts = new HashMap<>();
    RowInvariants expRows = new RowInvariants(CheckAccumulator.EXPECTED, acc, collect(expFacts));
    RowInvariants actRows = new RowInvariants(CheckAccumulator.ACTUAL, acc, collect(actFacts));
    TableDiff.diffRaw(tee(expected, expRows), tee(actual, actRows), skip, acc);
    expRows.finish();
    actRows.finish();
    check(CheckAccumulator.EXPECTED, expFacts, acc);
    check(CheckAccumulator.ACTUAL, actFacts, acc);
  }

  /** Checks one table's invariants only. */
  public static void invariants(String table, Iterator<Cell> cells, CheckAccumulator acc) {
    Map<String, List<UriFact>> facts = new HashMap<>();
    RowInvariants rows = new RowInvariants(table, acc, collect(facts));
    cells.forEachRemaining(rows::accept);
    rows.finish();
    check(table, facts, acc);
  }

  private static Consumer<UriFact> collect(Map<String, List<UriFact>> facts) {
    return f -> facts.computeIfAbsent(f.uri(), u -> new ArrayList<>(3)).add(f);
  }

  private static void check(String table, Map<String, List<UriFact>> facts, CheckListener acc) {
    facts.forEach(
        (uri, fs) -> UriFacts.check(table, uri, fs).forEach(f -> acc.violation(table, f)));
  }

  /** The cells of {@code it}, each shown to {@code rows} as it passes. */
  public static Iterator<RawCell> tee(Iterator<RawCell> it, RowInvariants rows) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public RawCell next() {
        RawCell c = it.next();
        rows.accept(c);
        return c;
      }
    };
  }
}
