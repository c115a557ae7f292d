package io.webindex.fluo;

import io.webindex.core.frontier.FrontierInputs;
import io.webindex.core.index.IndexCells;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.url.Domains;
import io.webindex.seed.IndexExport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * PageLoader (p:&lt;uri&gt; page:cur, latest crawl wins; h:&lt;uri&gt; hist:all, every crawl;
 *   │         f:&lt;uri&gt; fr:in next fetch)
 *   ├─ page cell changes, history-table and frontier changes ───────┐
 *   └─ URI deltas (urc ±1, crawled ±1) → um: combine queue          │
 *        └─ URI state old→new: cell changes,                        │
 *           f:&lt;uri&gt; fr:in urc: frontier changes ────────────────────┤
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
    CombineQueue<String, UriState.Delta> uris =
        CombineQueue.getInstance(FluoSchema.URI_MAP_ID, app);
    CombineQueue<String, Long> domains = CombineQueue.getInstance(FluoSchema.DOMAIN_MAP_ID, app);
    ExportQueue<String, IndexExport> exports =
        ExportQueue.getInstance(FluoSchema.EXPORT_QUEUE_ID, app);

    uris.registerObserver(
        registry,
        input -> sum(input.stream().reduce(UriState.Delta.ZERO, UriState.Delta::plus)),
        new UriChanges(domains, exports));

    domains.registerObserver(
        registry,
        input -> {
          long total = input.stream().mapToLong(Long::longValue).sum();
          return total == 0 ? Optional.empty() : Optional.of(total);
        },
        (tx, changes) -> {
          for (ChangeObserver.Change<String, Long> c : changes) {
            long before = c.getOldValue().orElse(0L);
            long after = c.getNewValue().orElse(0L);
            export(exports, tx, c.getKey(), IndexCells.domainChanges(c.getKey(), before, after));
          }
        });

    exports.registerObserver(registry, new QueryTableExporter(app));
  }

  /** A sum of deltas; an entry that sums to nothing is removed (the URI is no longer known). */
  static Optional<UriState.Delta> sum(UriState.Delta d) {
    return d.isZero() ? Optional.empty() : Optional.of(d);
  }

  static void export(
      ExportQueue<String, IndexExport> exports,
      TransactionBase tx,
      String key,
      List<CellChange> changes) {
    if (!changes.isEmpty()) {
      exports.add(tx, key, new IndexExport(changes));
    }
  }

  /**
   * A URI's state changed: export its cells, count it in or out of its domain, and when its urc
   * changed, put the new urc into its frontier inputs ({@link FrontierState}) and export the change
   * of its frontier entry. The inputs of every such URI are read in one batch, in the transaction
   * that writes them.
   */
  static final class UriChanges implements ChangeObserver<String, UriState.Delta> {
    private final CombineQueue<String, Long> domains;
    private final ExportQueue<String, IndexExport> exports;

    UriChanges(CombineQueue<String, Long> domains, ExportQueue<String, IndexExport> exports) {
      this.domains = domains;
      this.exports = exports;
    }

    @Override
    public void process(TransactionBase tx, Iterable<Change<String, UriState.Delta>> changes) {
      Map<String, Long> domainDeltas = new HashMap<>();
      Map<String, UriState[]> states = new LinkedHashMap<>();
      List<RowColumn> urcChanged = new ArrayList<>();
      for (Change<String, UriState.Delta> c : changes) {
        UriState before = UriState.NONE.apply(c.getOldValue().orElse(UriState.Delta.ZERO));
        UriState after = UriState.NONE.apply(c.getNewValue().orElse(UriState.Delta.ZERO));
        states.put(c.getKey(), new UriState[] {before, after});
        if (before.urc() != after.urc()) {
          urcChanged.add(FrontierState.cell(c.getKey()));
        }
        if (before.seen() != after.seen()) {
          domainDeltas.merge(Domains.ofKey(c.getKey()), after.seen() ? 1L : -1L, Long::sum);
        }
      }
      Map<RowColumn, String> inputs = urcChanged.isEmpty() ? Map.of() : tx.gets(urcChanged);
      for (Map.Entry<String, UriState[]> e : states.entrySet()) {
        String key = e.getKey();
        UriState before = e.getValue()[0];
        UriState after = e.getValue()[1];
        List<CellChange> frontier = List.of();
        if (before.urc() != after.urc()) {
          FrontierInputs held = FrontierState.decode(inputs.get(FrontierState.cell(key)));
          frontier = FrontierState.update(tx, key, held, held.withUrc(after.urc()));
        }
        IndexExport export =
            new IndexExport(IndexCells.uriChanges(key, before, after), List.of(), frontier);
        if (!export.isEmpty()) {
          exports.add(tx, key, export);
        }
      }
      domainDeltas.values().removeIf(v -> v == 0);
      if (!domainDeltas.isEmpty()) {
        domains.addAll(tx, domainDeltas);
      }
    }
  }
}
