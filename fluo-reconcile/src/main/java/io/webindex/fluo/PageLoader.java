package io.webindex.fluo;

import io.webindex.core.index.IndexCells;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.FluoSchema;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.fluo.api.client.Loader;
import org.apache.fluo.api.client.TransactionBase;
import org.apache.fluo.recipes.core.combine.CombineQueue;
import org.apache.fluo.recipes.core.export.ExportQueue;

/**
 * Loads one page version in one Fluo transaction. Latest crawl wins inside Fluo: a version that
 * does not supersede the stored one (deletions are stored too) changes nothing, so out-of-order and
 * replayed batches converge. Otherwise it stores the version, exports the page's cell changes and
 * adds the URI deltas its links cause to the {@code um:} combine queue — none when a re-crawl kept
 * its links and anchors.
 */
public final class PageLoader implements Loader {
  /** Shared counters of a loading run. */
  public static final class Stats {
    public final LongAdder applied = new LongAdder();
    public final LongAdder stale = new LongAdder();
    public final LongAdder linkWork = new LongAdder();
  }

  private final Page version;
  private final CombineQueue<String, UriState.Delta> uris;
  private final ExportQueue<String, IndexExport> exports;
  private final Stats stats;

  public PageLoader(
      Page version,
      CombineQueue<String, UriState.Delta> uris,
      ExportQueue<String, IndexExport> exports,
      Stats stats) {
    this.version = version;
    this.uris = uris;
    this.exports = exports;
    this.stats = stats;
  }

  @Override
  public void load(TransactionBase tx, Context context) {
    String row = FluoSchema.pageRow(version.key());
    String stored = tx.gets(row, FluoSeed.PAGE_CUR);
    Page current = stored == null ? null : PageJson.fromStoredJson(stored);
    if (current != null && !version.version().supersedes(current.version())) {
      stats.stale.increment();
      return;
    }
    tx.set(row, FluoSeed.PAGE_CUR, PageJson.toStoredJson(version));
    WebindexObservers.export(exports, tx, version.key(), IndexCells.pageChanges(current, version));
    Map<String, UriState.Delta> deltas = IndexCells.uriDeltas(current, version);
    if (!deltas.isEmpty()) {
      uris.addAll(tx, deltas);
      stats.linkWork.add(deltas.size());
    }
    stats.applied.increment();
  }
}
