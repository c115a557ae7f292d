package io.webindex.core.index;

import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.url.Domains;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The in-memory reference index: the whole semantics computed the simplest way, from {@link
 * IndexCells} only. Tests of both engines compare their tables with {@link #cells()}. Not for large
 * inputs.
 */
public final class ReferenceIndex {
  private final Map<String, Page> current = new HashMap<>();

  /**
   * Offers one page version (or deletion); it becomes current when it supersedes the version held.
   *
   * @return true when it became current
   */
  public boolean apply(Page version) {
    Page held = current.get(version.key());
    if (held == null || version.version().supersedes(held.version())) {
      current.put(version.key(), version);
      return true;
    }
    return false;
  }

  public void applyAll(Collection<Page> versions) {
    for (Page p : versions) {
      apply(p);
    }
  }

  /** The current version of every URL ever offered, deletions included. */
  public Map<String, Page> currentVersions() {
    return Collections.unmodifiableMap(current);
  }

  /** urc and crawled for every URI that is linked to or has a current page. */
  public Map<String, UriState> uriStates() {
    Map<String, UriState> states = new TreeMap<>();
    for (Page p : current.values()) {
      if (p.deleted()) {
        continue;
      }
      states.merge(p.key(), UriState.of(0, true), ReferenceIndex::sum);
      for (Link l : p.links()) {
        states.merge(l.key(), UriState.of(1, false), ReferenceIndex::sum);
      }
    }
    return states;
  }

  private static UriState sum(UriState a, UriState b) {
    return new UriState(a.urc() + b.urc(), a.crawled() + b.crawled());
  }

  /** Number of seen URIs per domain (only domains with at least one). */
  public Map<String, Long> domainCounts() {
    Map<String, Long> counts = new TreeMap<>();
    for (Map.Entry<String, UriState> e : uriStates().entrySet()) {
      if (e.getValue().seen()) {
        counts.merge(Domains.ofKey(e.getKey()), 1L, Long::sum);
      }
    }
    return counts;
  }

  /** The whole query table, in table order. */
  public List<Cell> cells() {
    List<Cell> cells = new ArrayList<>();
    for (Page p : current.values()) {
      cells.addAll(IndexCells.page(p));
    }
    for (Map.Entry<String, UriState> e : uriStates().entrySet()) {
      cells.addAll(IndexCells.uri(e.getKey(), e.getValue()));
    }
    for (Map.Entry<String, Long> e : domainCounts().entrySet()) {
      cells.addAll(IndexCells.domain(e.getKey(), e.getValue()));
    }
    cells.sort(Cell.ORDER);
    return cells;
  }
}
