package io.webindex.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.io.Text;

/**
 * Run records in the metadata table ({@code <prefix>_meta}): row {@code run:<id>}, family {@code
 * run}, one qualifier per field. Readable with a plain scan in the Accumulo shell.
 */
public final class RunRegistry {
  private static final String RUN_PREFIX = "run:";
  private static final String SERVED_ROW = "served";
  private static final String SERVED_FAM = "served";
  private static final String FAM = "run";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Connector conn;
  private final String table;

  public RunRegistry(Connector conn, String metaTable) {
    this.conn = conn;
    this.table = metaTable;
  }

  /** Creates the metadata table when it does not exist yet. */
  public RunRegistry ensureTable() {
    try {
      if (!conn.tableOperations().exists(table)) {
        conn.tableOperations().create(table);
      }
    } catch (TableExistsException e) {
      // created concurrently: fine
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new StoreException("cannot create metadata table " + table + ": " + e.getMessage(), e);
    }
    return this;
  }

  public void put(RunRecord r) {
    Mutation m = new Mutation(RUN_PREFIX + r.runId());
    m.put(FAM, "status", r.status().name());
    m.put(FAM, "snapshot", Long.toString(r.snapshot()));
    m.put(FAM, "table", r.table());
    m.put(FAM, "started", r.started().toString());
    if (r.finished() != null) {
      m.put(FAM, "finished", r.finished().toString());
    } else {
      m.putDelete(FAM, "finished");
    }
    m.put(FAM, "inputs", String.join("\n", r.inputs()));
    m.put(FAM, "counters", json(new TreeMap<>(r.counters())));
    m.put(FAM, "seed", r.seedDir());
    m.put(FAM, "workdir", r.workDir());
    m.put(FAM, "message", r.message() == null ? "" : r.message());
    try {
      BatchWriter bw = conn.createBatchWriter(table, new BatchWriterConfig());
      try {
        bw.addMutation(m);
      } finally {
        bw.close();
      }
    } catch (TableNotFoundException | MutationsRejectedException e) {
      throw new StoreException(
          "cannot write run record " + r.runId() + " to " + table + ": " + e.getMessage(), e);
    }
  }

  public Optional<RunRecord> get(String runId) {
    return scan(Range.exact(RUN_PREFIX + runId)).stream().findFirst();
  }

  /** All runs, oldest first (run ids sort by time). */
  public List<RunRecord> list() {
    return scan(Range.prefix(RUN_PREFIX));
  }

  /**
   * The table users and the query commands see, the run it came from, the table served before it,
   * since when, and the Fluo application that maintains it (empty: the configured one).
   */
  public record Served(
      String table, String runId, String previousTable, Instant since, String fluoApp) {}

  /** The served table, if one was ever chosen. */
  public Optional<Served> served() {
    try {
      if (!conn.tableOperations().exists(table)) {
        return Optional.empty();
      }
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      s.setRange(Range.exact(SERVED_ROW));
      Map<String, String> f = new HashMap<>();
      for (Map.Entry<Key, Value> e : s) {
        f.put(e.getKey().getColumnQualifier().toString(), e.getValue().toString());
      }
      if (!f.containsKey("table")) {
        return Optional.empty();
      }
      return Optional.of(
          new Served(
              f.get("table"),
              f.getOrDefault("run", ""),
              f.getOrDefault("previous", ""),
              Instant.parse(f.getOrDefault("since", Instant.EPOCH.toString())),
              f.getOrDefault("fluoApp", "")));
    } catch (TableNotFoundException e) {
      return Optional.empty();
    }
  }

  /**
   * Makes the run's table the served one. One mutation of one row: readers see the old or the new
   * served table, never a mix. The table served before is kept and recorded as {@code previous}.
   */
  public Served serve(RunRecord run) {
    return serve(run, "");
  }

  /** As {@link #serve(RunRecord)}, recording the Fluo application that now maintains the table. */
  public Served serve(RunRecord run, String fluoApp) {
    if (run.status() != RunRecord.Status.SUCCEEDED) {
      throw new StoreException("run " + run.runId() + " did not succeed: it cannot be served");
    }
    String previous = served().map(Served::table).orElse("");
    if (previous.equals(run.table())) {
      previous = served().map(Served::previousTable).orElse("");
    }
    Served now = new Served(run.table(), run.runId(), previous, Instant.now(), fluoApp);
    Mutation m = new Mutation(SERVED_ROW);
    m.put(SERVED_FAM, "table", now.table());
    m.put(SERVED_FAM, "run", now.runId());
    m.put(SERVED_FAM, "previous", now.previousTable());
    m.put(SERVED_FAM, "since", now.since().toString());
    m.put(SERVED_FAM, "fluoApp", fluoApp);
    write(m);
    return now;
  }

  /**
   * Drops the query tables of all but the newest {@code keep} successful runs; never the served
   * table nor the one served before it. Returns the dropped tables.
   */
  public List<String> applyRetention(int keep) {
    Optional<Served> served = served();
    Set<String> protectedTables = new HashSet<>();
    served.ifPresent(
        s -> {
          protectedTables.add(s.table());
          protectedTables.add(s.previousTable());
        });
    List<RunRecord> ok =
        new ArrayList<>(
            list().stream().filter(r -> r.status() == RunRecord.Status.SUCCEEDED).toList());
    ok.sort(Comparator.comparing(RunRecord::runId).reversed());
    List<String> dropped = new ArrayList<>();
    for (int i = keep; i < ok.size(); i++) {
      String t = ok.get(i).table();
      if (!protectedTables.contains(t) && conn.tableOperations().exists(t)) {
        BulkImport.dropIfExists(conn, t);
        dropped.add(t);
      }
    }
    return dropped;
  }

  private void write(Mutation m) {
    try {
      BatchWriter bw = conn.createBatchWriter(table, new BatchWriterConfig());
      try {
        bw.addMutation(m);
      } finally {
        bw.close();
      }
    } catch (TableNotFoundException | MutationsRejectedException e) {
      throw new StoreException("cannot write to " + table + ": " + e.getMessage(), e);
    }
  }

  /** The newest run that succeeded. */
  public Optional<RunRecord> latestSucceeded() {
    return list().stream()
        .filter(r -> r.status() == RunRecord.Status.SUCCEEDED)
        .max(Comparator.comparing(RunRecord::runId));
  }

  private List<RunRecord> scan(Range range) {
    Map<String, Map<String, String>> rows = new TreeMap<>();
    try {
      if (!conn.tableOperations().exists(table)) {
        return List.of();
      }
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      s.setRange(range);
      s.fetchColumnFamily(new Text(FAM));
      for (Map.Entry<Key, Value> e : s) {
        rows.computeIfAbsent(e.getKey().getRow().toString(), k -> new HashMap<>())
            .put(e.getKey().getColumnQualifier().toString(), e.getValue().toString());
      }
    } catch (TableNotFoundException e) {
      return List.of();
    }
    List<RunRecord> out = new ArrayList<>();
    rows.forEach((row, f) -> out.add(parse(row.substring(RUN_PREFIX.length()), f)));
    return out;
  }

  private static RunRecord parse(String id, Map<String, String> f) {
    String inputs = f.getOrDefault("inputs", "");
    return new RunRecord(
        id,
        RunRecord.Status.valueOf(f.getOrDefault("status", "FAILED")),
        Long.parseLong(f.getOrDefault("snapshot", "-1")),
        f.getOrDefault("table", ""),
        Instant.parse(f.getOrDefault("started", Instant.EPOCH.toString())),
        f.containsKey("finished") ? Instant.parse(f.get("finished")) : null,
        inputs.isEmpty() ? List.of() : List.of(inputs.split("\n")),
        counters(f.getOrDefault("counters", "{}")),
        f.getOrDefault("seed", ""),
        f.getOrDefault("workdir", ""),
        f.getOrDefault("message", ""));
  }

  private static String json(Map<String, Long> m) {
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Long> counters(String s) {
    try {
      return JSON.readValue(s, new TypeReference<Map<String, Long>>() {});
    } catch (JsonProcessingException e) {
      return Map.of();
    }
  }
}
