package io.webindex.seed;

import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.TimedCellChange;
import java.util.List;

/**
 * What the export queue carries: the query-table cell changes of one page, URI or domain update,
 * and the history-table changes of one URI's crawl history, computed inside the Fluo transaction by
 * the core functions (old → new state). The exporter writes the query-table changes with the export
 * sequence number as timestamp, the history-table changes at their own timestamps except those of
 * the {@code sched:} column, which it stamps with the export sequence number too.
 */
public record IndexExport(List<CellChange> changes, List<TimedCellChange> history) {
  public IndexExport {
    changes = List.copyOf(changes);
    history = List.copyOf(history);
  }

  /** Query-table changes only. */
  public IndexExport(List<CellChange> changes) {
    this(changes, List.of());
  }
}
