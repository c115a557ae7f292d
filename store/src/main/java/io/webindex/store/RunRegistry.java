package io.webindex.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
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
import org.apache.accumulo.core.client.ConditionalWriter;
import org.apache.accumulo.core.client.ConditionalWriterConfig;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Condition;
import org.apache.accumulo.core.data.ConditionalMutation;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.io.Text;

/**
 * The metadata table ({@code <prefix>_meta}), readable with a plain scan in the Accumulo shell: run
 * records (row {@code run:<id>}, family {@code run}, one qualifier per field), the served pointer
 * (row {@code served}), the Fluo applications started from runs (row {@code app:<name>}) and each
 * query table's export epoch (row {@code table:<name>}). Every update that several processes may
 * race on (the served pointer, epochs) is a compare-and-set (Accumulo conditional mutation).
 */
public final class RunRegistry {
  private static final String RUN_PREFIX = "run:";
  private static final String SERVED_ROW = "served";
  private static final String SERVED_FAM = "served";
  private static final String FAM = "run";
  private static final String APP_PREFIX = "app:";
  private static final String APP_FAM = "app";
  private static final String TABLE_PREFIX = "table:";
  private static final String CUTOVER_ROW = "cutover";
  private static final String CUTOVER_FAM = "cutover";
  private static final String EXPORT_FAM = "export";
  private static final String EPOCH = "epoch";
  private static final String VERSION = "version";
  private static final int CAS_ATTEMPTS = 20;
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
      BulkImport.createIfMissing(conn, table, Map.of());
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
    m.put(FAM, "buckets", Integer.toString(r.fluoBuckets()));
    m.put(FAM, "version", r.version());
    write(m);
  }

  public Optional<RunRecord> get(String runId) {
    return scan(Range.exact(RUN_PREFIX + runId)).stream().findFirst();
  }

  /** All runs, oldest first: by start time, then id (ids need not sort by time). */
  public List<RunRecord> list() {
    List<RunRecord> runs = new ArrayList<>(scan(Range.prefix(RUN_PREFIX)));
    runs.sort(BY_TIME);
    return runs;
  }

  private static final Comparator<RunRecord> BY_TIME =
      Comparator.comparing(RunRecord::started).thenComparing(RunRecord::runId);

  /**
   * The table users and the query commands see, the run it came from, the table served before it,
   * since when, and the Fluo application that maintains it (empty: the configured one).
   */
  public record Served(
      String table, String runId, String previousTable, Instant since, String fluoApp) {}

  /** The served table, if one was ever chosen. */
  public Optional<Served> served() {
    return servedRow().map(VersionedServed::served);
  }

  /**
   * The served pointer as a cut-over sees it when it begins: what is served and the pointer's
   * version, which {@link #serveIfUnchanged} compares at the switch.
   */
  public record ServedVersion(Optional<Served> served, String version) {}

  /** The served pointer and its version (null version: never set). */
  public ServedVersion servedVersion() {
    Optional<VersionedServed> v = servedRow();
    return new ServedVersion(
        v.map(VersionedServed::served), v.map(VersionedServed::version).orElse(null));
  }

  private record VersionedServed(Served served, String version) {}

  private Optional<VersionedServed> servedRow() {
    Map<String, String> f = row(SERVED_ROW);
    if (!f.containsKey("table")) {
      return Optional.empty();
    }
    return Optional.of(
        new VersionedServed(
            new Served(
                f.get("table"),
                f.getOrDefault("run", ""),
                f.getOrDefault("previous", ""),
                Instant.parse(f.getOrDefault("since", Instant.EPOCH.toString())),
                f.getOrDefault("fluoApp", "")),
            f.get(VERSION)));
  }

  /** Every column of one row, by qualifier (empty when the row or the table does not exist). */
  private Map<String, String> row(String row) {
    Map<String, String> f = new HashMap<>();
    try {
      if (!conn.tableOperations().exists(table)) {
        return f;
      }
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      try {
        s.setRange(Range.exact(row));
        for (Map.Entry<Key, Value> e : s) {
          f.put(e.getKey().getColumnQualifier().toString(), e.getValue().toString());
        }
      } finally {
        s.close();
      }
    } catch (TableNotFoundException e) {
      return new HashMap<>();
    }
    return f;
  }

  /**
   * Makes the run's table the served one. One mutation of one row: readers see the old or the new
   * served table, never a mix. The table served before is kept and recorded as {@code previous}.
   */
  public Served serve(RunRecord run) {
    return serve(run, "");
  }

  /**
   * The switch of a cut-over: makes the run's table the served one, maintained by {@code fluoApp},
   * only if the served pointer still has {@code expected.version()} — the state the cut-over's
   * decision was taken on. When another process switched the pointer in between (a newer cut-over,
   * or a rollback), nothing is written and the result is empty: a stalled cut-over never switches
   * back over a newer decision.
   */
  public Optional<Served> serveIfUnchanged(RunRecord run, String fluoApp, ServedVersion expected) {
    if (run.status() != RunRecord.Status.SUCCEEDED) {
      throw new StoreException("run " + run.runId() + " did not succeed: it cannot be served");
    }
    String previous = expected.served().map(Served::table).orElse("");
    if (previous.equals(run.table())) {
      previous = expected.served().map(Served::previousTable).orElse("");
    }
    Served now = new Served(run.table(), run.runId(), previous, Instant.now(), fluoApp);
    return compareAndSet(servedMutation(now, expected.version()))
        ? Optional.of(now)
        : Optional.empty();
  }

  private static ConditionalMutation servedMutation(Served now, String version) {
    ConditionalMutation m = new ConditionalMutation(SERVED_ROW, condition(SERVED_FAM, version));
    m.put(SERVED_FAM, "table", now.table());
    m.put(SERVED_FAM, "run", now.runId());
    m.put(SERVED_FAM, "previous", now.previousTable());
    m.put(SERVED_FAM, "since", now.since().toString());
    m.put(SERVED_FAM, "fluoApp", now.fluoApp());
    m.put(SERVED_FAM, VERSION, Long.toString(version == null ? 1 : Long.parseLong(version) + 1));
    return m;
  }

  /**
   * The cut-over in progress: the Fluo application a {@code reconcile} or {@code fluo-init} is
   * bringing up (initialised from its run, catching up) until it is switched to. The Fluo services
   * that follow the served pointer serve it too, so that its catch-up runs on them, and the
   * retention keeps it. Once the switch names it, it is just the served application.
   */
  public record CutoverTarget(String app, String runId, String table, Instant since) {}

  /**
   * Records {@code target} as the cut-over in progress (the newest cut-over replaces any other).
   */
  public void setCutoverTarget(CutoverTarget target) {
    Mutation m = new Mutation(CUTOVER_ROW);
    m.put(CUTOVER_FAM, "app", target.app());
    m.put(CUTOVER_FAM, "run", target.runId());
    m.put(CUTOVER_FAM, "table", target.table());
    m.put(CUTOVER_FAM, "since", target.since().toString());
    write(m);
  }

  /**
   * Forgets the cut-over target if it still names {@code app} (after its switch or when it is
   * removed).
   */
  public void clearCutoverTarget(String app) {
    if (cutoverTarget().filter(t -> t.app().equals(app)).isEmpty()) {
      return;
    }
    Mutation m = new Mutation(CUTOVER_ROW);
    for (String q : List.of("app", "run", "table", "since")) {
      m.putDelete(CUTOVER_FAM, q);
    }
    write(m);
  }

  /** The cut-over in progress, if one is recorded. */
  public Optional<CutoverTarget> cutoverTarget() {
    Map<String, String> f = row(CUTOVER_ROW);
    if (!f.containsKey("app")) {
      return Optional.empty();
    }
    return Optional.of(
        new CutoverTarget(
            f.get("app"),
            f.getOrDefault("run", ""),
            f.getOrDefault("table", ""),
            Instant.parse(f.getOrDefault("since", Instant.EPOCH.toString()))));
  }

  /**
   * As {@link #serve(RunRecord)}, recording the Fluo application that now maintains the table. A
   * compare-and-set on the pointer's version: when another process switched it in between, the
   * switch is recomputed from what that process wrote, so no {@code previous} pointer is lost.
   */
  public Served serve(RunRecord run, String fluoApp) {
    if (run.status() != RunRecord.Status.SUCCEEDED) {
      throw new StoreException("run " + run.runId() + " did not succeed: it cannot be served");
    }
    for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      Optional<VersionedServed> cur = servedRow();
      String previous = cur.map(v -> v.served().table()).orElse("");
      if (previous.equals(run.table())) {
        previous = cur.map(v -> v.served().previousTable()).orElse("");
      }
      Served now = new Served(run.table(), run.runId(), previous, Instant.now(), fluoApp);
      String version = cur.map(VersionedServed::version).orElse(null);
      if (compareAndSet(servedMutation(now, version))) {
        return now;
      }
    }
    throw new StoreException(
        "the served pointer in " + table + " kept changing under this switch; try again");
  }

  /** Version condition: the column holds {@code expected}, or is absent when it is null. */
  private static Condition condition(String family, String expected) {
    Condition c = new Condition(family, VERSION);
    return expected == null ? c : c.setValue(expected);
  }

  private boolean compareAndSet(ConditionalMutation m) {
    ConditionalWriter cw;
    try {
      cw = conn.createConditionalWriter(table, new ConditionalWriterConfig());
    } catch (TableNotFoundException e) {
      throw new StoreException("no metadata table " + table, e);
    }
    try {
      ConditionalWriter.Status st = cw.write(m).getStatus();
      return switch (st) {
        case ACCEPTED -> true;
        case REJECTED -> false;
        default -> throw new StoreException("a conditional update of " + table + " was " + st);
      };
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new StoreException("cannot update " + table + ": " + e.getMessage(), e);
    } finally {
      cw.close();
    }
  }

  /**
   * The outcome of the last consistency check: its verdict ({@code CONSISTENT} or {@code
   * INCONSISTENT}), the run it compared with, the table it checked, the batch the live side had
   * applied, its differences and invariant violations, when it finished and where its report is.
   */
  public record LastCheck(
      String verdict,
      String runId,
      String table,
      long applied,
      long differences,
      long violations,
      Instant finished,
      String report) {}

  private static final String CHECK_ROW = "check:last";
  private static final String CHECK_FAM = "check";

  /** Records {@code c} as the last check (the health page and {@code status} show it). */
  public void recordCheck(LastCheck c) {
    Mutation m = new Mutation(CHECK_ROW);
    m.put(CHECK_FAM, "verdict", c.verdict());
    m.put(CHECK_FAM, "run", c.runId());
    m.put(CHECK_FAM, "table", c.table());
    m.put(CHECK_FAM, "applied", Long.toString(c.applied()));
    m.put(CHECK_FAM, "differences", Long.toString(c.differences()));
    m.put(CHECK_FAM, "violations", Long.toString(c.violations()));
    m.put(CHECK_FAM, "finished", c.finished().toString());
    m.put(CHECK_FAM, "report", c.report());
    write(m);
  }

  /** The last recorded check, if any. */
  public Optional<LastCheck> lastCheck() {
    Map<String, String> f = row(CHECK_ROW);
    if (!f.containsKey("verdict")) {
      return Optional.empty();
    }
    return Optional.of(
        new LastCheck(
            f.get("verdict"),
            f.getOrDefault("run", ""),
            f.getOrDefault("table", ""),
            Long.parseLong(f.getOrDefault("applied", "-1")),
            Long.parseLong(f.getOrDefault("differences", "0")),
            Long.parseLong(f.getOrDefault("violations", "0")),
            Instant.parse(f.getOrDefault("finished", Instant.EPOCH.toString())),
            f.getOrDefault("report", "")));
  }

  /**
   * The next export epoch of query table {@code queryTable}: every Fluo application that exports
   * into a table takes a new, higher epoch when it is initialised, and stamps its cells above every
   * earlier epoch's (docs/fluo.md). A compare-and-set, so two initialisations never share an epoch.
   */
  public long nextExportEpoch(String queryTable) {
    String row = TABLE_PREFIX + queryTable;
    for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      String cur = row(row).get(EPOCH);
      long next = cur == null ? 1 : Long.parseLong(cur) + 1;
      Condition c = new Condition(EXPORT_FAM, EPOCH);
      ConditionalMutation m = new ConditionalMutation(row, cur == null ? c : c.setValue(cur));
      m.put(EXPORT_FAM, EPOCH, Long.toString(next));
      if (compareAndSet(m)) {
        return next;
      }
    }
    throw new StoreException("the export epoch of " + queryTable + " kept changing; try again");
  }

  /**
   * Records that an application may export into {@code queryTable} from now on (it finished its
   * initialisation): the table no longer holds only its run's result.
   */
  public void markExported(String queryTable) {
    Mutation m = new Mutation(TABLE_PREFIX + queryTable);
    m.put(EXPORT_FAM, "since", Instant.now().toString());
    write(m);
  }

  /** Whether an application ever finished its initialisation exporting into {@code queryTable}. */
  public boolean exported(String queryTable) {
    return row(TABLE_PREFIX + queryTable).containsKey("since");
  }

  /**
   * A Fluo application started from a run: the run, the query table its exporter writes to, its
   * export epoch, and whether its initialisation completed ({@code READY}: it may have exported
   * since) or not ({@code INITIALIZING}: it never ran, nothing was exported).
   */
  public record FluoApp(
      String name, String runId, String table, long epoch, AppState state, Instant created) {}

  /** The life of a Fluo application. */
  public enum AppState {
    INITIALIZING,
    READY
  }

  public void putApp(FluoApp app) {
    Mutation m = new Mutation(APP_PREFIX + app.name());
    m.put(APP_FAM, "run", app.runId());
    m.put(APP_FAM, "table", app.table());
    m.put(APP_FAM, "epoch", Long.toString(app.epoch()));
    m.put(APP_FAM, "state", app.state().name());
    m.put(APP_FAM, "created", app.created().toString());
    write(m);
  }

  public void deleteApp(String name) {
    Mutation m = new Mutation(APP_PREFIX + name);
    for (String q : List.of("run", "table", "epoch", "state", "created")) {
      m.putDelete(APP_FAM, q);
    }
    write(m);
  }

  public Optional<FluoApp> app(String name) {
    return apps().stream().filter(a -> a.name().equals(name)).findFirst();
  }

  /** Every recorded Fluo application, oldest first. */
  public List<FluoApp> apps() {
    Map<String, Map<String, String>> rows = new TreeMap<>();
    scanInto(Range.prefix(APP_PREFIX), APP_FAM, rows);
    List<FluoApp> out = new ArrayList<>();
    rows.forEach(
        (row, f) ->
            out.add(
                new FluoApp(
                    row.substring(APP_PREFIX.length()),
                    f.getOrDefault("run", ""),
                    f.getOrDefault("table", ""),
                    Long.parseLong(f.getOrDefault("epoch", "0")),
                    AppState.valueOf(f.getOrDefault("state", AppState.INITIALIZING.name())),
                    Instant.parse(f.getOrDefault("created", Instant.EPOCH.toString())))));
    out.sort(Comparator.comparing(FluoApp::created).thenComparing(FluoApp::name));
    return out;
  }

  /**
   * What retention removes: the successful runs beyond the newest {@code keep} (by start time), the
   * runs left {@code RUNNING} longer than {@code grace} (a killed process), and the Fluo
   * applications of those runs. Never the served table, the one served before it, the application
   * that maintains the served table, or the application (and the run) of the cut-over in progress
   * ({@link #cutoverTarget}).
   */
  public record Expired(List<RunRecord> runs, List<FluoApp> apps) {}

  public Expired expired(int keep, Duration grace, Instant now) {
    Optional<Served> served = served();
    Set<String> protectedTables = new HashSet<>();
    Set<String> protectedApps = new HashSet<>();
    served.ifPresent(
        s -> {
          protectedTables.add(s.table());
          protectedTables.add(s.previousTable());
          protectedApps.add(s.fluoApp());
        });
    // a cut-over in progress: its application and its run's table are about to be served
    cutoverTarget()
        .ifPresent(
            t -> {
              protectedTables.add(t.table());
              protectedApps.add(t.app());
            });
    List<RunRecord> all = list();
    List<RunRecord> ok =
        new ArrayList<>(
            all.stream().filter(r -> r.status() == RunRecord.Status.SUCCEEDED).toList());
    ok.sort(BY_TIME.reversed());
    List<RunRecord> runs = new ArrayList<>();
    for (int i = keep; i < ok.size(); i++) {
      if (!protectedTables.contains(ok.get(i).table())) {
        runs.add(ok.get(i));
      }
    }
    for (RunRecord r : all) {
      if (r.status() == RunRecord.Status.RUNNING
          && r.started().plus(grace).isBefore(now)
          && !protectedTables.contains(r.table())) {
        runs.add(r);
      }
    }
    Set<String> expiredRuns = new HashSet<>();
    runs.forEach(r -> expiredRuns.add(r.runId()));
    Set<String> recorded = new HashSet<>();
    all.forEach(r -> recorded.add(r.runId()));
    // an application is kept while it maintains the served table or the one served before it, or
    // when it was created after the last switch (a cut-over in progress)
    Instant lastSwitch = served.map(Served::since).orElse(Instant.MAX);
    List<FluoApp> apps = new ArrayList<>();
    for (FluoApp a : apps()) {
      boolean inUse = protectedApps.contains(a.name()) || protectedTables.contains(a.table());
      boolean runGone = expiredRuns.contains(a.runId()) || !recorded.contains(a.runId());
      if (!inUse && (runGone || a.created().isBefore(lastSwitch))) {
        apps.add(a);
      }
    }
    return new Expired(runs, apps);
  }

  /**
   * Marks an expired run's record: {@code DROPPED} once its table and files are gone ({@code
   * RUNNING} ones also say that they were abandoned).
   */
  public void markDropped(RunRecord r, Instant when) {
    String why =
        r.status() == RunRecord.Status.RUNNING
            ? "abandoned while RUNNING (no progress since "
                + r.started()
                + "); dropped by retention"
            : "dropped by retention";
    put(r.finish(RunRecord.Status.DROPPED, when, r.counters(), why));
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

  /** The newest run (by start time) that succeeded. */
  public Optional<RunRecord> latestSucceeded() {
    return list().stream().filter(r -> r.status() == RunRecord.Status.SUCCEEDED).max(BY_TIME);
  }

  private void scanInto(Range range, String family, Map<String, Map<String, String>> rows) {
    try {
      if (!conn.tableOperations().exists(table)) {
        return;
      }
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      try {
        s.setRange(range);
        s.fetchColumnFamily(new Text(family));
        for (Map.Entry<Key, Value> e : s) {
          rows.computeIfAbsent(e.getKey().getRow().toString(), k -> new HashMap<>())
              .put(e.getKey().getColumnQualifier().toString(), e.getValue().toString());
        }
      } finally {
        s.close();
      }
    } catch (TableNotFoundException e) {
      rows.clear();
    }
  }

  private List<RunRecord> scan(Range range) {
    Map<String, Map<String, String>> rows = new TreeMap<>();
    scanInto(range, FAM, rows);
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
        f.getOrDefault("message", ""),
        Integer.parseInt(f.getOrDefault("buckets", "0")),
        f.getOrDefault("version", ""));
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
