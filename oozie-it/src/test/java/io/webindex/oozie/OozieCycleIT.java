package io.webindex.oozie;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.synth.RandomWeb;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.HangGuard;
import io.webindex.testkit.SharedCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.oozie.client.CoordinatorAction;
import org.apache.oozie.client.CoordinatorJob;
import org.apache.oozie.client.OozieClient;
import org.apache.oozie.client.WorkflowAction;
import org.apache.oozie.client.WorkflowJob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shipped Oozie application ({@code oozie/coordinator.xml} and {@code oozie/workflow.xml} of
 * this repository, read from there) on a real Oozie engine: Oozie 5.2.1's services ({@link
 * MiniOozieCluster}) on Hadoop's YARN and HDFS mini-cluster, with MiniAccumulo. It is deployed as
 * docs/operations.md tells an operator: the first deployment ({@code RecomputeTool --run first},
 * {@code FluoInitTool --run first --embedded}) with {@code hadoop jar}, then the application on
 * HDFS with the job jar in {@code lib/}, {@code webindex.properties}, the password file and the
 * jobs' Hadoop configuration, submitted with the properties of {@code oozie/job.properties.example}
 * and the cluster's values. Every step of a cycle is a java action whose launcher is a YARN
 * application running the job jar's Tool.
 *
 * <p>The recompute's MapReduce jobs run on the local job runner inside the launcher ({@code
 * mapreduce.framework.name=local} in the jobs' configuration): {@code YarnCycleIT}, beside it in
 * this module, runs them as YARN applications, and three YARN jobs per cycle would cost this class
 * minutes.
 *
 * <p>Without separate Fluo services, reconcile catches the new application up in its launcher
 * ({@code reconcileEmbedded=true}, the workflow's default).
 */
@Timeout(value = 45, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SharedCluster
class OozieCycleIT extends AccumuloITBase {
  private static final Logger log = LoggerFactory.getLogger(OozieCycleIT.class);

  /**
   * {@code -Dwebindex.oozie-it.services=true}: the Fluo oracle, a worker and the loader ({@code
   * FluoOracleTool}, {@code FluoWorkerTool} without {@code --app}, {@code LoadTool --watch 2}) run
   * from the job jar as child processes for the whole class, as docs/operations.md runs them beside
   * the cycle, and a new batch arrives (and is applied through them) before each scenario.
   */
  static final boolean SERVICES =
      Boolean.parseBoolean(System.getProperty("webindex.oozie-it.services", "true"));

  /**
   * {@code -Dwebindex.oozie-it.reconcileEmbedded=false}: the workflow's reconcile without {@code
   * --embedded}, waiting for the new application's oracle and workers (needs {@link #SERVICES} and
   * services that follow the cut-over).
   */
  static final boolean RECONCILE_EMBEDDED =
      Boolean.parseBoolean(System.getProperty("webindex.oozie-it.reconcileEmbedded", "false"));

  /** The workflow's reconcile action the cycles take. */
  static final String RECONCILE = RECONCILE_EMBEDDED ? "reconcile-embedded" : "reconcile";

  /**
   * The routes through oozie/workflow.xml the scenarios expect, as {@link Route#nodes()} prints
   * them (a failed action with its exit code). Edit these when the workflow's graph changes.
   */
  static final List<String> CONSISTENT_ROUTE =
      List.of(
          ":start:", "recompute", "check", "reconcile-how", RECONCILE, "after-reconcile", "end");

  /** The repair branch when the served table still differs after the cut-over. */
  static final List<String> STILL_INCONSISTENT_ROUTE =
      List.of(
          ":start:",
          "recompute",
          "check(exit 1)",
          "check-outcome",
          "notify-inconsistent",
          "reconcile-how",
          RECONCILE,
          "after-reconcile",
          "verify-recompute",
          "recheck(exit 1)",
          "recheck-outcome",
          "notify-still-inconsistent",
          "still-inconsistent");

  /** The java actions of the routes: each must have run as a YARN application. */
  static final Set<String> JAVA_ACTIONS =
      Set.of(
          "recompute", "check", "reconcile", "reconcile-embedded", "verify-recompute", "recheck");

  private static final DateTimeFormatter OOZIE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter RUN_ID =
      DateTimeFormatter.ofPattern("yyyyMMddHHmm").withZone(ZoneOffset.UTC);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Path dir;
  private static Path jobJar;

  /** fluo-jobs' job jar: the Fluo Tools and services, and the check's Fluo side. */
  private static Path fluoJar;

  private static Path oozieApp;
  private static MiniOozieCluster cluster;
  private static Deployment deployment;
  private static final RandomWeb WEB = new RandomWeb(2029, 120);
  private static final List<MiniOozieCluster.Child> services = new ArrayList<>();

  @BeforeAll
  static void startClusterAndDeploy() throws Exception {
    dir =
        Files.createTempDirectory(Files.createDirectories(Paths.get("target")), "oozie-it-")
            .toAbsolutePath();
    jobJar = Paths.get(System.getProperty("webindex.job.jar"));
    assertTrue(Files.isRegularFile(jobJar), "the job jar " + jobJar + " (build mr-jobs first)");
    fluoJar = Paths.get(System.getProperty("webindex.fluo.job.jar"));
    assertTrue(
        Files.isRegularFile(fluoJar), "the Fluo job jar " + fluoJar + " (build fluo-jobs first)");
    oozieApp = Paths.get(System.getProperty("webindex.oozie.dir")).toRealPath();
    assertTrue(Files.isRegularFile(oozieApp.resolve("workflow.xml")), "no " + oozieApp);
    cluster = MiniOozieCluster.start(dir);
    deployment = deploy("wi");
    if (SERVICES) {
      startServices(deployment);
    }
  }

  @AfterAll
  static void stopCluster() throws InterruptedException {
    try {
      // the loader and the worker before the oracle they wait for: stopped without an oracle, a
      // loader's shutdown waits out its Fluo client's back-off first
      for (int i = services.size() - 1; i >= 0; i--) {
        services.get(i).stop();
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  /** One webindex installation on the cluster: its table prefix and its paths on HDFS. */
  record Deployment(
      String prefix, String appPath, String reportDir, String storeRoot, Path webindexConf) {
    RunRegistry registry() {
      return new RunRegistry(connector(), prefix + "_meta");
    }

    String table(String runId) {
      return prefix + "_" + runId;
    }
  }

  /**
   * A webindex installation named after {@code hint}, as docs/operations.md sets one up: raw pages
   * on HDFS, the first deployment with {@code hadoop jar}, then the Oozie application on HDFS.
   */
  static Deployment deploy(String hint) throws Exception {
    String prefix = newTableName(hint);
    Path local = Files.createDirectories(dir.resolve(prefix));
    FileSystem fs = cluster.fs();
    String nameNode = cluster.nameNode();
    String storeRoot = nameNode + "/" + prefix + "/pages";

    // webindex.properties names the password file by its relative name: the workflow ships both
    // into the launcher's working directory side by side (and hadoop jar finds it beside the file)
    Path webindexConf =
        writeWebindexConf(
            local,
            prefix,
            "webindex.recompute.tablets=2",
            "webindex.store.root=" + storeRoot,
            // MiniAccumulo's only volume is local: it bulk imports from the local file system
            "webindex.work.dir=" + local.resolve("work").toUri());
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(webindexConf)) {
      lines.add(
          line.startsWith("webindex.accumulo.password.file=")
              ? "webindex.accumulo.password.file=accumulo.password"
              : line);
    }
    Files.write(webindexConf, lines);
    Path jobsConf = writeJobsConf(local);

    // one batch of raw pages, in two JSON-lines files
    writeBatch(storeRoot, 0);

    // the first deployment
    List<String> conf = List.of("--webindex-conf", webindexConf.toString(), "--run", "first");
    List<String> recompute = new ArrayList<>(List.of("-conf", jobsConf.toString()));
    recompute.addAll(conf);
    expectExit(0, hint + "-first-recompute", jobJar, "io.webindex.mr.RecomputeTool", recompute);
    List<String> init = new ArrayList<>(conf);
    init.add("--embedded");
    expectExit(0, hint + "-first-fluo-init", fluoJar, "io.webindex.fluo.FluoInitTool", init);
    Deployment d =
        new Deployment(
            prefix,
            nameNode + "/apps/" + prefix,
            nameNode + "/" + prefix + "/checks",
            storeRoot,
            webindexConf);
    assertEquals(
        d.table("first"),
        d.registry().served().orElseThrow().table(),
        "the first deployment serves <prefix>_first");

    // the Oozie application, laid out as docs/operations.md shows
    org.apache.hadoop.fs.Path app = new org.apache.hadoop.fs.Path(d.appPath());
    org.apache.hadoop.fs.Path appConf = new org.apache.hadoop.fs.Path(app, "conf");
    fs.mkdirs(new org.apache.hadoop.fs.Path(app, "lib"));
    fs.mkdirs(appConf);
    fs.mkdirs(new org.apache.hadoop.fs.Path(d.reportDir()));
    for (String xml : List.of("coordinator.xml", "workflow.xml")) {
      put(fs, oozieApp.resolve(xml), new org.apache.hadoop.fs.Path(app, xml));
    }
    for (Path jar : List.of(jobJar, fluoJar)) {
      put(fs, jar, new org.apache.hadoop.fs.Path(app, "lib/" + jar.getFileName()));
    }
    put(fs, webindexConf, new org.apache.hadoop.fs.Path(appConf, "webindex.properties"));
    put(
        fs,
        local.resolve("accumulo.password"),
        new org.apache.hadoop.fs.Path(appConf, "accumulo.password"));
    put(fs, jobsConf, new org.apache.hadoop.fs.Path(appConf, "webindex-jobs.xml"));
    fs.setPermission(appConf, FsPermission.valueOf("drwx------"));
    fs.setPermission(
        new org.apache.hadoop.fs.Path(appConf, "accumulo.password"),
        FsPermission.valueOf("-r--------"));
    return d;
  }

  /**
   * Batch {@code seq} of {@link #WEB} (100 page versions in two JSON-lines files) into the raw page
   * store, as docs/input.md tells a writer: under a name that is not a number, then renamed.
   */
  static void writeBatch(String storeRoot, long seq) throws IOException {
    FileSystem fs = cluster.fs();
    org.apache.hadoop.fs.Path tmp =
        new org.apache.hadoop.fs.Path(storeRoot + String.format("/batches/_%05d.tmp", seq));
    for (Map.Entry<String, String> f : WEB.batchFiles(seq, 100, 2).entrySet()) {
      try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path(tmp, f.getKey()))) {
        out.write(f.getValue().getBytes(UTF_8));
      }
    }
    org.apache.hadoop.fs.Path batch =
        new org.apache.hadoop.fs.Path(storeRoot + String.format("/batches/%05d", seq));
    // complete once its marker is there, written after every page file (docs/input.md)
    fs.create(new org.apache.hadoop.fs.Path(tmp, BatchLayout.COMPLETE_MARKER)).close();
    assertTrue(fs.rename(tmp, batch), "rename " + tmp + " to " + batch);
  }

  /**
   * The oracle, a worker and the loader of docs/operations.md, as child processes: the loader once
   * the oracle and the worker say they run (it refuses to start without an oracle).
   */
  static void startServices(Deployment d) throws Exception {
    List<String> conf = List.of("--webindex-conf", d.webindexConf().toString());
    services.add(
        cluster.startHadoopJar(
            "fluo-oracle", "-Xmx256m", fluoJar, "io.webindex.fluo.FluoOracleTool", conf));
    List<String> worker = new ArrayList<>(conf);
    worker.addAll(List.of("--threads", "4"));
    services.add(
        cluster.startHadoopJar(
            "fluo-worker", "-Xmx512m", fluoJar, "io.webindex.fluo.FluoWorkerTool", worker));
    awaitOutput(services.get(0), "Fluo oracle of application " + d.prefix() + " running");
    awaitOutput(services.get(1), "Fluo worker of application " + d.prefix() + " running");
    List<String> loader = new ArrayList<>(conf);
    loader.addAll(List.of("--watch", "2"));
    services.add(
        cluster.startHadoopJar("loader", "-Xmx512m", fluoJar, "io.webindex.fluo.LoadTool", loader));
  }

  /** The wait for a service to start or a batch to be applied (an oracle once took over 90 s). */
  private static final long HANG_GUARD_SECONDS = HangGuard.SLOW_SUITE.toSeconds();

  private static void awaitOutput(MiniOozieCluster.Child c, String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
    while (!readQuietly(c.output()).contains(text)) {
      assertTrue(c.process().isAlive(), () -> c.name() + " ended: " + readQuietly(c.output()));
      assertTrue(
          System.nanoTime() < deadline,
          () ->
              c.name()
                  + " did not say '"
                  + text
                  + "' in "
                  + HANG_GUARD_SECONDS
                  + " s: "
                  + readQuietly(c.output()));
      Thread.sleep(250);
    }
  }

  /**
   * With {@link #SERVICES}: batch {@code seq} arrives, and the test waits until the services have
   * applied it, i.e. until the served table equals the reference index of every batch written.
   */
  static void batchArrivesAndIsApplied(Deployment d, long seq) throws Exception {
    writeBatch(d.storeRoot(), seq);
    List<String> expected = reference(d.storeRoot());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
    String served = d.registry().served().orElseThrow().table();
    List<String> actual = dumpTable(served);
    while (!expected.equals(actual) && System.nanoTime() < deadline) {
      Thread.sleep(1000);
      served = d.registry().served().orElseThrow().table();
      actual = dumpTable(served);
    }
    for (MiniOozieCluster.Child c : services) {
      assertTrue(c.process().isAlive(), () -> c.name() + " ended: " + readQuietly(c.output()));
    }
    assertEquals(
        expected,
        actual,
        "batch "
            + seq
            + " was not applied to the served table "
            + served
            + " in "
            + HANG_GUARD_SECONDS
            + " s (do the services follow the cut-overs?); the loader: "
            + readQuietly(services.get(2).output()));
  }

  private static String readQuietly(Path p) {
    try {
      String s = Files.readString(p);
      return s.length() > 20000 ? s.substring(s.length() - 20000) : s;
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }

  /** The reference index of every batch in the store, in the dump format. */
  static List<String> reference(String storeRoot) throws IOException {
    ReferenceIndex ref = new ReferenceIndex();
    RawPageStore raw = new RawPageStore(storeRoot, cluster.conf());
    PageSink sink =
        new PageSink() {
          @Override
          public void page(Page page) {
            ref.apply(page);
          }

          @Override
          public void reject(Reject reject) {}
        };
    for (RawPageStore.Batch b : raw.batches()) {
      raw.read(b, ReadLimits.DEFAULT, new ReadStats(), sink);
    }
    return DumpFormat.lines(ref.cells());
  }

  private static void put(FileSystem fs, Path from, org.apache.hadoop.fs.Path to)
      throws IOException {
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(from.toUri()), to);
  }

  /**
   * The jobs' Hadoop configuration ({@code jobConf}, see oozie/webindex-jobs.xml.example): the
   * MapReduce jobs on the local job runner of the launcher (see the class comment), polled every 50
   * ms.
   */
  private static Path writeJobsConf(Path local) throws IOException {
    Configuration jobs = new Configuration(false);
    jobs.set("mapreduce.framework.name", "local");
    jobs.set("mapreduce.job.user.classpath.first", "true");
    jobs.set("mapreduce.client.completion.pollinterval", "50");
    jobs.set("mapreduce.client.progressmonitor.pollinterval", "50");
    Path file = local.resolve("webindex-jobs.xml");
    try (OutputStream out = Files.newOutputStream(file)) {
      jobs.writeXml(out);
    }
    return file;
  }

  private static void expectExit(int exit, String name, Path jar, String main, List<String> args)
      throws Exception {
    MiniOozieCluster.Outcome o = cluster.hadoopJar(name, jar, main, args);
    assertEquals(exit, o.exit(), name + ":\n" + o.output());
  }

  /**
   * The submission's properties: oozie/job.properties.example with this cluster's addresses and
   * this deployment's paths; retries off, so that a failing step fails the test at once.
   */
  static Properties jobProperties(Deployment d) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(oozieApp.resolve("job.properties.example"))) {
      p.load(r);
    }
    p.setProperty(OozieClient.USER_NAME, System.getProperty("user.name"));
    p.setProperty("nameNode", cluster.nameNode());
    p.setProperty("resourceManager", cluster.resourceManager());
    p.setProperty("appPath", d.appPath());
    p.setProperty("webindexConf", "${appPath}/conf/webindex.properties");
    p.setProperty("accumuloPasswordFile", "${appPath}/conf/accumulo.password");
    p.setProperty("jobConf", "${appPath}/conf/webindex-jobs.xml");
    p.setProperty("reportDir", d.reportDir());
    p.setProperty("javaHome", System.getProperty("java.home"));
    p.setProperty("reconcileEmbedded", Boolean.toString(RECONCILE_EMBEDDED));
    p.setProperty("reconcileWaitSeconds", "60");
    p.setProperty("retryMax", "0");
    p.setProperty("retryIntervalMinutes", "1");
    return p;
  }

  /**
   * The coordinator with a start in the past: two cycles five minutes apart, the second due in the
   * minute of the submission. By LAST_ONLY the first is skipped (the next cycle's time has passed)
   * and the second runs at once; it takes the consistent route and moves the served table on to its
   * run. (That one cycle waits for the one before it, concurrency 1, is the shipped coordinator's
   * setting, which OozieWorkflowIT reads; the next scenario runs another cycle on this
   * installation.)
   */
  @Test
  @Order(1)
  void theCoordinatorRunsCyclesThatAdvanceTheServedTable() throws Exception {
    Deployment d = deployment;
    if (SERVICES) {
      batchArrivesAndIsApplied(d, 1);
    }
    Instant now = Instant.now();
    // the second cycle's time: this minute (Oozie's times have minutes only), passed or now; its
    // successor's, five minutes later, has not come, so LAST_ONLY keeps it; the end leaves no third
    Instant second = now.truncatedTo(ChronoUnit.MINUTES);
    Instant start = second.minus(5, ChronoUnit.MINUTES);
    Properties p = jobProperties(d);
    p.setProperty("frequency", "5");
    p.setProperty("start", OOZIE_TIME.format(start));
    p.setProperty("end", OOZIE_TIME.format(second.plus(1, ChronoUnit.MINUTES)));
    List<String> runs = List.of(RUN_ID.format(start), RUN_ID.format(second));

    OozieClient coords = cluster.coordinators();
    String coordId = coords.run(p);
    log.info("coordinator {}: cycles {} (start {}, submitted {})", coordId, runs, start, now);

    // follow the coordinator to its end, noting every served table in between
    List<String> served = new ArrayList<>(List.of(d.table("first")));
    CoordinatorJob job = coords.getCoordJobInfo(coordId);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(8);
    try {
      while (!terminal(job.getStatus()) && System.nanoTime() < deadline) {
        Thread.sleep(1000);
        job = coords.getCoordJobInfo(coordId);
        d.registry()
            .served()
            .map(RunRegistry.Served::table)
            .filter(t -> !t.equals(served.get(served.size() - 1)))
            .ifPresent(served::add);
        failFastOnAFailedWorkflow(job);
      }
    } finally {
      if (!terminal(coords.getCoordJobInfo(coordId).getStatus())) {
        coords.kill(coordId); // the next test works on the same installation
      }
    }
    List<CoordinatorAction> actions = new ArrayList<>(job.getActions());
    actions.sort(Comparator.comparingInt(CoordinatorAction::getActionNumber));
    assertEquals(
        CoordinatorJob.Status.SUCCEEDED, job.getStatus(), "the coordinator: " + describe(job));
    assertEquals(2, actions.size(), "two cycles materialised: " + describe(job));
    assertEquals(
        List.of(CoordinatorAction.Status.SKIPPED, CoordinatorAction.Status.SUCCEEDED),
        actions.stream().map(CoordinatorAction::getStatus).toList(),
        "LAST_ONLY skips the cycle whose successor is due: " + describe(job));

    for (int i = 1; i < runs.size(); i++) {
      CoordinatorAction a = actions.get(i);
      String runId = runs.get(i);
      assertEquals(runId, RUN_ID.format(a.getNominalTime().toInstant()), describe(job));
      WorkflowJob wf = cluster.workflows().getJobInfo(a.getExternalId());
      assertWorkflow(wf, WorkflowJob.Status.SUCCEEDED, CONSISTENT_ROUTE);
      assertEquals("webindex-cycle-" + runId, wf.getAppName(), "the run id the cycle got");
      assertEquals(
          RunRecord.Status.SUCCEEDED, d.registry().get(runId).orElseThrow().status(), runId);
      JsonNode check = report(d, runId, "check");
      assertEquals("CONSISTENT", check.path("verdict").asText(), check.toString());
      assertEquals(d.table(runId), check.path("tables").path("expected").asText());
      assertFalse(reportExists(d, runId, "recheck"), "no recheck after a consistent check");
    }
    assertFalse(d.registry().get(runs.get(0)).isPresent(), "the skipped cycle ran nothing");

    // the served table went first -> the second cycle's run
    assertEquals(
        List.of(d.table("first"), d.table(runs.get(1))), served, "the served tables, in order");
    RunRegistry.Served last = d.registry().served().orElseThrow();
    assertEquals(runs.get(1), last.runId());
    assertEquals(d.table("first"), last.previousTable());
  }

  /**
   * A wrong cell in the served table before a cycle: the cycle's check finds it (exit 1) and the
   * workflow takes the repair branch (reconcile, a fresh recompute {@code <run>_verify}, the
   * recheck against it). A second wrong cell, written into the new served table while the repair is
   * being verified, is found by the recheck: the workflow ends at the kill node whose message is
   * the recheck report's path. Submitted by itself (no coordinator), on the installation the
   * coordinator test left.
   */
  @Test
  @Order(2)
  void anInconsistencyTakesTheRepairBranchAndAnUnprovenRepairTheKillNode() throws Exception {
    Deployment d = deployment;
    if (SERVICES) {
      batchArrivesAndIsApplied(d, 2);
    }
    String served = d.registry().served().orElseThrow().table();
    Key altered = alterOneAnchorText(served);

    Properties p = jobProperties(d);
    p.setProperty(OozieClient.APP_PATH, "${appPath}");
    p.setProperty("runId", "repair");
    OozieClient wfs = cluster.workflows();
    String wfId = wfs.run(p);
    log.info("workflow {} (run repair), {} altered in {}", wfId, altered, served);
    // once the cut-over is done and the repair is being verified, the new served table is damaged
    // too: the proof of the repair must find it, and the workflow end at the kill node
    Key second = null;
    long deadline = System.nanoTime() + Duration.ofMinutes(8).toNanos();
    while (second == null && System.nanoTime() < deadline) {
      WorkflowJob now = wfs.getJobInfo(wfId);
      boolean verifying =
          now.getActions().stream()
              .anyMatch(
                  a ->
                      a.getName().equals("verify-recompute")
                          && a.getStatus() != WorkflowAction.Status.OK);
      if (verifying) {
        String repaired = d.registry().served().orElseThrow().table();
        assertNotEquals(served, repaired, "the cut-over came before the verification");
        second = alterOneAnchorText(repaired);
        log.info("{} altered in {} while the repair is verified", second, repaired);
      } else if (WF_DONE.contains(now.getStatus())) {
        break;
      } else {
        Thread.sleep(500);
      }
    }
    WorkflowJob wf = waitFor(wfId, Duration.ofMinutes(8));
    assertTrue(second != null, () -> "the repair was never being verified: " + explain(wf));
    assertWorkflow(wf, WorkflowJob.Status.KILLED, STILL_INCONSISTENT_ROUTE);
    String killMessage =
        wf.getActions().stream()
            .filter(a -> a.getName().equals("still-inconsistent"))
            .findFirst()
            .orElseThrow()
            .getErrorMessage();
    assertTrue(
        killMessage != null && killMessage.contains("/repair/recheck/check.html"),
        "the kill message names the recheck's report: " + killMessage);

    JsonNode check = report(d, "repair", "check");
    assertEquals("INCONSISTENT", check.path("verdict").asText(), check.toString());
    assertEquals(served, check.path("tables").path("actual").asText());
    assertEquals(1, check.path("totals").path("differences").asInt(), check.toString());
    assertEquals(0, check.path("totals").path("invariantViolations").asInt(), check.toString());
    assertTrue(
        check.path("samples").toString().contains(altered.getRow().toString()),
        "the report names the altered row " + altered.getRow() + ": " + check);
    JsonNode recheck = report(d, "repair", "recheck");
    assertEquals("INCONSISTENT", recheck.path("verdict").asText(), recheck.toString());
    assertEquals("repair_verify", recheck.path("runId").asText(), "a fresh recompute is the truth");
    assertTrue(
        recheck.path("samples").toString().contains(second.getRow().toString()),
        "the recheck names the row damaged after the cut-over " + second.getRow() + ": " + recheck);
    RunRegistry.Served now = d.registry().served().orElseThrow();
    assertEquals("repair", now.runId(), "reconcile cut over to the run");
    assertEquals(served, now.previousTable());
  }

  /**
   * Writes a wrong anchor text over the first {@code inlinks} cell of {@code table} (a newer
   * version of the cell): one cell differs, no invariant of the table changes.
   */
  private static Key alterOneAnchorText(String table) throws Exception {
    Key victim = null;
    String before = null;
    try (Scanner s = connector().createScanner(table, Authorizations.EMPTY)) {
      s.setRange(Range.prefix("p:"));
      for (Map.Entry<Key, Value> e : s) {
        if (e.getKey().getColumnFamily().toString().equals("inlinks")) {
          victim = e.getKey();
          before = e.getValue().toString();
          break;
        }
      }
    }
    assertTrue(victim != null, "an inlinks cell in " + table);
    String wrong = "injected wrong anchor";
    assertNotEquals(before, wrong);
    BatchWriter w = connector().createBatchWriter(table, new BatchWriterConfig());
    Mutation m = new Mutation(victim.getRow());
    m.put(
        victim.getColumnFamily(),
        victim.getColumnQualifier(),
        victim.getColumnVisibilityParsed(),
        victim.getTimestamp() + 1,
        new Value(wrong.getBytes(UTF_8)));
    w.addMutation(m);
    w.close();
    return victim;
  }

  // ---------------------------------------------------------------- Oozie's view

  private static final Set<WorkflowJob.Status> WF_DONE =
      EnumSet.of(
          WorkflowJob.Status.SUCCEEDED, WorkflowJob.Status.FAILED, WorkflowJob.Status.KILLED);

  private static boolean terminal(CoordinatorJob.Status s) {
    return switch (s) {
      case SUCCEEDED, DONEWITHERROR, FAILED, KILLED, IGNORED -> true;
      default -> false;
    };
  }

  private static WorkflowJob waitFor(String wfId, Duration timeout) throws Exception {
    OozieClient wfs = cluster.workflows();
    long deadline = System.nanoTime() + timeout.toNanos();
    WorkflowJob wf = wfs.getJobInfo(wfId);
    while (!WF_DONE.contains(wf.getStatus()) && System.nanoTime() < deadline) {
      Thread.sleep(1000);
      wf = wfs.getJobInfo(wfId);
    }
    return wf;
  }

  /** A failed cycle fails the test now, with its route and its launchers' output. */
  private static void failFastOnAFailedWorkflow(CoordinatorJob job) throws Exception {
    for (CoordinatorAction a : job.getActions()) {
      if (a.getExternalId() != null
          && EnumSet.of(CoordinatorAction.Status.FAILED, CoordinatorAction.Status.KILLED)
              .contains(a.getStatus())) {
        WorkflowJob wf = cluster.workflows().getJobInfo(a.getExternalId());
        throw new AssertionError("cycle " + a.getActionNumber() + " failed: " + explain(wf));
      }
    }
  }

  private static void assertWorkflow(
      WorkflowJob wf, WorkflowJob.Status status, List<String> expectedRoute) {
    Route route = Route.of(wf);
    assertEquals(status, wf.getStatus(), () -> explain(wf));
    List<String> nodes = new ArrayList<>(route.nodes());
    if (status == WorkflowJob.Status.KILLED && !nodes.isEmpty()) {
      // the kill node itself carries Oozie's kill code, not an exit code
      nodes.set(nodes.size() - 1, route.steps().get(nodes.size() - 1).node());
    }
    assertEquals(expectedRoute, nodes, () -> "the route of " + explain(wf));
    for (Route.Step s : route.steps()) {
      if (JAVA_ACTIONS.contains(s.node())) {
        WorkflowAction a =
            wf.getActions().stream().filter(x -> x.getName().equals(s.node())).findFirst().get();
        assertTrue(
            a.getExternalId() != null && a.getExternalId().startsWith("application_"),
            s.node() + " ran as a YARN application: " + a.getExternalId());
      }
    }
  }

  /** The route of a workflow, and every failed action's error and its launcher's output. */
  private static String explain(WorkflowJob wf) {
    StringBuilder sb = new StringBuilder();
    sb.append(wf.getId())
        .append(' ')
        .append(wf.getAppName())
        .append(' ')
        .append(wf.getStatus())
        .append(": ")
        .append(Route.of(wf));
    for (WorkflowAction a : wf.getActions()) {
      if (a.getErrorCode() != null || a.getStatus() == WorkflowAction.Status.FAILED) {
        sb.append("\n  ")
            .append(a.getName())
            .append(' ')
            .append(a.getStatus())
            .append(" error ")
            .append(a.getErrorCode())
            .append(": ")
            .append(a.getErrorMessage())
            .append('\n')
            .append(cluster.containerLogs(a.getExternalId()));
      }
    }
    return sb.toString();
  }

  private static String describe(CoordinatorJob job) {
    StringBuilder sb = new StringBuilder(job.getId() + " " + job.getStatus());
    for (CoordinatorAction a : job.getActions()) {
      sb.append("\n  #")
          .append(a.getActionNumber())
          .append(' ')
          .append(a.getNominalTime() == null ? "?" : a.getNominalTime().toInstant())
          .append(' ')
          .append(a.getStatus())
          .append(' ')
          .append(Optional.ofNullable(a.getExternalId()).orElse(""));
    }
    return sb.toString();
  }

  // ---------------------------------------------------------------- the reports on HDFS

  private static org.apache.hadoop.fs.Path reportPath(Deployment d, String runId, String which) {
    return new org.apache.hadoop.fs.Path(d.reportDir() + "/" + runId + "/" + which + "/check.json");
  }

  private static boolean reportExists(Deployment d, String runId, String which) throws IOException {
    return cluster.fs().exists(reportPath(d, runId, which));
  }

  private static JsonNode report(Deployment d, String runId, String which) throws IOException {
    try (InputStream in = cluster.fs().open(reportPath(d, runId, which))) {
      return JSON.readTree(in);
    }
  }
}
