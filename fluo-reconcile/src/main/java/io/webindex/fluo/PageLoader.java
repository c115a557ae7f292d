package io.webindex.fluo;

import io.webindex.core.index.IndexCells;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.FluoSchema;
import io.webindex.seed.FluoSeed;
import io.webindex.seed.IndexExport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.fluo.api.client.Loader;
import org.apache.fluo.api.client.TransactionBase;
import org.apache.fluo.api.data.RowColumn;
import org.apache.fluo.recipes.core.combine.CombineQueue;
import org.apache.fluo.recipes.core.export.ExportQueue;

/**
 * Loads a few page versions of distinct URIs in one Fluo transaction. Latest crawl wins inside
 * Fluo: a version that does not supersede the stored one (deletions are stored too) changes
 * nothing, so out-of-order and replayed batches converge. Otherwise it stores the version and
 * exports the page's cell changes; the URI deltas the versions' links cause are summed per URI over
 * the group and added to the {@code um:} combine queue once each — none when re-crawls kept their
 * links and anchors, or their deltas cancel out. Reading the stored versions is one batched read.
 *
 * <p>Fluo runs {@code load} again when the transaction collides; the shared {@link Stats} count
 * only the attempt that committed (each attempt takes back what the one before it counted).
 */
public final class PageLoader implements Loader {
  /** Shared counters of a loading run. */
  public static final class Stats {
    public final LongAdder applied = new LongAdder();
    public final LongAdder stale = new LongAdder();
    public final LongAdder linkWork = new LongAdder();
  }

  private final List<Page> versions;
  private final CombineQueue<String, UriState.Delta> uris;
  private final ExportQueue<String, IndexExport> exports;
  private final Stats stats;
  private long countedApplied;
  private long countedStale;
  private long countedLinkWork;

  /**
   * @param versions page versions of distinct URIs (the transaction writes each page's row once)
   */
  public PageLoader(
      List<Page> versions,
      CombineQueue<String, UriState.Delta> uris,
      ExportQueue<String, IndexExport> exports,
      Stats stats) {
    this.versions = List.copyOf(versions);
    this.uris = uris;
    this.exports = exports;
    this.stats = stats;
  }

  @Override
  public void load(TransactionBase tx, Context context) {
    List<RowColumn> cells = new ArrayList<>(versions.size());
    for (Page v : versions) {
      cells.add(new RowColumn(FluoSchema.pageRow(v.key()), FluoSeed.PAGE_CUR));
    }
    Map<RowColumn, String> stored = tx.gets(cells);
    long applied = 0;
    long stale = 0;
    Map<String, UriState.Delta> deltas = new HashMap<>();
    for (int i = 0; i < versions.size(); i++) {
      Page version = versions.get(i);
      RowColumn cell = cells.get(i);
      String json = stored.get(cell);
      Page current = json == null ? null : PageJson.fromStoredJson(json);
      if (current != null && !version.version().supersedes(current.version())) {
        stale++;
        continue;
      }
      tx.set(cell.getsRow(), FluoSeed.PAGE_CUR, PageJson.toStoredJson(version));
      WebindexObservers.export(
          exports, tx, version.key(), IndexCells.pageChanges(current, version));
      IndexCells.uriDeltas(current, version)
          .forEach((u, d) -> deltas.merge(u, d, UriState.Delta::plus));
      applied++;
    }
    deltas.values().removeIf(UriState.Delta::isZero);
    if (!deltas.isEmpty()) {
      uris.addAll(tx, deltas);
    }
    count(applied, stale, deltas.size());
  }

  /** This attempt's counts replace the previous attempt's (a collision made Fluo run it again). */
  private synchronized void count(long applied, long stale, long linkWork) {
    stats.applied.add(applied - countedApplied);
    stats.stale.add(stale - countedStale);
    stats.linkWork.add(linkWork - countedLinkWork);
    countedApplied = applied;
    countedStale = stale;
    countedLinkWork = linkWork;
  }
}
