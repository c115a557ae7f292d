package io.webindex.check.engine;

import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FrontierSchema;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * The comparison of two frontier tables (the batch run's and the Fluo-maintained one's, {@link
 * FrontierSchema}) cell for cell, and the invariants of each, in one merge pass. Both inputs are
 * the tables' cells in Accumulo key order. Findings go to range {@link #RANGE}; a cell is skipped
 * when batches newer than the run's snapshot touched its URI (its urc or its schedule may differ).
 *
 * <p>Invariants of each table: every cell is one the codec writes (its queue is its URI's host, its
 * value its URI's URL: else {@link Kind#MALFORMED}), and a URI has at most one cell ({@link
 * Kind#FRONTIER_DUPLICATE}; a URI's cells can only share its queue's row, so the check holds one
 * row's URIs at a time). That the due time and priority are right is what the comparison with the
 * recompute shows.
 */
public final class FrontierCheck {
  /** The row range of every frontier finding. */
  public static final String RANGE = "frontier";

  private final Exclusions skip;
  private final CheckAccumulator acc;
  private final Side expectedSide = new Side(CheckAccumulator.EXPECTED);
  private final Side actualSide = new Side(CheckAccumulator.ACTUAL);

  public FrontierCheck(Exclusions skip, CheckAccumulator acc) {
    this.skip = skip;
    this.acc = acc;
  }

  /** One table's invariants, one queue row at a time. */
  private final class Side {
    private final String table;
    private String row;
    private Set<String> uris = new HashSet<>();

    Side(String table) {
      this.table = table;
    }

    /**
     * The URI key of {@code c}, which decoded as {@code d}, or null when it does not decode
     * (reported).
     */
    String check(Cell c, Decoded d) {
      if (!c.row().equals(row)) {
        row = c.row();
        if (!uris.isEmpty()) {
          // a new set, not a cleared one: clearing costs the table's whole capacity, which a
          // queue of many URIs grew and every smaller queue after it would pay for again
          uris = new HashSet<>();
        }
      }
      FrontierEntry e = d.entry();
      if (e == null) {
        acc.violation(table, finding(Kind.MALFORMED, table, c, d.malformed()));
        return null;
      }
      if (!uris.add(e.uriKey())) {
        acc.violation(
            table,
            finding(
                Kind.FRONTIER_DUPLICATE, table, c, "another cell of this row holds " + e.uriKey()));
      }
      return e.uriKey();
    }
  }

  /** What decoding a cell gave: its entry, or why it is malformed. */
  private record Decoded(FrontierEntry entry, String malformed) {
    static Decoded of(Cell c) {
      try {
        return new Decoded(FrontierSchema.decode(c), null);
      } catch (IllegalArgumentException ex) {
        return new Decoded(null, ex.getMessage());
      }
    }
  }

  private static Finding finding(Kind kind, String table, Cell c, String detail) {
    return new Finding(
        kind, table, RANGE, c.row(), c.family() + ":" + c.qualifier(), "", c.value(), detail);
  }

  /** Compares the two tables' cells and checks both tables' invariants. */
  public void run(Iterator<Cell> expected, Iterator<Cell> actual) {
    Cell e = next(expected);
    Cell a = next(actual);
    while (e != null || a != null) {
      int c = e == null ? 1 : a == null ? -1 : Cell.ORDER.compare(e, a);
      String uri = null;
      Decoded ed = null;
      if (c <= 0) {
        ed = Decoded.of(e);
        uri = expectedSide.check(e, ed);
      }
      if (c >= 0) {
        // decoding is a function of the cell: the same cell in both tables (most cells) decodes
        // the same way, and its URL is parsed once
        Decoded ad = c == 0 && e.value().equals(a.value()) ? ed : Decoded.of(a);
        String u = actualSide.check(a, ad);
        uri = uri == null ? u : uri;
      }
      boolean skipped = uri != null && skip.uris().contains(uri);
      acc.compared(RANGE, skipped);
      if (!skipped) {
        if (c < 0) {
          acc.difference(RANGE, difference(Kind.MISSING, e, null));
        } else if (c > 0) {
          acc.difference(RANGE, difference(Kind.EXTRA, null, a));
        } else if (!e.value().equals(a.value())) {
          acc.difference(RANGE, difference(Kind.DIFFERENT, e, a));
        }
      }
      if (c <= 0) {
        e = next(expected);
      }
      if (c >= 0) {
        a = next(actual);
      }
    }
  }

  private static Finding difference(Kind kind, Cell expected, Cell actual) {
    Cell where = expected != null ? expected : actual;
    return new Finding(
        kind,
        "both",
        RANGE,
        where.row(),
        where.family() + ":" + where.qualifier(),
        expected == null ? "" : expected.value(),
        actual == null ? "" : actual.value(),
        "");
  }

  private static <T> T next(Iterator<T> it) {
    return it.hasNext() ? it.next() : null;
  }
}
