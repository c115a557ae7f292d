package io.webindex.fluo;

import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.index.HistoryCells;
import io.webindex.core.index.IndexCells;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriUpdate;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.TimedCellChange;
import io.webindex.seed.FluoSeed;
import io.webindex.seed.IndexExport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.fluo.api.client.Loader;
import org.apache.fluo.api.client.TransactionBase;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.data.RowColumn;
import org.apache.fluo.recipes.core.export.ExportQueue;

/**
 * Loads a few page versions of distinct URIs in one Fluo transaction. Latest crawl wins inside
 * Fluo: a version that does not supersede the stored one (deletions are stored too) changes
 * nothing, so out-of-order and replayed batches converge. Otherwise it stores the version and
 * exports the page's cell changes; the URI deltas the versions' links cause are summed per URI over
 * the group and added to the {@code um:} queue ({@link UriQueue}: one entry per bucket) — none when
 * re-crawls kept their links and anchors, or their deltas cancel out. Reading the stored versions
 * is one batched read; the changes of all the group's pages go out as one export.
 *
 * <p>Every version also goes into its URI's full crawl history ({@code h:<uri> hist:all}, {@link
 * Histories#add}) — stale ones too: an older crawl changes no current state, but it is a crawl of
 * the history and may change the schedule; a version crawled in a millisecond the history holds
 * replaces that crawl only when it is the later version ({@code PageVersion} order). When the
 * history changed, the same transaction exports the history-table changes ({@link
 * HistoryCells#changes}) with the page's query-table changes. The {@code sched:} changes are
 * computed at the placeholder timestamp {@link #UNSTAMPED}: the exporter stamps them with the
 * export's sequence timestamp.
 *
 * <p>When the history changed, so may its schedule's next fetch: the loader adds it to the URI's
 * update in the {@code um:} queue, whose observer keeps it in the URI's sum with the urc and
 * exports the change of the URI's frontier entry ({@link FrontierState}). A version that changes
 * nothing in the history changes nothing in the frontier.
 *
 * <p>Fluo runs {@code load} again when the transaction collides; the shared {@link Stats} count
 * only the attempt that committed (each attempt takes back what the one before it counted).
 */
public final class PageLoader implements Loader {
  /** Shared counters of a loading run. */
  public static final class Stats {
    public final LongAdder applied = new LongAdder();
    public final LongAdder stale = new LongAdder();

    /** URI updates added to the {@code um:} queue (summed per URI over each group). */
    public final LongAdder linkWork = new LongAdder();
  }

  /** The crawl-history column of a {@code h:<uri>} row. */
  static final Column HIST_ALL = new Column(FluoSchema.FAM_HIST, FluoSchema.QUAL_ALL);

  /** The export timestamp the {@code sched:} changes are computed at (the exporter restamps). */
  static final long UNSTAMPED = 1;

  private final List<Page> versions;
  private final HistorySettings history;
  private final UriQueue uris;
  private final ExportQueue<String, IndexExport> exports;
  private final Stats stats;
  private long countedApplied;
  private long countedStale;
  private long countedLinkWork;

  /**
   * @param versions page versions of distinct URIs (the transaction writes each page's row once)
   * @param history the application's crawl-history settings
   */
  PageLoader(
      List<Page> versions,
      HistorySettings history,
      UriQueue uris,
      ExportQueue<String, IndexExport> exports,
      Stats stats) {
    this.versions = List.copyOf(versions);
    this.history = history;
    this.uris = uris;
    this.exports = exports;
    this.stats = stats;
  }

  @Override
  public void load(TransactionBase tx, Context context) {
    List<RowColumn> cells = new ArrayList<>(2 * versions.size());
    for (Page v : versions) {
      cells.add(new RowColumn(FluoSchema.pageRow(v.key()), FluoSeed.PAGE_CUR));
      cells.add(new RowColumn(FluoSchema.histRow(v.key()), HIST_ALL));
    }
    Map<RowColumn, String> stored = tx.gets(cells);
    long applied = 0;
    long stale = 0;
    Map<String, UriUpdate> updates = new HashMap<>();
    IndexExport.Builder export = new IndexExport.Builder();
    for (int i = 0; i < versions.size(); i++) {
      Page version = versions.get(i);
      RowColumn cell = cells.get(2 * i);
      HistoryUpdate history = history(tx, version, cells.get(2 * i + 1), stored);
      if (history.nextFetchMillis() != null) {
        updates.merge(
            version.key(), UriUpdate.nextFetch(history.nextFetchMillis()), UriUpdate::then);
      }
      String json = stored.get(cell);
      Page current = json == null ? null : PageJson.fromStoredJson(json);
      List<CellChange> pageChanges = List.of();
      if (current != null && !version.version().supersedes(current.version())) {
        stale++;
      } else {
        tx.set(cell.getsRow(), FluoSeed.PAGE_CUR, PageJson.toStoredJson(version));
        pageChanges = IndexCells.pageChanges(current, version);
        IndexCells.uriDeltas(current, version)
            .forEach((u, d) -> updates.merge(u, UriUpdate.of(d), UriUpdate::then));
        applied++;
      }
      export.add(pageChanges, history.changes(), List.of());
    }
    WebindexObservers.export(exports, tx, versions.get(0).key(), export.build());
    updates.values().removeIf(UriUpdate::isEmpty);
    if (!updates.isEmpty()) {
      uris.addAll(tx, updates);
    }
    count(applied, stale, updates.size());
  }

  /**
   * What adding a version did to its URI's history: the history-table changes, and the schedule's
   * next fetch of the new history (null when the history did not change).
   */
  private record HistoryUpdate(List<TimedCellChange> changes, Long nextFetchMillis) {
    static final HistoryUpdate NONE = new HistoryUpdate(List.of(), null);
  }

  /**
   * Adds {@code version} to its URI's full history; when that changed it, writes the new history
   * and returns the history-table changes and the new schedule's next fetch, else {@link
   * HistoryUpdate#NONE}.
   */
  private HistoryUpdate history(
      TransactionBase tx, Page version, RowColumn histCell, Map<RowColumn, String> stored) {
    String held = stored.get(histCell);
    List<HistoryEntry> before = held == null ? List.of() : HistorySchema.decodeFullHistory(held);
    List<HistoryEntry> after = Histories.add(before, version);
    if (after.equals(before)) {
      return HistoryUpdate.NONE;
    }
    tx.set(histCell.getsRow(), HIST_ALL, HistorySchema.encodeFullHistory(after));
    return new HistoryUpdate(
        HistoryCells.changes(
            version.key(), before, after, history.schedule(), history.versions(), UNSTAMPED),
        HistoryCells.schedule(after, history.schedule()).nextFetchMillis());
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
