package io.webindex.fluo;

import io.webindex.core.frontier.FrontierInputs;
import io.webindex.core.index.IndexCells;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.url.Domains;
import io.webindex.seed.IndexExport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluo.api.client.TransactionBase;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.api.observer.ObserverProvider;
import org.apache.fluo.recipes.core.combine.ChangeObserver;
import org.apache.fluo.recipes.core.combine.CombineQueue;
import org.apache.fluo.recipes.core.export.ExportQueue;

/**
 * Every observer of the webindex Fluo application, wired in one place.
 *
 * <pre>
 * PageLoader (p:&lt;uri&gt; page:cur, latest crawl wins; h:&lt;uri&gt; hist:all, every crawl)
 *   ├─ page cell changes, history-table changes ────────────────────┐
 *   └─ URI updates (urc ±1, crawled ±1, next fetch) → um: (UriQueue) │
 *        └─ URI sum old→new: cell changes, frontier changes ────────┤
 *           └─ seen flipped: ±1 → dm: combine queue                 │
 *                └─ domain count old→new: cell changes ─────────────┤
 *                                                       eq: export queue → QueryTableExporter
 *                                                       (query table, timestamp = export seq;
 *                                                        history table, crawl: at crawl ms,
 *                                                        sched: at export seq;
 *                                                        frontier table, at export seq)
 * </pre>
 */
public final class WebindexObservers implements ObserverProvider {
  @Override
  public void provide(Registry registry, Context ctx) {
    SimpleConfiguration app = ctx.getAppConfiguration();
    UriQueue uris = UriQueue.of(app);
    CombineQueue<String, Long> domains = CombineQueue.getInstance(FluoSchema.DOMAIN_MAP_ID, app);
    ExportQueue<String, IndexExport> exports =
        ExportQueue.getInstance(FluoSchema.EXPORT_QUEUE_ID, app);

    uris.registerObserver(registry, new UriChanges(domains, exports));

    domains.registerObserver(
        registry,
        input -> {
          long total = input.stream().mapToLong(Long::longValue).sum();
          return total == 0 ? Optional.empty() : Optional.of(total);
        },
        (tx, changes) -> {
          IndexExport.Builder export = new IndexExport.Builder();
          String first = null;
          for (ChangeObserver.Change<String, Long> c : changes) {
            long before = c.getOldValue().orElse(0L);
            long after = c.getNewValue().orElse(0L);
            export.add(IndexCells.domainChanges(c.getKey(), before, after), List.of(), List.of());
            first = first == null ? c.getKey() : first;
          }
          export(exports, tx, first, export.build());
        });

    exports.registerObserver(registry, new QueryTableExporter(app));
  }

  /** Adds a transaction's export (under {@code key}, which picks its bucket) unless it is empty. */
  static void export(
      ExportQueue<String, IndexExport> exports, TransactionBase tx, String key, IndexExport e) {
    if (!e.isEmpty()) {
      exports.add(tx, key, e);
    }
  }

  /**
   * URIs changed ({@link UriQueue.Change}): export their cells, count them in or out of their
   * domains, and export the change of their frontier entries, derived from their sums before and
   * after (urc and next fetch). The changes of all the URIs go out as one export.
   */
  static final class UriChanges implements UriQueue.Observer {
    private final CombineQueue<String, Long> domains;
    private final ExportQueue<String, IndexExport> exports;

    UriChanges(CombineQueue<String, Long> domains, ExportQueue<String, IndexExport> exports) {
      this.domains = domains;
      this.exports = exports;
    }

    @Override
    public void process(TransactionBase tx, List<UriQueue.Change> changes) {
      Map<String, Long> domainDeltas = new HashMap<>();
      IndexExport.Builder export = new IndexExport.Builder();
      for (UriQueue.Change c : changes) {
        UriState before = c.stateBefore();
        UriState after = c.stateAfter();
        if (before.seen() != after.seen()) {
          domainDeltas.merge(Domains.ofKey(c.key()), after.seen() ? 1L : -1L, Long::sum);
        }
        export.add(
            IndexCells.uriChanges(c.key(), before, after),
            List.of(),
            FrontierState.changes(
                c.key(),
                new FrontierInputs(before.urc(), c.before().nextFetchMillis()),
                new FrontierInputs(after.urc(), c.after().nextFetchMillis())));
      }
      export(exports, tx, changes.get(0).key(), export.build());
      domainDeltas.values().removeIf(v -> v == 0);
      if (!domainDeltas.isEmpty()) {
        domains.addAll(tx, domainDeltas);
      }
    }
  }
}
