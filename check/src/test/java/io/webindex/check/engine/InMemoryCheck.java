package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The engine tests' harness: the whole check of two small tables in one pass over lists of cells —
 * the merge diff ({@link TableDiff}) and, on the same cells, each table's row invariants ({@link
 * RowInvariants}), then the per-URI invariants ({@link UriFacts}) with the facts in memory. The
 * checks the product runs put the same pieces together over scanners, files or map tasks.
 */
public final class InMemoryCheck {
  private InMemoryCheck() {}

  public static void run(
      Iterator<Cell> expected, Iterator<Cell> actual, Exclusions skip, CheckListener acc) {
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

  private static Consumer<UriFact> collect(Map<String, List<UriFact>> facts) {
    return f -> facts.computeIfAbsent(f.uri(), u -> new ArrayList<>(3)).add(f);
  }

  private static void check(String table, Map<String, List<UriFact>> facts, CheckListener acc) {
    facts.forEach(
        (uri, fs) -> UriFacts.check(table, uri, fs).forEach(f -> acc.violation(table, f)));
  }

  /** The cells of {@code it} as {@link RawCell}s, each shown to {@code rows} as it passes. */
  private static Iterator<RawCell> tee(Iterator<Cell> it, RowInvariants rows) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public RawCell next() {
        RawCell c = RawCell.of(it.next());
        rows.accept(c);
        return c;
      }
    };
  }
}
