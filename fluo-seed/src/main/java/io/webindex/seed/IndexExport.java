package io.webindex.seed;

import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.TimedCellChange;
import java.util.ArrayList;
import java.util.List;

/**
 * What the export queue carries: the query-table, history-table and frontier-table changes one Fluo
 * transaction makes — of the pages it loads, the URIs or the domains it updates — computed inside
 * the transaction by the core functions (old → new state); one entry per transaction ({@link
 * Builder}), not one per page or URI, since every change of a transaction is stamped with the same
 * export sequence number anyway, and each entry costs the queue a write and a delete. The exporter
 * writes the query-table and frontier-table changes with the export sequence number as timestamp,
 * the history-table changes at their own timestamps except those of the {@code sched:} column,
 * which it stamps with the export sequence number too.
 */
public record IndexExport(
    List<CellChange> changes, List<TimedCellChange> history, List<CellChange> frontier) {
  public IndexExport {
    changes = List.copyOf(changes);
    history = List.copyOf(history);
    frontier = List.copyOf(frontier);
  }

  /** Query-table and history-table changes, none of the frontier table. */
  public IndexExport(List<CellChange> changes, List<TimedCellChange> history) {
    this(changes, history, List.of());
  }

  /** Query-table changes only. */
  public IndexExport(List<CellChange> changes) {
    this(changes, List.of(), List.of());
  }

  /** Whether it changes no table. */
  public boolean isEmpty() {
    return changes.isEmpty() && history.isEmpty() && frontier.isEmpty();
  }

  /** Collects the changes of one transaction into one export. */
  public static final class Builder {
    private final List<CellChange> changes = new ArrayList<>();
    private final List<TimedCellChange> history = new ArrayList<>();
    private final List<CellChange> frontier = new ArrayList<>();

    /** Adds the changes of one page, URI or domain. */
    public Builder add(
        List<CellChange> changes, List<TimedCellChange> history, List<CellChange> frontier) {
      this.changes.addAll(changes);
      this.history.addAll(history);
      this.frontier.addAll(frontier);
      return this;
    }

    public IndexExport build() {
      return new IndexExport(changes, history, frontier);
    }
  }
}
