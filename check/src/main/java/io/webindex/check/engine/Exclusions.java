package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import java.util.Set;

/**
 * The cells a comparison skips because batches newer than the batch run's snapshot changed them:
 * every cell owned by a touched URI (its {@code p:} row, its {@code t:} row, its {@code rank}
 * column) and the page count of a touched domain. A URI is touched when a newer batch holds a
 * version of it, or links to it, or when the version it replaced linked to it.
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
