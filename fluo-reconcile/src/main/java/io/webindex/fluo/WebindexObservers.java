package io.webindex.fluo;

import io.webindex.core.frontier.FrontierInputs;
import io.webindex.core.index.IndexCells;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.url.Domains;
import io.webindex.seed.IndexExport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluo.api.client.TransactionBase;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.api.data.RowColumn;
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
 *        └─ URI state old→new: cell changes,                        │
 *           f:&lt;uri&gt; fr:in urc, next fetch: frontier changes ────────┤
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
          if (!export.isEmpty()) {
            exports.add(tx, first, export.build());
          }
        });

    exports.registerObserver(registry, new QueryTableExporter(app));
  }

  /**
   * URIs changed ({@link UriQueue.Change}): export their cells, count them in or out of their
   * domains, and where a URI's urc or its history's next fetch changed, write its new frontier
   * inputs ({@link FrontierState}) and export the change of its frontier entry. The inputs of every
   * such URI are read in one batch, in the transaction that writes them (the only writer of a URI's
   * inputs); the changes of all the URIs go out as one export.
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
      List<RowColumn> frontierCells = new ArrayList<>();
      for (UriQueue.Change c : changes) {
        if (frontierChanged(c)) {
          frontierCells.add(FrontierState.cell(c.key()));
        }
        if (c.before().seen() != c.after().seen()) {
          domainDeltas.merge(Domains.ofKey(c.key()), c.after().seen() ? 1L : -1L, Long::sum);
        }
      }
      Map<RowColumn, String> inputs = frontierCells.isEmpty() ? Map.of() : tx.gets(frontierCells);
      IndexExport.Builder export = new IndexExport.Builder();
      for (UriQueue.Change c : changes) {
        List<CellChange> frontier = List.of();
        if (frontierChanged(c)) {
          FrontierInputs held = FrontierState.decode(inputs.get(FrontierState.cell(c.key())));
          FrontierInputs next = held;
          if (c.before().urc() != c.after().urc()) {
            next = next.withUrc(c.after().urc());
          }
          if (c.nextFetchMillis() != null) {
            next = next.withNextFetch(c.nextFetchMillis());
          }
          frontier = FrontierState.update(tx, c.key(), held, next);
        }
        export.add(IndexCells.uriChanges(c.key(), c.before(), c.after()), List.of(), frontier);
      }
      if (!export.isEmpty()) {
        exports.add(tx, changes.get(0).key(), export.build());
      }
      domainDeltas.values().removeIf(v -> v == 0);
      if (!domainDeltas.isEmpty()) {
        domains.addAll(tx, domainDeltas);
      }
    }

    private static boolean frontierChanged(UriQueue.Change c) {
      return c.before().urc() != c.after().urc() || c.nextFetchMillis() != null;
    }
  }
}
