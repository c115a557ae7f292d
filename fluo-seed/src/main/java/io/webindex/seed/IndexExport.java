package io.webindex.seed;

import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.TimedCellChange;
import java.util.List;

/**
 * What the export queue carries: the query-table cell changes of one page, URI or domain update,
 * the history-table changes of one URI's crawl history and the frontier-table changes of one URI's
 * frontier entry, computed inside the Fluo transaction by the core functions (old → new state). The
 * exporter writes the query-table and frontier-table changes with the export sequence number as
 * timestamp, the history-table changes at their own timestamps except those of the {@code sched:}
 * column, which it stamps with the export sequence number too.
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
}
