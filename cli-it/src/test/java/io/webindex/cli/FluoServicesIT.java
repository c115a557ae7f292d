package io.webindex.cli;

import static io.webindex.testkit.HealthRows.AGO;
import static io.webindex.testkit.HealthRows.expect;
import static io.webindex.testkit.HealthRows.q;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.schema.LocalBatches;
import io.webindex.core.synth.RandomWeb;
import io.webindex.fluo.Cutover;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.ChildProcessWatcher;
import io.webindex.testkit.HangGuard;
import io.webindex.testkit.HealthRows;
import io.webindex.testkit.SecretScan;
import io.webindex.testkit.SharedCluster;
import io.webindex.testkit.WatchesChildProcesses;
import io.webindex.web.WebOptions;
import io.webindex.web.WebServer;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.accumulo.core.security.SystemPermission;
import org.apache.fluo.core.impl.Notification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application's oracle and workers as processes of their own ({@code bin/webindex fluo-oracle}
 * and {@code fluo-worker}, each a separate JVM, not MiniFluo) against MiniAccumulo: {@code load}
 * and {@code reconcile} without {@code --embedded} go through them, a worker is stopped and another
 * started while the oracle keeps running, and after every step the served table equals a recompute
 * of the same batches, cell for cell. {@code /api/v1/health} reports the application's lag, as
 * {@code serve} builds it, with a batch waiting and after its load; during the cut-over and after
 * it, health at a glance (the health answer's overview, the home page's panel, {@code status} and
 * {@code status --json}) shows the served and previous table, the lag, each application's oracle
 * and workers and a recorded check. The processes run as the user of docs/permissions.md with a
 * random password, their logging at INFO (Fluo's start-up print of its configuration included); the
 * password must be in none of their logs, command lines or environments.
 */
@WatchesChildProcesses
@SharedCluster
class FluoServicesIT extends AccumuloITBase {
  private static final String SECRET = "ServiceCanary" + random(12);
  private static final SecretScan SCAN = new SecretScan(SECRET);

  @TempDir Path tmp;

  private Path store;
  private String c;
  private String prefix;
  private WebindexConfig cfg;
  private RandomWeb web;
  private Connector user;
  private ServiceProcesses services;

  @AfterEach
  void stopChildren() throws InterruptedException {
    if (services != null) {
      services.close();
    }
  }

  @Test
  void loadAndReconcileGoThroughOracleAndWorkerProcesses() throws Exception {
    SecretLeakIT.Grants grants = SecretLeakIT.documentedGrants();
    createUser(grants.user(), SECRET, grants.system().toArray(new SystemPermission[0]));
    // the tables are the user's: root cannot read them
    user = connectorAs(grants.user(), SECRET);
    prefix = newTableName("svc");
    store = tmp.resolve("store");
    Path pw =
        Files.createFile(
            tmp.resolve("accumulo.password"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(pw, SECRET + "\n");
    Path conf =
        Files.write(
            tmp.resolve("webindex.properties"),
            List.of(
                WebindexConfig.INSTANCE + "=" + instanceName(),
                WebindexConfig.ZOOKEEPERS + "=" + zookeepers(),
                WebindexConfig.USER + "=" + grants.user(),
                WebindexConfig.PASSWORD_FILE + "=" + pw,
                WebindexConfig.TABLE_PREFIX + "=" + prefix,
                WebindexConfig.FLUO_APP + "=" + prefix,
                WebindexConfig.STORE_ROOT + "=" + store.toUri(),
                WebindexConfig.WORK_DIR + "=" + tmp.resolve("work").toUri(),
                WebindexConfig.RETENTION_RUNS + "=5",
                WebindexConfig.FLUO_BUCKETS + "=4"));
    c = conf.toString();
    cfg = WebindexConfig.load(conf, Map.of());
    web = new RandomWeb(20261123, 120);
    services =
        new ServiceProcesses(
            tmp, c, "INFO", "log4j.logger.org.apache.fluo=DEBUG", "log4j.logger.io.webindex=DEBUG");

    // the batch run and the application started from it
    writeBatch(0, 120);
    ok("recompute", "--run", "r0");
    ok("fluo-init", "--run", "r0");
    String app0 = prefix;

    // a service refuses an application that is not initialised, before it starts anything
    Run unknown = status(2, "fluo-worker", "--app", "nope");
    assertTrue(
        unknown.err().contains("Fluo application nope is not initialised"), unknown.toString());

    // without an oracle, load stops (transient: exit 3, run it again once one runs) and names the
    // command that starts one
    Run refused = status(ExitCodes.TRANSIENT, "load");
    assertTrue(refused.err().contains("bin/webindex fluo-oracle"), refused.err());

    ServiceProcesses.Child oracle0 = start("oracle0", "fluo-oracle");
    ServiceProcesses.Child worker1 = start("worker1", "fluo-worker", "--max-scan-interval", "1");
    awaitProcesses(app0, 1);
    writeBatch(1, 40);
    // /api/v1/health while batch 1 waits: the application applied batch 0 (its seed), the store
    // has 1; the batch was written two minutes ago
    long batchAge = 120;
    Files.setLastModifiedTime(
        store.resolve("batches/00001"), FileTime.from(Instant.now().minusSeconds(batchAge)));
    JsonNode behind = healthFluo();
    assertEquals(app0, behind.path("app").asText(), behind.toString());
    assertEquals(0, behind.path("applied").asLong(), behind.toString());
    assertEquals(1, behind.path("newest").asLong(), behind.toString());
    assertEquals(1, behind.path("batchesBehind").asLong(), behind.toString());
    long seconds = behind.path("secondsBehind").asLong();
    assertTrue(seconds >= batchAge && seconds < batchAge + 120, behind.toString());
    assertTrue(behind.path("error").isNull(), behind.toString());
    Run load1 = ok("load");
    assertTrue(load1.out().contains("applied batches 1..1"), load1.out());
    JsonNode caughtUp = healthFluo();
    assertEquals(1, caughtUp.path("applied").asLong(), caughtUp.toString());
    assertEquals(1, caughtUp.path("newest").asLong(), caughtUp.toString());
    assertEquals(0, caughtUp.path("batchesBehind").asLong(), caughtUp.toString());
    assertEquals(0, caughtUp.path("secondsBehind").asLong(), caughtUp.toString());
    assertTrue(caughtUp.path("error").isNull(), caughtUp.toString());
    awaitNoNotifications(app0);

    // workers are independent: stop the only one, load with none, start another
    assertEquals(143, worker1.stop(), worker1.log());
    assertTrue(worker1.log().contains("Fluo worker of application " + app0 + " stopped"));
    awaitProcesses(app0, 0);
    writeBatch(2, 40);
    Run load2 = ok("load");
    assertTrue(load2.out().contains("applied batches 2..2"), load2.out());
    assertTrue(notifications(app0) > 0, "nothing processed the batch without a worker");
    ServiceProcesses.Child worker2 =
        start("worker2", "fluo-worker", "--app", app0, "--max-scan-interval", "1");
    awaitProcesses(app0, 1);
    awaitNoNotifications(app0);
    ok("recompute", "--run", "r2");
    assertEquals(prefix + "_r0", served());
    assertEquals(dump(prefix + "_r2"), dump(prefix + "_r0"), "served vs a recompute of 0..2");

    // a cut-over without --embedded: it initialises the new application, then waits for its
    // processes and says which to start
    writeBatch(3, 40);
    String app1 = Cutover.reconcileApp(cfg, "r2");
    Run waiting = status(3, "reconcile", "--run", "r2", "--wait", "1");
    assertTrue(
        waiting.err().contains("bin/webindex fluo-oracle --app " + app1)
            && waiting.err().contains("bin/webindex fluo-worker --app " + app1),
        waiting.err());
    assertEquals(prefix + "_r0", served());
    ServiceProcesses.Child oracle1 = start("oracle1", "fluo-oracle", "--app", app1);
    ServiceProcesses.Child worker3 =
        start("worker3", "fluo-worker", "--app", app1, "--max-scan-interval", "1");
    awaitProcesses(app1, 1);
    healthAtAGlanceDuringTheCutover(app0, app1, worker2);
    Run rec = ok("reconcile", "--run", "r2", "--wait", "60");
    assertTrue(
        rec.out().contains("served table: " + prefix + "_r2 (run r2, Fluo caught up to batch 3)"),
        rec.out());
    awaitNoNotifications(app1);
    ok("recompute", "--run", "t3");
    assertEquals(prefix + "_r2", served());
    assertEquals(dump(prefix + "_t3"), dump(prefix + "_r2"), "served vs a recompute of 0..3");
    healthAtAGlanceAfterTheCutover(app1);

    for (ServiceProcesses.Child ch : List.of(worker2, oracle0, worker3, oracle1)) {
      assertEquals(143, ch.stop(), ch.name() + ": " + ch.log());
      assertTrue(ch.log().contains(" stopped"), ch.name() + ": " + ch.log());
    }

    // Fluo logged its start-up at INFO, but not the configuration with the password
    for (ServiceProcesses.Child ch : List.of(oracle0, oracle1)) {
      assertTrue(ch.log().contains("Starting Oracle for Fluo '"), ch.log());
    }
    for (ServiceProcesses.Child ch : List.of(worker1, worker2, worker3)) {
      assertTrue(ch.log().contains("Starting Worker for Fluo '"), ch.log());
    }
    List<String> found = new ArrayList<>();
    for (ServiceProcesses.Child ch : services.children()) {
      found.addAll(SCAN.file(ch.logFile()));
    }
    Set<Long> pids = new java.util.HashSet<>();
    services.children().forEach(ch -> pids.add(ch.process().pid()));
    List<ChildProcessWatcher.Seen> seen = childProcesses();
    assertTrue(
        seen.stream().filter(s -> pids.contains(s.pid())).count() >= services.children().size(),
        "every service process was seen: " + seen);
    for (ChildProcessWatcher.Seen s : seen) {
      found.addAll(SCAN.text("command line of " + s, s.commandLine()));
      found.addAll(SCAN.text("environment of " + s, s.environment()));
    }
    found.addAll(SCAN.zooKeeper(zookeepers(), null).findings());
    assertEquals(List.of(), found, "the password leaked");
  }

  // --- the service processes ---

  private ServiceProcesses.Child start(String name, String... args) throws IOException {
    return services.start(name, args);
  }

  /** Waits until the oracle of {@code app} and exactly {@code workers} workers are registered. */
  private void awaitProcesses(String app, int workers) {
    await(
        "an oracle and " + workers + " workers of " + app,
        () -> {
          services.assertAlive();
          WebindexApp.Processes p = WebindexApp.processes(cfg, app);
          return p.oracle() && p.workers() == workers;
        });
  }

  /** Waits until the workers processed every notification of {@code app} (twice in a row). */
  private void awaitNoNotifications(String app) {
    int[] zeros = {0};
    await(
        "the workers of " + app + " processed every notification",
        () -> {
          zeros[0] = notifications(app) == 0 ? zeros[0] + 1 : 0;
          return zeros[0] >= 2;
        });
  }

  private long notifications(String app) {
    try (Scanner s = user.createScanner(WebindexApp.fluoTable(cfg, app), Authorizations.EMPTY)) {
      Notification.configureScanner(s);
      long n = 0;
      for (var e : s) {
        n++;
      }
      return n;
    } catch (Exception e) {
      throw new AssertionError("cannot count the notifications of " + app, e);
    }
  }

  private static void await(String what, BooleanSupplier done) {
    ServiceProcesses.poll(what, HangGuard.SLOW_SUITE, done, () -> "");
  }

  // --- commands in this JVM ---

  private void writeBatch(long b, int pages) throws IOException {
    Path dir = Files.createDirectories(store.resolve("batches").resolve(String.format("%05d", b)));
    for (Map.Entry<String, String> f : web.batchFiles(b, pages, 2).entrySet()) {
      Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }
    LocalBatches.markComplete(dir);
  }

  /**
   * The {@code fluo} part of {@code /api/v1/health}, from a web server with a probe of its own (a
   * probe reuses its answer for a few seconds), as {@code bin/webindex serve} builds them, but with
   * a longer time limit than serve's {@link FluoStateProbe#TIME_LIMIT}, which opening a probe's
   * first Fluo client can take on a busy machine; an answer with an error is asked again, for up to
   * a minute.
   */
  private JsonNode healthFluo() throws IOException, InterruptedException {
    return health().json().path("fluo");
  }

  /** {@code /api/v1/health} and the home page, from one web server. */
  private record Health(JsonNode json, String home) {}

  /**
   * {@code /api/v1/health} and the home page from a web server with a probe of its own, until
   * neither the lag nor the processes of an application have an error (see {@link #healthFluo}).
   */
  private Health health() throws IOException, InterruptedException {
    Instant until = Instant.now().plusSeconds(60);
    Health h = healthOnce();
    while (probeErrors(h.json()) && Instant.now().isBefore(until)) {
      Thread.sleep(1000);
      h = healthOnce();
    }
    return h;
  }

  private static boolean probeErrors(JsonNode health) {
    boolean errors = !health.path("fluo").path("error").isNull();
    for (JsonNode a : health.path("overview").path("applications")) {
      errors |= !a.path("error").isNull();
    }
    return errors;
  }

  private Health healthOnce() throws IOException, InterruptedException {
    // serve's probe gives up after 3 s: too short for a busy test machine, where each new probe
    // opens its first Fluo client; the values are the same
    try (FluoStateProbe probe = new FluoStateProbe(cfg, Duration.ofSeconds(30));
        // the overview is operational detail: shown as to an authenticated user
        WebServer server =
            WebServer.start(WebOptions.local(0).withOpenDetail(true), user, cfg, probe)) {
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(server.url().resolve("/api/v1/health")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      HttpResponse<String> home =
          http.send(
              HttpRequest.newBuilder(server.url().resolve("/")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, home.statusCode(), home.body());
      return new Health(new ObjectMapper().readTree(r.body()), home.body());
    }
  }

  // --- health at a glance: /api/v1/health's overview, the home page's panel, status ---

  /**
   * While the cut-over to run r2 waits for batch 3: the served table is r0's (nothing served before
   * it), its application {@code app0} applied batch 2 of 3 (batch 3 written five minutes ago) and
   * has its oracle but, once {@code worker2} is stopped here, no worker; the cut-over target is
   * {@code app1} (run r2) with its oracle and one worker; a check recorded here. The health
   * answer's overview, {@code status --json} and {@code status}, and the home page's panel all say
   * exactly that.
   */
  private void healthAtAGlanceDuringTheCutover(
      String app0, String app1, ServiceProcesses.Child worker2) throws Exception {
    // app0 has nothing left to do (batch 3 goes to app1): its workers are not needed any more
    assertEquals(143, worker2.stop(), worker2.log());
    awaitProcesses(app0, 0);
    RunRegistry registry = new RunRegistry(user, prefix + "_meta");
    long batchAge = 300;
    Files.setLastModifiedTime(
        store.resolve("batches/00003"), FileTime.from(Instant.now().minusSeconds(batchAge)));
    Instant checked =
        Instant.now().minus(Duration.ofHours(3)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    String report = tmp.resolve("checks").resolve("check.html").toString();
    registry.recordCheck(
        new RunRegistry.LastCheck("INCONSISTENT", "r0", prefix + "_r0", 2, 5, 1, checked, report));
    RunRegistry.Served s = registry.served().orElseThrow();
    assertEquals(prefix + "_r0", s.table());
    RunRegistry.CutoverTarget t = registry.cutoverTarget().orElseThrow();
    assertEquals(app1, t.app());

    Health h = health();
    JsonNode o = h.json().path("overview");
    JsonNode served = o.path("served");
    assertEquals(prefix + "_r0", served.path("table").asText(), o.toString());
    assertEquals("r0", served.path("run").asText(), o.toString());
    assertTrue(served.path("previousTable").isNull(), o.toString());
    assertEquals(s.since().toString(), served.path("since").asText(), o.toString());
    assertEquals(app0, served.path("fluoApp").asText(), o.toString());
    JsonNode fluo = o.path("fluo");
    assertEquals(h.json().path("fluo"), fluo, "the overview's lag is health's fluo part");
    assertEquals(app0, fluo.path("app").asText(), o.toString());
    assertEquals(2, fluo.path("applied").asLong(), o.toString());
    assertEquals(3, fluo.path("newest").asLong(), o.toString());
    assertEquals(1, fluo.path("batchesBehind").asLong(), o.toString());
    long seconds = fluo.path("secondsBehind").asLong();
    assertTrue(seconds >= batchAge && seconds < batchAge + 60, o.toString());
    assertEquals(
        List.of(
            "served " + app0 + " r0 " + prefix + "_r0 " + s.since() + " true 0 null",
            "cutover " + app1 + " r2 " + prefix + "_r2 " + t.since() + " true 1 null"),
        applications(o));
    JsonNode check = o.path("lastCheck");
    assertEquals("INCONSISTENT", check.path("verdict").asText(), o.toString());
    assertEquals(checked.toString(), check.path("finished").asText(), o.toString());
    assertEquals("r0", check.path("run").asText(), o.toString());
    assertEquals(prefix + "_r0", check.path("table").asText(), o.toString());
    assertEquals(2, check.path("applied").asLong(), o.toString());
    assertEquals(5, check.path("differences").asLong(), o.toString());
    assertEquals(1, check.path("invariantViolations").asLong(), o.toString());
    assertEquals(report, check.path("report").asText(), o.toString());

    // status --json: the same object (the lag's seconds go on counting)
    JsonNode json = new ObjectMapper().readTree(ok("status", "--json").out());
    long statusSeconds = json.path("fluo").path("secondsBehind").asLong();
    assertTrue(statusSeconds >= seconds && statusSeconds < seconds + 60, json.toString());
    ((com.fasterxml.jackson.databind.node.ObjectNode) json.path("fluo"))
        .set("secondsBehind", fluo.path("secondsBehind"));
    assertEquals(o, json);

    List<HealthRows.Row> expected =
        List.of(
            expect(
                "",
                "served table",
                q(prefix + "_r0 (run r0) since " + HealthRows.UTC.format(s.since())) + AGO),
            expect("", "previous table", q("none")),
            expect("", "applied batch", q("2 (Fluo application " + app0 + ")")),
            expect("", "newest batch", q("3")),
            expect("warn", "Fluo lag", q("1 batch and ") + "(5|6) min \\d+ s" + q(" behind")),
            expect("bad", "served app", q(app0 + ": oracle running, 0 workers")),
            expect(
                "ok",
                "cut-over target",
                q(
                        app1
                            + " (run r2, table "
                            + prefix
                            + "_r2) since "
                            + HealthRows.UTC.format(t.since()))
                    + AGO
                    + q(": oracle running, 1 worker")),
            expect(
                "bad",
                "last check",
                q("INCONSISTENT at " + HealthRows.UTC.format(checked))
                    + AGO
                    + q(
                        ": run r0, table "
                            + prefix
                            + "_r0, applied batch 2, 5 differences, 1 invariant violation; report "
                            + report)));
    assertStatusAndPanel(expected, h.home());
  }

  /**
   * After the cut-over: r2's table is served, r0's the previous one, {@code app1} the served
   * application and no cut-over target is left.
   */
  private void healthAtAGlanceAfterTheCutover(String app1) throws Exception {
    RunRegistry.Served s = new RunRegistry(user, prefix + "_meta").served().orElseThrow();
    Health h = health();
    JsonNode o = h.json().path("overview");
    assertEquals(prefix + "_r2", o.path("served").path("table").asText(), o.toString());
    assertEquals(prefix + "_r0", o.path("served").path("previousTable").asText(), o.toString());
    assertEquals(app1, o.path("fluo").path("app").asText(), o.toString());
    assertEquals(3, o.path("fluo").path("applied").asLong(), o.toString());
    assertEquals(0, o.path("fluo").path("batchesBehind").asLong(), o.toString());
    assertEquals(
        List.of("served " + app1 + " r2 " + prefix + "_r2 " + s.since() + " true 1 null"),
        applications(o));
    List<HealthRows.Row> expected =
        List.of(
            expect(
                "",
                "served table",
                q(prefix + "_r2 (run r2) since " + HealthRows.UTC.format(s.since())) + AGO),
            expect("", "previous table", q(prefix + "_r0")),
            expect("", "applied batch", q("3 (Fluo application " + app1 + ")")),
            expect("", "newest batch", q("3")),
            expect("ok", "Fluo lag", q("caught up")),
            expect("ok", "served app", q(app1 + ": oracle running, 1 worker")),
            expect("", "cut-over target", q("none")),
            expect("bad", "last check", q("INCONSISTENT at ") + ".*"));
    assertStatusAndPanel(expected, h.home());
  }

  private static List<String> applications(JsonNode overview) {
    List<String> out = new ArrayList<>();
    for (JsonNode a : overview.path("applications")) {
      out.add(
          String.join(
              " ",
              a.path("role").asText(),
              a.path("app").asText(),
              a.path("run").asText(),
              a.path("table").asText(),
              a.path("since").asText(),
              a.path("oracle").asText(),
              a.path("workers").asText(),
              a.path("error").isNull() ? "null" : a.path("error").asText()));
    }
    return out;
  }

  /** {@code status} and the home page's panel both show exactly {@code expected}. */
  private void assertStatusAndPanel(List<HealthRows.Row> expected, String home) {
    HealthRows.assertRows(expected, HealthRows.statusLines(ok("status").out()));
    HealthRows.assertRows(expected, HealthRows.panel(home));
  }

  private Run ok(String... args) {
    return status(0, args);
  }

  private Run status(int expected, String... args) {
    return Run.expect(tmp, c, expected, args);
  }

  private String dump(String table) {
    String out = ok("dump", "--table", table).out();
    assertFalse(out.isEmpty(), table + " is empty");
    return out;
  }

  private String served() {
    return new RunRegistry(user, prefix + "_meta").served().orElseThrow().table();
  }

  private static String random(int n) {
    String letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    SecureRandom r = new SecureRandom();
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append(letters.charAt(r.nextInt(letters.length())));
    }
    return sb.toString();
  }
}
