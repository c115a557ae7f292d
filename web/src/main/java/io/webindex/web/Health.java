package io.webindex.web;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.RunRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.accumulo.core.client.Connector;

/**
 * The answer of {@code /api/v1/health}: Accumulo reachable, the served table and its pointer, the
 * Fluo application and its lag, and health at a glance ({@link Overview}); status 200 when the
 * index can be answered from, else 503.
 */
final class Health {
  private final Connector conn;
  private final WebindexConfig cfg;
  private final ServedTable served;
  private final OverviewCache overview;
  private final FluoProbe fluo;
  private final boolean detail;

  /** The status and the document. */
  record Answer(int status, Map<String, Object> body) {}

  /**
   * @param fluo the Fluo probe (null: the Fluo lag is not reported)
   * @param detail the whole answer (for authenticated users); without, the minimal one ({@link
   *     #minimal}): up or down, the served run, the lag
   */
  Health(
      Connector conn,
      WebindexConfig cfg,
      ServedTable served,
      OverviewCache overview,
      FluoProbe fluo,
      boolean detail) {
    this.detail = detail;
    this.conn = conn;
    this.cfg = cfg;
    this.served = served;
    this.overview = overview;
    this.fluo = fluo;
  }

  Answer answer() {
    Map<String, Object> m = new LinkedHashMap<>();
    boolean ok = accumulo(m);
    Map<String, Object> table = new LinkedHashMap<>();
    Overview o = null;
    if (ok) {
      o = servedAndFluo(m, table);
      ok = Boolean.TRUE.equals(table.get("exists"));
    }
    m.put("served", table);
    m.put("status", ok ? "ok" : "unavailable");
    m.put("overview", o == null ? null : o.toJson());
    return new Answer(ok ? 200 : 503, detail ? m : minimal(m, ok));
  }

  /**
   * The health anyone may see: {@code status} ({@code ok} or {@code unavailable}), the served
   * {@code run} (null when none), and the Fluo {@code lag} (the applied and newest batch, batches
   * and seconds behind; null without a probe) — no instance, table, host or failure text.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> minimal(Map<String, Object> full, boolean ok) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", ok ? "ok" : "unavailable");
    Object pointer = ((Map<String, Object>) full.get("served")).get("pointer");
    m.put("run", pointer instanceof Map<?, ?> p ? p.get("run") : null);
    Object fluo = full.get("fluo");
    Map<String, Object> lag = null;
    if (fluo instanceof Map<?, ?> f) {
      lag = new LinkedHashMap<>();
      for (String k : new String[] {"applied", "newest", "batchesBehind", "secondsBehind"}) {
        lag.put(k, f.get(k));
      }
    }
    m.put("lag", lag);
    return m;
  }

  /** Puts {@code accumulo} into {@code m}; whether Accumulo answered. */
  private boolean accumulo(Map<String, Object> m) {
    boolean ok = true;
    Map<String, Object> acc = new LinkedHashMap<>();
    acc.put("instance", cfg.accumuloInstance());
    long t0 = System.nanoTime();
    try {
      conn.tableOperations().exists(cfg.metaTable());
      acc.put("reachable", true);
    } catch (RuntimeException e) {
      acc.put("reachable", false);
      acc.put("error", e.getMessage());
      ok = false;
    }
    acc.put("millis", (System.nanoTime() - t0) / 1_000_000);
    m.put("accumulo", acc);
    return ok;
  }

  /**
   * Fills {@code table} with the served table and its pointer, puts {@code fluoApp} and {@code
   * fluo} into {@code m}; the overview, or null when it cannot be gathered.
   */
  private Overview servedAndFluo(Map<String, Object> m, Map<String, Object> table) {
    Optional<RunRegistry.Served> s = served.served();
    String name = served.tableName();
    table.put("table", name);
    table.put("pointer", s.map(Overview::servedJson).orElse(null));
    table.put("exists", name != null);
    String app = s.map(RunRegistry.Served::fluoApp).filter(a -> !a.isEmpty()).orElse(cfg.fluoApp());
    m.put("fluoApp", app);
    Overview o = overview.getOrNull();
    if (fluo != null) {
      m.put("fluo", Overview.lagJson(lag(o, app)));
    }
    return o;
  }

  /** The overview's lag unless a fixed table (--table) hides the pointer: then the probe's. */
  private FluoProbe.Lag lag(Overview o, String app) {
    return o != null && o.fluo() != null && o.fluo().app().equals(app) ? o.fluo() : fluo.lag(app);
  }
}
