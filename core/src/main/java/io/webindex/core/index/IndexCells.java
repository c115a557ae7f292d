package io.webindex.core.index;

import io.webindex.core.json.PageJson;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.Domains;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The pure functions from index state to query-table cells, and from old to new state to cell
 * changes. The batch recompute writes {@code uri(..) + page(..) + domain(..)} for every URI, page
 * and domain; the Fluo exporter writes the {@code *Changes} of every update. Both engines therefore
 * agree by construction.
 *
 * <p>The three kinds of state each own disjoint cells:
 *
 * <ul>
 *   <li>a URI's {@link UriState} owns {@code p:<uri> page:incount}, {@code t:<enc>:<uri>} and
 *       {@code d:<domain> rank:<enc>:<uri>} (only while the URI is seen);
 *   <li>a current page owns {@code p:<uri> page:cur} and the {@code inlinks:<uri>} column in the
 *       row of every page it links to;
 *   <li>a domain's seen-URI count owns {@code d:<domain> domain:pagecount} (only while positive).
 * </ul>
 */
public final class IndexCells {
  private IndexCells() {}

  /** Cells owned by a URI's state; none when it is not seen. */
  public static List<Cell> uri(String uriKey, UriState state) {
    if (state == null || !state.seen()) {
      return List.of();
    }
    return uri(uriKey, Domains.ofKey(uriKey), state);
  }

  /** As {@link #uri(String, UriState)} with the domain already known. */
  public static List<Cell> uri(String uriKey, String domain, UriState state) {
    if (state == null || !state.seen()) {
      return List.of();
    }
    long urc = state.urc();
    return List.of(
        QuerySchema.incount(uriKey, urc),
        QuerySchema.total(uriKey, urc),
        QuerySchema.rank(domain, uriKey, urc));
  }

  /** Cells owned by a page version; none for a deletion or null. */
  public static List<Cell> page(Page page) {
    if (page == null || page.deleted()) {
      return List.of();
    }
    List<Cell> cells = new ArrayList<>(page.links().size() + 1);
    cells.add(pageCur(page));
    for (Link l : page.links()) {
      cells.add(inlink(page.key(), l));
    }
    return cells;
  }

  /** The {@code page:cur} cell of a live page. */
  public static Cell pageCur(Page page) {
    return QuerySchema.pageCur(page.key(), PageJson.toQueryJson(page));
  }

  /** The {@code inlinks} cell a link of {@code sourceKey} puts in its target's row. */
  public static Cell inlink(String sourceKey, Link link) {
    return QuerySchema.inlink(link.key(), sourceKey, link.anchor());
  }

  /** Cells owned by a domain's count of seen URIs; none when zero. */
  public static List<Cell> domain(String domain, long seenUris) {
    return seenUris <= 0 ? List.of() : List.of(QuerySchema.pageCount(domain, seenUris));
  }

  public static List<CellChange> uriChanges(String uriKey, UriState before, UriState after) {
    if (Objects.equals(before, after)) {
      return List.of();
    }
    String domain = Domains.ofKey(uriKey);
    return diff(uri(uriKey, domain, before), uri(uriKey, domain, after));
  }

  /**
   * Changes from one version of a page to another (either may be null or a deletion). A re-crawl
   * with the same links and anchors changes {@code page:cur} only.
   */
  public static List<CellChange> pageChanges(Page before, Page after) {
    return diff(page(before), page(after));
  }

  public static List<CellChange> domainChanges(String domain, long before, long after) {
    if (before == after) {
      return List.of();
    }
    return diff(domain(domain, before), domain(domain, after));
  }

  /**
   * The changes that turn the cells {@code before} into {@code after}: a delete for every column
   * that is gone, a put for every cell that is new or has a new value; nothing for an unchanged
   * cell.
   */
  public static List<CellChange> diff(List<Cell> before, List<Cell> after) {
    if (before.isEmpty()) {
      List<CellChange> puts = new ArrayList<>(after.size());
      for (Cell c : after) {
        puts.add(CellChange.put(c));
      }
      return puts;
    }
    Map<Cell.Column, String> old = new HashMap<>(before.size() * 2);
    for (Cell c : before) {
      old.put(c.column(), c.value());
    }
    List<CellChange> changes = new ArrayList<>();
    for (Cell c : after) {
      String prev = old.remove(c.column());
      if (!c.value().equals(prev)) {
        changes.add(CellChange.put(c));
      }
    }
    for (Cell.Column gone : old.keySet()) {
      changes.add(new CellChange.Delete(gone));
    }
    changes.sort((a, b) -> a.column().compareTo(b.column()));
    return changes;
  }

  /** The URI-state deltas that replacing {@code before} by {@code after} causes. */
  public static Map<String, UriState.Delta> uriDeltas(Page before, Page after) {
    Map<String, UriState.Delta> deltas = new HashMap<>();
    String key = after != null ? after.key() : before != null ? before.key() : null;
    if (key == null) {
      return deltas;
    }
    boolean wasLive = before != null && !before.deleted();
    boolean isLive = after != null && !after.deleted();
    if (wasLive != isLive) {
      deltas.put(key, new UriState.Delta(0, isLive ? 1 : -1));
    }
    if (wasLive) {
      for (Link l : before.links()) {
        deltas.merge(l.key(), new UriState.Delta(-1, 0), UriState.Delta::plus);
      }
    }
    if (isLive) {
      for (Link l : after.links()) {
        deltas.merge(l.key(), new UriState.Delta(1, 0), UriState.Delta::plus);
      }
    }
    deltas.values().removeIf(UriState.Delta::isZero);
    return deltas;
  }
}
