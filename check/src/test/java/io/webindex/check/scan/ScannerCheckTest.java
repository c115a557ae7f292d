package io.webindex.check.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.InMemoryCheck;
import io.webindex.check.engine.Kind;
import io.webindex.check.engine.RawCell;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.synth.RandomWeb;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The streaming check of two tables ({@link ScannerCheck#run}) reports what the engine's one-pass
 * harness ({@link InMemoryCheck}: the merge and both tables' invariants on the same cells, the
 * facts joined in a map) reports, counts, totals and findings alike; for tables that are fixed
 * snapshots (the files mode's clones) too, where the actual table's invariants come from the
 * expected table's when the two hold the same cells, and from a second read of the actual table
 * only when they differ.
 */
class ScannerCheckTest {
  private static final int SAMPLES = 100_000; // every finding kept: the samples are all of them

  /** A consistent table of a small random web. */
  static List<Cell> table() {
    RandomWeb web = new RandomWeb(17, 300);
    ReferenceIndex ref = new ReferenceIndex();
    for (int b = 0; b < 3; b++) {
      ref.applyAll(web.batch(b, 400));
    }
    return ref.cells();
  }

  /** The table with invariants broken in every way the engine checks. */
  static List<Cell> broken(List<Cell> t) {
    return edit(
        t,
        l -> {
          Cell pc = first(l, c -> c.qualifier().equals(QuerySchema.QUAL_PAGECOUNT));
          l.set(l.indexOf(pc), new Cell(pc.row(), pc.family(), pc.qualifier(), "999"));
          Cell inc = first(l, c -> c.qualifier().equals(QuerySchema.QUAL_INCOUNT));
          l.set(l.indexOf(inc), new Cell(inc.row(), inc.family(), inc.qualifier(), "77"));
          Cell rank = first(l, c -> c.family().equals(QuerySchema.FAM_RANK));
          l.remove(rank); // a seen URI without its rank, and its domain's count off by one
          Cell other = last(l, c -> c.family().equals(QuerySchema.FAM_RANK));
          l.add(new Cell("d:org.elsewhere", other.family(), other.qualifier(), other.value()));
          l.add(QuerySchema.total("com.nowhere/x", 4)); // an orphan
          l.add(new Cell("zz:bogus", "", "", "x"));
          l.add(new Cell("t:nothex", "", "", "1"));
          return l;
        });
  }

  static List<Cell> edit(List<Cell> cells, UnaryOperator<List<Cell>> op) {
    List<Cell> l = op.apply(new ArrayList<>(cells));
    l.sort(Cell.ORDER);
    return l;
  }

  private static Cell first(List<Cell> l, java.util.function.Predicate<Cell> p) {
    return l.stream().filter(p).findFirst().orElseThrow();
  }

  private static Cell last(List<Cell> l, java.util.function.Predicate<Cell> p) {
    return l.stream().filter(p).reduce((a, b) -> b).orElseThrow();
  }

  /** The URIs of some t: rows, and the domain of a d: row: cells to skip. */
  static Exclusions someCells(List<Cell> t) {
    List<String> uris =
        t.stream()
            .filter(c -> c.row().startsWith(QuerySchema.TOTAL_PREFIX))
            .map(c -> ((QuerySchema.Row.Total) QuerySchema.parseRow(c.row())).uri())
            .limit(5)
            .toList();
    String domain =
        ((QuerySchema.Row.Domain)
                QuerySchema.parseRow(
                    first(t, c -> c.row().startsWith(QuerySchema.DOMAIN_PREFIX)).row()))
            .domain();
    return new Exclusions(Set.copyOf(uris), Set.of(domain));
  }

  /** A table's cells, counting how often they are read from the start. */
  static final class Table implements ScannerCheck.Source {
    final List<Cell> cells;
    final boolean fixed;
    final AtomicInteger opens = new AtomicInteger();
    private int failingRead; // the read (1, 2, …) that fails after failAfter cells; 0: none
    private int failAfter;

    Table(List<Cell> cells, boolean fixed) {
      this.cells = cells;
      this.fixed = fixed;
    }

    /** This table's {@code read}-th read fails after {@code after} cells. */
    Table failing(int read, int after) {
      this.failingRead = read;
      this.failAfter = after;
      return this;
    }

    @Override
    public ScannerCheck.Cells open() {
      boolean fails = opens.incrementAndGet() == failingRead;
      Iterator<Cell> it = cells.iterator();
      return new ScannerCheck.Cells() {
        private int read;

        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public RawCell next() {
          if (fails && read++ == failAfter) {
            throw new IllegalStateException("the disk is gone");
          }
          return RawCell.of(it.next());
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public boolean fixed() {
      return fixed;
    }
  }

  private static CheckAccumulator accumulator(Exclusions inFlight) {
    CheckAccumulator acc = new CheckAccumulator(SAMPLES);
    if (inFlight != null) {
      acc.ignoreInFlight(CheckAccumulator.ACTUAL, inFlight);
    }
    return acc;
  }

  /**
   * Checks the two tables both ways (fixed snapshots and not) against the harness; returns how
   * often the fixed actual table was read.
   */
  static int checkAgainstTheHarness(
      List<Cell> expected, List<Cell> actual, Exclusions skip, Exclusions inFlight) {
    CheckAccumulator want = accumulator(inFlight);
    InMemoryCheck.run(expected.iterator(), actual.iterator(), skip, want);
    int reads = -1;
    for (boolean fixed : List.of(false, true)) {
      CheckAccumulator got = accumulator(inFlight);
      Table act = new Table(actual, fixed);
      ScannerCheck.run(new Table(expected, fixed), act, skip, got, got);
      String how = fixed ? "fixed snapshots" : "scanners";
      assertEquals(want.ranges(), got.ranges(), how);
      assertEquals(want.invariants(), got.invariants(), how);
      assertEquals(sorted(want.samples()), sorted(got.samples()), how);
      assertEquals(want.inFlightViolations(), got.inFlightViolations(), how);
      if (fixed) {
        reads = act.opens.get();
      } else {
        assertEquals(1, act.opens.get(), "a table read through a scanner is read once");
      }
    }
    return reads;
  }

  private static List<String> sorted(List<Finding> findings) {
    return findings.stream().map(Finding::toString).sorted().toList();
  }

  @Test
  void tablesWithTheSameBrokenCellsHaveTheSameViolationsFromOneReadOfEach() {
    List<Cell> t = broken(table());
    assertEquals(1, checkAgainstTheHarness(t, new ArrayList<>(t), Exclusions.NONE, null));
    CheckAccumulator acc = accumulator(null);
    ScannerCheck.run(new Table(t, true), new Table(t, true), Exclusions.NONE, acc, acc);
    Map<Kind, Long> exp = acc.invariants().get(CheckAccumulator.EXPECTED);
    assertTrue(exp.size() >= 6, "the broken table breaks many invariants: " + exp);
    assertEquals(exp, acc.invariants().get(CheckAccumulator.ACTUAL));
    assertTrue(
        acc.samples().stream().anyMatch(f -> f.table().equals(CheckAccumulator.ACTUAL)),
        "the actual table's findings are its own");
  }

  @Test
  void differentTablesAreReadAgainForTheActualTablesInvariants() {
    List<Cell> t = table();
    assertEquals(2, checkAgainstTheHarness(t, broken(t), Exclusions.NONE, null));
    assertEquals(2, checkAgainstTheHarness(broken(t), t, Exclusions.NONE, null));
    List<Cell> oneValue =
        edit(
            t,
            l -> {
              Cell inc = last(l, c -> c.qualifier().equals(QuerySchema.QUAL_INCOUNT));
              l.set(l.indexOf(inc), new Cell(inc.row(), inc.family(), inc.qualifier(), "5"));
              return l;
            });
    assertEquals(2, checkAgainstTheHarness(t, oneValue, Exclusions.NONE, null));
    assertEquals(2, checkAgainstTheHarness(t, List.of(), Exclusions.NONE, null));
    assertEquals(2, checkAgainstTheHarness(List.of(), t, Exclusions.NONE, null));
  }

  @Test
  void skippedCellsCountAsDifferentWhenTheyDiffer() {
    List<Cell> t = broken(table());
    Exclusions skip = someCells(t);
    // the same cells, some skipped: one read
    assertEquals(1, checkAgainstTheHarness(t, new ArrayList<>(t), skip, null));
    // cells that differ only where the comparison skips them: no difference reported, but the
    // actual table's invariants are its own
    String uri = skip.uris().iterator().next();
    List<Cell> changed =
        edit(
            t,
            l -> {
              Cell tot =
                  first(
                      l,
                      c -> c.row().startsWith(QuerySchema.TOTAL_PREFIX) && c.row().endsWith(uri));
              l.remove(tot);
              return l;
            });
    assertEquals(2, checkAgainstTheHarness(t, changed, skip, null));
  }

  @Test
  void theActualTablesFindingsInWorkInFlightAreNotCountedEitherWay() {
    List<Cell> t = broken(table());
    Exclusions inFlight = someCells(t);
    assertEquals(1, checkAgainstTheHarness(t, new ArrayList<>(t), Exclusions.NONE, inFlight));
    assertEquals(2, checkAgainstTheHarness(table(), t, Exclusions.NONE, inFlight));
    CheckAccumulator acc = accumulator(inFlight);
    ScannerCheck.run(new Table(t, true), new Table(t, true), Exclusions.NONE, acc, acc);
    assertTrue(acc.inFlightViolations() > 0, "some of the actual table's findings are in flight");
  }

  /**
   * Fixed snapshots and scanners give the same report, sample for sample in the same order, also
   * when few findings of each kind are kept (the merge order of the tables' findings decides
   * which).
   */
  @Test
  void fixedSnapshotsAndScannersGiveTheSameReportInTheSameOrder() {
    List<Cell> t = table();
    List<List<List<Cell>>> pairs =
        List.of(
            List.of(broken(t), broken(t)),
            List.of(t, broken(t)),
            List.of(broken(t), t),
            List.of(broken(t), broken(broken(t))));
    for (List<List<Cell>> pair : pairs) {
      for (int samples : List.of(1, 2, 1000)) {
        CheckAccumulator scanners = check(pair.get(0), pair.get(1), false, samples);
        CheckAccumulator fixed = check(pair.get(0), pair.get(1), true, samples);
        assertEquals(scanners.ranges(), fixed.ranges());
        assertEquals(scanners.invariants(), fixed.invariants());
        assertEquals(scanners.samples(), fixed.samples());
      }
    }
  }

  /** The check of two tables, both fixed snapshots or both scanners, keeping {@code samples}. */
  private static CheckAccumulator check(
      List<Cell> expected, List<Cell> actual, boolean fixed, int samples) {
    CheckAccumulator acc = new CheckAccumulator(samples);
    ScannerCheck.run(
        new Table(expected, fixed), new Table(actual, fixed), Exclusions.NONE, acc, acc);
    return acc;
  }

  /**
   * What runs alongside the fact join runs once, in the calling thread, before the check returns;
   * what it throws is what the check throws, and no thread of the check is left running.
   */
  @Test
  void theWorkAlongsideRunsInTheCallersThreadAndItsFailureIsTheChecks() throws Exception {
    List<Cell> t = broken(table());
    for (boolean same : List.of(true, false)) {
      List<Thread> ran = new ArrayList<>();
      CheckAccumulator acc = accumulator(null);
      java.util.function.Consumer<Runnable> check =
          alongside ->
              ScannerCheck.run(
                  new Table(t, true),
                  new Table(same ? t : table(), true),
                  Exclusions.NONE,
                  acc,
                  acc,
                  alongside);
      check.accept(() -> ran.add(Thread.currentThread()));
      assertEquals(List.of(Thread.currentThread()), ran);
      IllegalStateException thrown =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalStateException.class,
              () ->
                  check.accept(
                      () -> {
                        throw new IllegalStateException("the history is unreadable");
                      }));
      assertEquals("the history is unreadable", thrown.getMessage());
      assertNoCheckThreadLeft();
    }
  }

  /**
   * A table that fails while it is read, the first time or the second, fails the check with what it
   * threw, and leaves no thread of the check running.
   */
  @Test
  void aTableThatFailsToBeReadFailsTheCheck() throws Exception {
    List<Cell> t = broken(table());
    List<Cell> other = table();
    List<ScannerCheck.Source[]> cases =
        List.of(
            new ScannerCheck.Source[] {new Table(t, true).failing(1, 500), new Table(t, true)},
            new ScannerCheck.Source[] {new Table(t, true), new Table(t, true).failing(1, 500)},
            new ScannerCheck.Source[] {new Table(t, false), new Table(t, false).failing(1, 3)},
            // the second read of a table that differs
            new ScannerCheck.Source[] {new Table(t, true), new Table(other, true).failing(2, 700)});
    for (ScannerCheck.Source[] c : cases) {
      CheckAccumulator acc = accumulator(null);
      IllegalStateException thrown =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalStateException.class,
              () -> ScannerCheck.run(c[0], c[1], Exclusions.NONE, acc, acc));
      assertEquals("the disk is gone", thrown.getMessage());
      assertNoCheckThreadLeft();
    }
  }

  /** No thread of a check runs any more (they end within seconds of the check). */
  static void assertNoCheckThreadLeft() throws InterruptedException {
    long until = System.nanoTime() + 10_000_000_000L;
    List<String> left;
    do {
      left =
          Thread.getAllStackTraces().keySet().stream()
              .filter(Thread::isAlive)
              .map(Thread::getName)
              .filter(n -> n.startsWith("webindex-check-"))
              .toList();
      if (left.isEmpty()) {
        return;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < until);
    assertEquals(List.of(), left, "threads of the check still running");
  }
}
