package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import java.util.Set;

/**
 * The cells a comparison skips because batches newer than the batch run's snapshot changed them:
 * every cell owned by a touched URI (its {@code p:} row, its {@code t:} row, its {@code rank}
 * column, its history-table row) and the page count of a touched domain. A URI is touched when a
 * newer batch holds a version of it, or links to it, or when the version it replaced linked to it.
 */
public record Exclusions(Set<String> uris, Set<String> domains) {
  public static final Exclusions NONE = new Exclusions(Set.of(), Set.of());

  public Exclusions {
    uris = Set.copyOf(uris);
    domains = Set.copyOf(domains);
  }

  public boolean isEmpty() {
    return uris.isEmpty() && domains.isEmpty();
  }

  /**
   * Whether a finding lies in an excluded cell: its row and column as the engine reports them
   * ({@code family:qualifier}); a finding about a whole row (no column) by its row.
   */
  public boolean excludes(Finding f) {
    if (isEmpty()) {
      return false;
    }
    if (f.range().equals(HistoryCheck.RANGE)) {
      return uris.contains(f.row()); // a history table's rows are URI keys
    }
    int colon = f.column().indexOf(':');
    String family = colon < 0 ? f.column() : f.column().substring(0, colon);
    String qualifier = colon < 0 ? "" : f.column().substring(colon + 1);
    return excludes(new Cell.Column(f.row(), family, qualifier));
  }

  public boolean excludes(Cell.Column c) {
    if (isEmpty()) {
      return false;
    }
    try {
      QuerySchema.Row row = QuerySchema.parseRow(c.row());
      if (row instanceof QuerySchema.Row.Page p) {
        return uris.contains(p.uri());
      }
      if (row instanceof QuerySchema.Row.Total t) {
        return uris.contains(t.uri());
      }
      if (row instanceof QuerySchema.Row.Domain d) {
        if (c.family().equals(QuerySchema.FAM_RANK)) {
          return uris.contains(QuerySchema.parseRankedUri(c.qualifier()).uri());
        }
        return domains.contains(d.domain());
      }
    } catch (IllegalArgumentException e) {
      return false;
    }
    return false;
  }
}
