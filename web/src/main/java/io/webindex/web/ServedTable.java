package io.webindex.web;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.FrontierOpsSchema;
import io.webindex.store.FrontierQuery;
import io.webindex.store.QueryService;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.accumulo.core.client.Connector;

/**
 * The table the web application answers from: a fixed one, or the served table of the run registry,
 * re-read when the last read is older than the cache time — so a {@code reconcile} that switches
 * the served table is picked up without a restart. Only reads.
 */
final class ServedTable {
  private final Connector conn;
  private final RunRegistry registry;
  private final String fixed;
  private final WebindexConfig cfg;
  private final long cacheMillis;
  private final LongSupplier clock;
  private final AtomicReference<Entry> current = new AtomicReference<>();
  private final FrontierAnswers frontier;

  /** What the last read found: the table and its query service (null: nothing served). */
  private record Entry(long readAt, Optional<RunRegistry.Served> served, QueryService service) {}

  ServedTable(
      Connector conn, WebindexConfig cfg, String fixed, long cacheMillis, LongSupplier clock) {
    this.conn = conn;
    this.cfg = cfg;
    this.registry = new RunRegistry(conn, cfg.metaTable());
    this.fixed = fixed;
    this.cacheMillis = cacheMillis;
    this.clock = clock;
    // wall-clock time: the window is an instant the answer reports (the clock above may be
    // monotonic)
    this.frontier = new FrontierAnswers(System::currentTimeMillis);
  }

  /**
   * The frontier's next URLs of {@code q}'s table ({@link FrontierAnswers}: at most one scan per
   * question and window); {@code atMillis} null: now.
   */
  FrontierQuery.FrontierAnswer frontier(QueryService q, Long atMillis, int limit, int perHost) {
    return frontier.answer(
        q, FrontierOpsSchema.opsTable(cfg.tablePrefix()), atMillis, limit, perHost);
  }

  /** The served pointer as last read (empty with a fixed table or when nothing is served). */
  Optional<RunRegistry.Served> served() {
    return entry().served();
  }

  /**
   * The query layer over the table to answer from.
   *
   * @throws NotServed when no table is served yet, or the served table does not exist
   */
  QueryService service() {
    Entry e = entry();
    if (e.service() == null) {
      throw new NotServed(
          fixed != null
              ? "no table '" + fixed + "' in Accumulo"
              : e.served().isEmpty()
                  ? "no served table yet (bin/webindex fluo-init or reconcile choose one)"
                  : "the served table '" + e.served().get().table() + "' does not exist");
    }
    return e.service();
  }

  /** The name of the table answered from, or null when there is none. */
  String tableName() {
    Entry e = entry();
    return e.service() == null ? null : e.service().table();
  }

  private Entry entry() {
    long now = clock.getAsLong();
    Entry e = current.get();
    if (e != null && now - e.readAt() < cacheMillis) {
      return e;
    }
    Optional<RunRegistry.Served> served =
        fixed != null ? Optional.empty() : ServedState.read(registry, cfg).served();
    String table = fixed != null ? fixed : served.map(RunRegistry.Served::table).orElse(null);
    QueryService service = null;
    if (table != null) {
      if (e != null && e.service() != null && e.service().table().equals(table)) {
        service = e.service();
      } else {
        try {
          service = new QueryService(conn, table);
        } catch (StoreException missing) {
          service = null;
        }
      }
    }
    Entry fresh = new Entry(now, served, service);
    current.set(fresh);
    return fresh;
  }

  /** No table to answer from: HTTP 503. */
  static final class NotServed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotServed(String message) {
      super(message);
    }
  }
}
