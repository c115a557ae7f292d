package io.webindex.store;

import io.webindex.store.QueryService.DomainAnswer;
import io.webindex.store.QueryService.InlinksAnswer;
import io.webindex.store.QueryService.TopAnswer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The three answers and run records as JSON objects (field order fixed), shared by the command
 * line's {@code --json} and the web application's {@code /api/v1}, so that a script sees the same
 * document from either.
 */
public final class QueryAnswers {
  private QueryAnswers() {}

  /**
   * A run record: {@code {"id", "status", "snapshot", "table", "started", "finished", "seconds",
   * "counters", "message"}} (times ISO-8601, {@code null} while unknown).
   */
  public static Map<String, Object> run(RunRecord r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.runId());
    m.put("status", r.status().name());
    m.put("snapshot", r.snapshot());
    m.put("table", r.table());
    m.put("started", r.started().toString());
    m.put("finished", r.finished() == null ? null : r.finished().toString());
    m.put(
        "seconds",
        r.finished() == null
            ? null
            : Duration.between(r.started(), r.finished()).toMillis() / 1000.0);
    m.put("counters", new TreeMap<>(r.counters()));
    m.put("message", r.message() == null || r.message().isEmpty() ? null : r.message());
    // the version of webindex that recomputed it (null: recorded before versions were)
    m.put("version", r.version().isEmpty() ? null : r.version());
    return m;
  }

  /** {@code {"table", "uris": [{"uri", "url", "urc"}…], "next"}}. */
  public static Map<String, Object> top(String table, TopAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", table);
    m.put("uris", a.uris());
    m.put("next", a.next());
    return m;
  }

  /** {@code {"table", "domain", "pagecount", "uris", "next"}}. */
  public static Map<String, Object> domain(String table, DomainAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", table);
    m.put("domain", a.domain());
    m.put("pagecount", a.pageCount());
    m.put("uris", a.uris());
    m.put("next", a.next());
    return m;
  }

  /** {@code {"table", "uri", "url", "incount", "inlinks": [{"uri", "url", "anchor"}…], "next"}}. */
  public static Map<String, Object> inlinks(String table, InlinksAnswer a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", table);
    m.put("uri", a.uri());
    m.put("url", a.url());
    m.put("incount", a.incount());
    m.put("inlinks", a.inlinks());
    m.put("next", a.next());
    return m;
  }
}
