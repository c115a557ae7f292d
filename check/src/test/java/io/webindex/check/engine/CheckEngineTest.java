package io.webindex.check.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.synth.RandomWeb;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class CheckEngineTest {
  static List<Cell> table() {
    RandomWeb web = new RandomWeb(11, 150);
    ReferenceIndex ref = new ReferenceIndex();
    for (int b = 0; b < 3; b++) {
      ref.applyAll(web.batch(b, 200));
    }
    return ref.cells();
  }

  static CheckAccumulator check(List<Cell> expected, List<Cell> actual, Exclusions skip) {
    CheckAccumulator acc = new CheckAccumulator(10);
    InMemoryCheck.run(expected.iterator(), actual.iterator(), skip, acc);
    return acc;
  }

  static long total(CheckAccumulator acc, String range, Kind kind) {
    RangeTotals t =
        acc.ranges().stream().filter(r -> r.range().equals(range)).findFirst().orElseThrow();
    return switch (kind) {
      case MISSING -> t.missing();
      case EXTRA -> t.extra();
      case DIFFERENT -> t.different();
      default -> throw new IllegalArgumentException();
    };
  }

  static long violations(CheckAccumulator acc, String table, Kind kind) {
    return acc.invariants().getOrDefault(table, Map.of()).getOrDefault(kind, 0L);
  }

  static List<Cell> edit(List<Cell> cells, UnaryOperator<List<Cell>> op) {
    List<Cell> copy = new ArrayList<>(cells);
    List<Cell> out = op.apply(copy);
    out.sort(Cell.ORDER);
    return out;
  }

  @Test
  void identicalTablesAreConsistent() {
    List<Cell> t = table();
    CheckAccumulator acc = check(t, t, Exclusions.NONE);
    assertEquals(t.size(), acc.ranges().stream().mapToLong(RangeTotals::compared).sum());
    assertEquals(0, acc.ranges().stream().mapToLong(RangeTotals::differences).sum());
    assertEquals(Map.of(), acc.invariants());
    assertTrue(acc.samples().isEmpty());
  }

  @Test
  void aDroppedInlinksColumnIsMissingAndBreaksIncount() {
    List<Cell> t = table();
    Cell inlink = t.stream().filter(c -> c.family().equals("inlinks")).findFirst().orElseThrow();
    CheckAccumulator acc =
        check(
            t,
            edit(
                t,
                l -> {
                  l.remove(inlink);
                  return l;
                }),
            Exclusions.NONE);
    assertEquals(1, total(acc, "p:", Kind.MISSING));
    assertEquals(1, violations(acc, "actual", Kind.INCOUNT_MISMATCH));
    assertEquals(0, violations(acc, "expected", Kind.INCOUNT_MISMATCH));
    Finding f =
        acc.samples().stream().filter(s -> s.kind() == Kind.MISSING).findFirst().orElseThrow();
    assertEquals(inlink.row(), f.row());
    assertEquals("inlinks:" + inlink.qualifier(), f.column());
  }

  @Test
  void aCorruptedCellIsDifferent() {
    List<Cell> t = table();
    Cell cur = t.stream().filter(c -> c.qualifier().equals("cur")).findFirst().orElseThrow();
    CheckAccumulator acc =
        check(
            t,
            edit(
                t,
                l -> {
                  l.set(
                      l.indexOf(cur),
                      new Cell(cur.row(), cur.family(), cur.qualifier(), "{garbage"));
                  return l;
                }),
            Exclusions.NONE);
    assertEquals(1, total(acc, "p:", Kind.DIFFERENT));
    assertEquals("{garbage", acc.samples().get(0).actual());
  }

  @Test
  void aWrongTotalRowIsFoundByBothTheDiffAndTheInvariants() {
    List<Cell> t = table();
    Cell total = t.stream().filter(c -> c.row().startsWith("t:")).findFirst().orElseThrow();
    QuerySchema.Row.Total parsed = (QuerySchema.Row.Total) QuerySchema.parseRow(total.row());
    Cell wrong = QuerySchema.total(parsed.uri(), parsed.urc() + 5);
    CheckAccumulator acc =
        check(
            t,
            edit(
                t,
                l -> {
                  l.set(l.indexOf(total), wrong);
                  return l;
                }),
            Exclusions.NONE);
    assertEquals(1, total(acc, "t:", Kind.MISSING));
    assertEquals(1, total(acc, "t:", Kind.EXTRA));
    assertEquals(1, violations(acc, "actual", Kind.TOTAL_MISMATCH));
  }

  @Test
  void extraRowsAndOrphans() {
    List<Cell> t = table();
    CheckAccumulator acc =
        check(
            t,
            edit(
                t,
                l -> {
                  l.add(QuerySchema.total("com.nowhere/x", 4));
                  return l;
                }),
            Exclusions.NONE);
    assertEquals(1, total(acc, "t:", Kind.EXTRA));
    assertEquals(1, violations(acc, "actual", Kind.ORPHAN));
  }

  @Test
  void brokenDomainCountAndMalformedCells() {
    List<Cell> t = table();
    Cell pc = t.stream().filter(c -> c.qualifier().equals("pagecount")).findFirst().orElseThrow();
    CheckAccumulator acc =
        check(
            t,
            edit(
                t,
                l -> {
                  l.set(l.indexOf(pc), new Cell(pc.row(), pc.family(), pc.qualifier(), "999"));
                  l.add(new Cell("zz:bogus", "", "", "x"));
                  l.add(new Cell("t:nothex", "", "", "1"));
                  return l;
                }),
            Exclusions.NONE);
    assertEquals(1, violations(acc, "actual", Kind.PAGECOUNT_MISMATCH));
    assertEquals(2, violations(acc, "actual", Kind.MALFORMED));
    assertEquals(1, total(acc, "other", Kind.EXTRA));
  }

  @Test
  void excludedUrisAreSkippedNotReported() {
    List<Cell> t = table();
    Cell inlink = t.stream().filter(c -> c.family().equals("inlinks")).findFirst().orElseThrow();
    String uri = ((QuerySchema.Row.Page) QuerySchema.parseRow(inlink.row())).uri();
    List<Cell> actual =
        edit(
            t,
            l -> {
              l.removeIf(c -> c.row().equals(inlink.row()));
              return l;
            });
    CheckAccumulator acc = check(t, actual, new Exclusions(Set.of(uri), Set.of()));
    assertEquals(0, acc.ranges().stream().mapToLong(RangeTotals::differences).sum());
    assertTrue(acc.ranges().stream().mapToLong(RangeTotals::skipped).sum() > 0);
    CheckAccumulator without = check(t, actual, Exclusions.NONE);
    assertTrue(without.ranges().stream().mapToLong(RangeTotals::differences).sum() > 0);
  }

  @Test
  void accumulatorsMerge() {
    List<Cell> t = table();
    CheckAccumulator a =
        check(
            t,
            edit(
                t,
                l -> {
                  l.remove(0);
                  return l;
                }),
            Exclusions.NONE);
    CheckAccumulator b =
        check(
            t,
            edit(
                t,
                l -> {
                  l.remove(l.size() - 1);
                  return l;
                }),
            Exclusions.NONE);
    CheckAccumulator all = new CheckAccumulator(10);
    all.merge(a);
    all.merge(b);
    assertEquals(2, all.ranges().stream().mapToLong(RangeTotals::missing).sum());
    assertEquals(2 * t.size(), all.ranges().stream().mapToLong(RangeTotals::compared).sum());
  }
}
