package io.webindex.web;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.accumulo.core.client.Connector;

/**
 * Health at a glance: the served table (its run, since when, the table served before it), how far
 * the Fluo application that maintains it is behind the raw page store, the Fluo applications the
 * services serve (the served one and the one a cut-over is bringing up) with their oracle and
 * workers, and the last consistency check. {@link #gather} is the one place that reads this state,
 * for {@code /api/v1/health}'s {@code overview}, the home page's panel and {@code bin/webindex
 * status}; {@link #toJson} is its one JSON form and {@link #lines} its one text form.
 *
 * @param served the served pointer, or null when no table is served yet
 * @param fluo the lag of the served application, or null without a Fluo probe
 * @param applications the served application, then the cut-over target if there is one
 * @param lastCheck the last recorded consistency check, or null when none was recorded
 */
public record Overview(
    RunRegistry.Served served,
    FluoProbe.Lag fluo,
    List<Application> applications,
    RunRegistry.LastCheck lastCheck) {

  /** The role of the application that maintains the served table. */
  public static final String SERVED = "served";

  /** The role of the application a cut-over ({@code reconcile}, {@code fluo-init}) brings up. */
  public static final String CUTOVER = "cutover";

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  public Overview {
    applications = List.copyOf(applications);
  }

  /**
   * A Fluo application the services serve.
   *
   * @param role {@link #SERVED} or {@link #CUTOVER}
   * @param app its name
   * @param runId the run it started from (the served run for the served one), or null when no table
   *     is served
   * @param table the query table it maintains, or null when no table is served
   * @param since when it became served, or when the cut-over began; null when no table is served
   * @param processes its oracle and workers, or null without a Fluo probe
   */
  public record Application(
      String role,
      String app,
      String runId,
      String table,
      Instant since,
      FluoProbe.Processes processes) {}

  /**
   * One line of the text form: a label, its text, and how it looks ({@code ok}, {@code warn},
   * {@code bad}, or empty for neutral).
   */
  public record Line(String label, String text, String state) {}

  /**
   * Reads the state: the served pointer, the cut-over target and the last check from the run
   * registry ({@code <prefix>_meta}), and, through {@code fluo} (null: not reported), the lag of
   * the served application and the processes of each application. The served application is the one
   * the served pointer names, else {@code webindex.fluo.app} — the one the Fluo services started
   * without {@code --app} serve.
   *
   * @throws StoreException when the registry cannot be read
   */
  public static Overview gather(Connector conn, WebindexConfig cfg, FluoProbe fluo) {
    RunRegistry registry = new RunRegistry(conn, cfg.metaTable());
    Optional<RunRegistry.Served> served;
    Optional<RunRegistry.CutoverTarget> target;
    Optional<RunRegistry.LastCheck> check;
    try {
      ServedState state = ServedState.read(registry, cfg);
      served = state.served();
      target = state.cutover();
      check = registry.lastCheck();
    } catch (StoreException e) {
      throw e;
    } catch (RuntimeException e) {
      // a scan that is refused (no READ on the table) or fails throws unchecked
      throw new StoreException(
          "cannot read the run registry " + cfg.metaTable() + ": " + e.getMessage(), e);
    }
    String app =
        served.map(RunRegistry.Served::fluoApp).filter(a -> !a.isEmpty()).orElse(cfg.fluoApp());
    List<Application> apps = new ArrayList<>();
    apps.add(
        new Application(
            SERVED,
            app,
            served.map(RunRegistry.Served::runId).orElse(null),
            served.map(RunRegistry.Served::table).orElse(null),
            served.map(RunRegistry.Served::since).orElse(null),
            fluo == null ? null : fluo.processes(app)));
    target.ifPresent(
        t ->
            apps.add(
                new Application(
                    CUTOVER,
                    t.app(),
                    t.runId(),
                    t.table(),
                    t.since(),
                    fluo == null ? null : fluo.processes(t.app()))));
    return new Overview(
        served.orElse(null), fluo == null ? null : fluo.lag(app), apps, check.orElse(null));
  }

  // ------------------------------------------------------------------ JSON

  /** The JSON form ({@code /api/v1/health}'s {@code overview}, {@code status --json}). */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("served", served == null ? null : servedJson(served));
    m.put("fluo", fluo == null ? null : lagJson(fluo));
    List<Map<String, Object>> apps = new ArrayList<>();
    for (Application a : applications) {
      Map<String, Object> j = new LinkedHashMap<>();
      j.put("role", a.role());
      j.put("app", a.app());
      j.put("run", a.runId());
      j.put("table", a.table());
      j.put("since", a.since() == null ? null : a.since().toString());
      j.put("oracle", a.processes() == null ? null : a.processes().oracle());
      j.put("workers", a.processes() == null ? null : a.processes().workers());
      j.put("error", a.processes() == null ? null : a.processes().error());
      apps.add(j);
    }
    m.put("applications", apps);
    Map<String, Object> c = null;
    if (lastCheck != null) {
      c = new LinkedHashMap<>();
      c.put("verdict", lastCheck.verdict());
      c.put("finished", lastCheck.finished().toString());
      c.put("run", lastCheck.runId());
      c.put("table", lastCheck.table());
      c.put("applied", lastCheck.applied());
      c.put("differences", lastCheck.differences());
      c.put("invariantViolations", lastCheck.violations());
      c.put("report", lastCheck.report());
    }
    m.put("lastCheck", c);
    return m;
  }

  /** The served pointer as the API shows it ({@code /api/v1/runs}, {@code /api/v1/health}). */
  static Map<String, Object> servedJson(RunRegistry.Served s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", s.table());
    m.put("run", s.runId());
    m.put("previousTable", s.previousTable().isEmpty() ? null : s.previousTable());
    m.put("since", s.since().toString());
    m.put("fluoApp", s.fluoApp().isEmpty() ? null : s.fluoApp());
    return m;
  }

  /** The lag as the API shows it ({@code /api/v1/health}'s {@code fluo}). */
  static Map<String, Object> lagJson(FluoProbe.Lag l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("app", l.app());
    m.put("applied", l.applied());
    m.put("newest", l.newest());
    m.put("batchesBehind", l.batchesBehind());
    m.put("secondsBehind", l.secondsBehind());
    m.put("error", l.error());
    return m;
  }

  // ------------------------------------------------------------------ text

  /**
   * The text form, one fact per line ({@code bin/webindex status}, the home page's panel); times in
   * UTC with their age at {@code now}.
   */
  public List<Line> lines(Instant now) {
    List<Line> out = new ArrayList<>();
    if (served == null) {
      out.add(
          new Line(
              "served table", "none yet (bin/webindex fluo-init or reconcile choose one)", "bad"));
    } else {
      out.add(
          new Line(
              "served table",
              served.table()
                  + (served.runId().isEmpty() ? "" : " (run " + served.runId() + ")")
                  + " since "
                  + time(served.since(), now),
              ""));
      out.add(
          new Line(
              "previous table",
              served.previousTable().isEmpty() ? "none" : served.previousTable(),
              ""));
    }
    if (fluo == null) {
      out.add(new Line("Fluo lag", "not probed", ""));
    } else {
      out.add(
          new Line(
              "applied batch",
              (fluo.applied() == null ? "unknown" : batch(fluo.applied()))
                  + " (Fluo application "
                  + fluo.app()
                  + ")",
              ""));
      out.add(
          new Line(
              "newest batch",
              fluo.newest() == null
                  ? "unknown"
                  : fluo.newest() < 0 ? "none in the store" : Long.toString(fluo.newest()),
              ""));
      out.add(lagLine(fluo));
      if (fluo.error() != null) {
        out.add(new Line("Fluo probe", fluo.error(), "bad"));
      }
    }
    boolean target = false;
    for (Application a : applications) {
      if (a.role().equals(CUTOVER)) {
        target = true;
        out.add(
            new Line(
                "cut-over target",
                a.app()
                    + " (run "
                    + a.runId()
                    + ", table "
                    + a.table()
                    + ") since "
                    + time(a.since(), now)
                    + ": "
                    + processes(a.processes()),
                processesState(a.processes())));
      } else {
        out.add(
            new Line(
                "served app",
                a.app() + ": " + processes(a.processes()),
                processesState(a.processes())));
      }
    }
    if (!target) {
      out.add(new Line("cut-over target", "none", ""));
    }
    if (lastCheck == null) {
      out.add(new Line("last check", "no check recorded", ""));
    } else {
      out.add(
          new Line(
              "last check",
              lastCheck.verdict()
                  + " at "
                  + time(lastCheck.finished(), now)
                  + ": "
                  + checkDetails(lastCheck),
              "CONSISTENT".equals(lastCheck.verdict()) ? "ok" : "bad"));
    }
    return out;
  }

  /** The details of the last check after its verdict and time. */
  private static String checkDetails(RunRegistry.LastCheck c) {
    return "run "
        + c.runId()
        + ", table "
        + c.table()
        + ", applied batch "
        + batch(c.applied())
        + ", "
        + count(c.differences(), "difference", "differences")
        + ", "
        + count(c.violations(), "invariant violation", "invariant violations")
        + "; report "
        + (c.report().isEmpty() ? "not recorded" : c.report());
  }

  private static Line lagLine(FluoProbe.Lag l) {
    if (l.batchesBehind() == null) {
      return new Line("Fluo lag", "unknown", "warn");
    }
    if (l.batchesBehind() == 0) {
      return new Line("Fluo lag", "caught up", "ok");
    }
    return new Line(
        "Fluo lag",
        count(l.batchesBehind(), "batch", "batches")
            + (l.secondsBehind() == null ? "" : " and " + duration(l.secondsBehind()))
            + " behind",
        "warn");
  }

  private static String processes(FluoProbe.Processes p) {
    if (p == null) {
      return "processes not probed";
    }
    if (p.oracle() == null || p.workers() == null) {
      return "processes unknown" + (p.error() == null ? "" : " (" + p.error() + ")");
    }
    return (p.oracle() ? "oracle running" : "no oracle")
        + ", "
        + count(p.workers(), "worker", "workers");
  }

  private static String processesState(FluoProbe.Processes p) {
    if (p == null) {
      return "";
    }
    if (p.oracle() == null || p.workers() == null) {
      return "warn";
    }
    return p.oracle() && p.workers() > 0 ? "ok" : "bad";
  }

  private static String batch(long b) {
    return b < 0 ? "none" : Long.toString(b);
  }

  static String count(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  /** {@code 2026-11-23 14:50:02 UTC (3 h 5 min ago)}. */
  static String time(Instant t, Instant now) {
    long age = Duration.between(t, now).getSeconds();
    return TIME.format(t) + (age < 0 ? " (in the future)" : " (" + duration(age) + " ago)");
  }

  /** {@code 45 s}, {@code 2 min 5 s}, {@code 3 h 4 min}, {@code 2 d 3 h}. */
  public static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min " + seconds % 60 + " s";
    }
    if (seconds < 86_400) {
      return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
    }
    return seconds / 86_400 + " d " + seconds % 86_400 / 3600 + " h";
  }
}
