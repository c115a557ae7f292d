package io.webindex.seed;

import io.webindex.core.schema.CellChange;
import java.util.List;

/**
 * What the export queue carries: the query-table cell changes of one page, URI or domain update,
 * computed inside the Fluo transaction by the core functions (old → new state). The exporter writes
 * them with the export sequence number as timestamp.
 */
public record IndexExport(List<CellChange> changes) {
  public IndexExport {
    changes = List.copyOf(changes);
  }
}
