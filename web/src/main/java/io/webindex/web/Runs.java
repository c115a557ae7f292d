package io.webindex.web;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.QueryAnswers;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.accumulo.core.client.Connector;

/**
 * The run registry as {@code /api/v1/runs} and the runs page show it: the served pointer and every
 * run, newest first, each marked served or not. Read afresh on every request.
 */
final class Runs {
  private final Connector conn;
  private final WebindexConfig cfg;
  private final boolean detail;

  /**
   * @param detail whether a run's {@code message} is shown: it names the process and host of a
   *     RUNNING run and the exception of a FAILED one (operational detail, null without it)
   */
  Runs(Connector conn, WebindexConfig cfg, boolean detail) {
    this.conn = conn;
    this.cfg = cfg;
    this.detail = detail;
  }

  /** {@code {"served": pointer or null, "runs": [...]}}. */
  Map<String, Object> model() {
    RunRegistry registry = new RunRegistry(conn, cfg.metaTable());
    Optional<RunRegistry.Served> s = ServedState.read(registry, cfg).served();
    List<RunRecord> all = new ArrayList<>(registry.list());
    all.sort(Comparator.comparing(RunRecord::started).thenComparing(RunRecord::runId).reversed());
    List<Map<String, Object>> runs = new ArrayList<>();
    for (RunRecord r : all) {
      runs.add(run(r, s.isPresent() && s.get().table().equals(r.table())));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("served", s.map(Overview::servedJson).orElse(null));
    out.put("runs", runs);
    return out;
  }

  /** The run's JSON with {@code served} after {@code seconds}. */
  private Map<String, Object> run(RunRecord r, boolean served) {
    Map<String, Object> m = new LinkedHashMap<>();
    QueryAnswers.run(r)
        .forEach(
            (k, v) -> {
              m.put(k, k.equals("message") && !detail ? null : v);
              if (k.equals("seconds")) {
                m.put("served", served);
              }
            });
    return m;
  }
}
