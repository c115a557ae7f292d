package io.webindex.seed;

import io.webindex.core.history.HistoryEntry;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.model.UriUpdate;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.schema.HistorySchema;
import java.util.List;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.fluo.recipes.core.combine.CombineQueue;

/**
 * The Fluo table's initial content as the batch recompute writes it (docs/tables.md): the same rows
 * and values the application itself maintains, so Fluo can start from a batch run. The {@code um:}/
 * {@code dm:} cells are laid out by the combine queues' own initializers with the configured bucket
 * count, which must equal the application's.
 */
public final class FluoSeed {
  /** The column of a page's current version in the Fluo table. */
  public static final Column PAGE_CUR = new Column(FluoSchema.FAM_PAGE, FluoSchema.QUAL_CUR);

  /** The column of a URI's full crawl history in the Fluo table. */
  public static final Column HIST_ALL = new Column(FluoSchema.FAM_HIST, FluoSchema.QUAL_ALL);

  /** The column of the loader's resume point. */
  public static final Column APPLIED = new Column(FluoSchema.FAM_LOADER, FluoSchema.QUAL_APPLIED);

  private final CombineQueue.Initializer<String, UriUpdate> uris;
  private final CombineQueue.Initializer<String, Long> domains;

  public FluoSeed(int buckets) {
    WebindexSerializer serializer = new WebindexSerializer();
    this.uris = CombineQueue.getInitializer(FluoSchema.URI_MAP_ID, buckets, serializer);
    this.domains = CombineQueue.getInitializer(FluoSchema.DOMAIN_MAP_ID, buckets, serializer);
  }

  /** The current version of a page (a deletion too: it keeps older versions out). */
  public RowColumnValue page(Page current) {
    return new RowColumnValue(
        FluoSchema.pageRow(current.key()), PAGE_CUR, PageJson.toStoredJson(current));
  }

  /** A URI's full crawl history ({@link HistorySchema#encodeFullHistory}), oldest crawl first. */
  public RowColumnValue history(String uriKey, List<HistoryEntry> fullHistory) {
    return new RowColumnValue(
        FluoSchema.histRow(uriKey), HIST_ALL, HistorySchema.encodeFullHistory(fullHistory));
  }

  /**
   * A URI's sum in the {@code um:} queue ({@link FluoSchema#encodeUriSum}): its state and its crawl
   * history's next fetch (null when it has no history) — what its frontier entry is derived from
   * too. Only for a URI that is seen or has a history ({@code state} or {@code nextFetchMillis} not
   * empty).
   */
  public RowColumnValue uri(String uriKey, UriState state, Long nextFetchMillis) {
    UriUpdate sum =
        new UriUpdate(new UriState.Delta(state.urc(), state.crawled()), nextFetchMillis);
    if (sum.isEmpty()) {
      throw new IllegalArgumentException("nothing to seed for " + uriKey);
    }
    return uris.convert(uriKey, sum);
  }

  public RowColumnValue domain(String domain, long seenUris) {
    return domains.convert(domain, seenUris);
  }

  /** The loader's resume point: a run's snapshot is applied already. */
  public static RowColumnValue resumePoint(long appliedBatch) {
    return new RowColumnValue(FluoSchema.META_LOADER_ROW, APPLIED, Long.toString(appliedBatch));
  }
}
