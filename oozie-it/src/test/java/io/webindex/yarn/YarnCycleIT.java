package io.webindex.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.BatchLayout;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.synth.RandomWeb;
import io.webindex.oozie.TestJvms;
import io.webindex.store.RawPageStore;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cycle's MapReduce steps on a real distributed engine: Hadoop's mini-cluster (MiniDFS and
 * MiniMRYarnCluster, one for the class) with MiniAccumulo. Every step runs from mr-jobs' shaded job
 * jar in a child JVM the way {@code hadoop jar} runs it ({@link org.apache.hadoop.util.RunJar} with
 * the cluster's class path and configuration, the job jar on its own class loader), so each job is
 * a YARN application whose jar is the job jar: webindex's job classes are on no other class path of
 * the cluster (this module's test class path does not hold mr-jobs, and the containers get that
 * class path plus the job's jar).
 *
 * <p>The raw pages (JSON lines, one file gzipped, and a Common Crawl WAT file) are on HDFS. The
 * work directory, where the RFiles are written and bulk imported from, is on the local file system:
 * MiniAccumulo's only volume is local, and Accumulo 1.10 imports from its own file systems (on a
 * cluster both are the one HDFS).
 */
@Timeout(value = 45, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@SharedCluster
class YarnCycleIT extends AccumuloITBase {
  private static final Logger log = LoggerFactory.getLogger(YarnCycleIT.class);

  private static Path dir;
  private static MiniDFSCluster dfs;
  private static MiniMRYarnCluster yarn;
  private static Path hadoopConfDir;
  private static YarnClient yarnClient;

  @BeforeAll
  static void startHadoop() throws Exception {
    long t0 = System.nanoTime();
    dir =
        Files.createTempDirectory(Files.createDirectories(Paths.get("target")), "yarn-it-")
            .toAbsolutePath();
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toAbsolutePath().toString());
    dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    dfs.waitActive();
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    // small containers: the application master and one map and one reduce task at a time fit
    conf.setInt("yarn.nodemanager.resource.memory-mb", 2048);
    conf.setInt("yarn.scheduler.minimum-allocation-mb", 128);
    conf.setInt("yarn.scheduler.maximum-allocation-mb", 1024);
    conf.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx384m " + TestJvms.CONTAINER);
    conf.setInt("mapreduce.map.memory.mb", 384);
    conf.set("mapreduce.map.java.opts", "-Xmx256m " + TestJvms.CONTAINER);
    conf.setInt("mapreduce.reduce.memory.mb", 384);
    conf.set("mapreduce.reduce.java.opts", "-Xmx256m " + TestJvms.CONTAINER);
    conf.setInt("mapreduce.task.io.sort.mb", 32);
    conf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);
    // no speculative attempts: on a busy 2-core machine YARN speculates on the reducer whose first
    // attempt the test fails on purpose, and the losing attempt's error (its directory removed
    // under
    // it) would be a second recorded failure where the test proves exactly one failed and retried
    conf.setBoolean("mapreduce.map.speculative", false);
    conf.setBoolean("mapreduce.reduce.speculative", false);
    // containers asked for and handed out every 100 ms, not every second
    conf.setInt("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 100);
    conf.setInt("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 100);
    // the client: poll for completion every 100 ms, not every 5 s
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    conf.setInt("mapreduce.client.progressmonitor.pollinterval", 100);
    yarn = new MiniMRYarnCluster("yarn-it", 1);
    yarn.init(conf);
    yarn.start();
    hadoopConfDir = Files.createDirectories(dir.resolve("hadoop-conf"));
    // the cluster's whole configuration as each *-site.xml: a site file overrides only the defaults
    // loaded before it (mapred-default.xml sets mapreduce.framework.name=local after core-site.xml)
    for (String site : List.of("core", "hdfs", "mapred", "yarn")) {
      try (OutputStream out = Files.newOutputStream(hadoopConfDir.resolve(site + "-site.xml"))) {
        yarn.getConfig().writeXml(out);
      }
    }
    yarnClient = YarnClient.createYarnClient();
    yarnClient.init(yarn.getConfig());
    yarnClient.start();
    log.info(
        "MiniDFS {} and MiniMRYarnCluster up in {} ms",
        dfs.getFileSystem().getUri(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
  }

  @AfterAll
  static void stopHadoop() throws IOException {
    if (yarnClient != null) {
      yarnClient.stop();
    }
    if (yarn != null) {
      yarn.stop();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  /** How long a {@code hadoop jar} child may run before the test takes it for hung. */
  private static final int HANG_GUARD_MINUTES = 25;

  /** The last {@code lines} lines of a file, or why it cannot be read. */
  static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | java.io.UncheckedIOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** What a child JVM did. */
  record Outcome(int exit, String output) {}

  /**
   * {@code hadoop jar <job jar> <main> <args>}: RunJar in a child JVM with the cluster's class path
   * and its configuration directory first.
   */
  static Outcome hadoopJar(String name, String main, List<String> args) throws Exception {
    Path jobJar = Paths.get(System.getProperty("webindex.job.jar"));
    assertTrue(Files.isRegularFile(jobJar), "the job jar " + jobJar + " (build mr-jobs first)");
    String classPath =
        hadoopConfDir.toAbsolutePath() + File.pathSeparator + System.getProperty("java.class.path");
    List<String> jvm = new ArrayList<>();
    jvm.add("-Xmx512m");
    jvm.addAll(List.of(TestJvms.CONTAINER.split(" ")));
    jvm.add("-cp");
    jvm.add(classPath);
    // an argument file: the class path is longer than one command-line argument may be
    Path argFile = dir.resolve(name + ".jvm-args");
    Files.write(
        argFile,
        jvm.stream().map(a -> "\"" + a.replace("\\", "\\\\") + "\"").collect(Collectors.toList()));
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("@" + argFile);
    cmd.add("org.apache.hadoop.util.RunJar");
    cmd.add(jobJar.toString());
    cmd.add(main);
    cmd.addAll(args);
    Path output = dir.resolve(name + ".out");
    long t0 = System.nanoTime();
    ProcessBuilder pb = new ProcessBuilder(cmd);
    // as docs/operations.md says: the job jar gets its own class loader, its libraries first
    pb.environment().put("HADOOP_USE_CLIENT_CLASSLOADER", "true");
    Process p =
        pb.redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .directory(dir.toFile())
            .start();
    // a guard against a hang, not a time limit: alone a step takes about a minute, but in a full
    // suite run its containers share the two cores with two other modules' clusters (a recompute
    // on YARN took more than 5 minutes in CI's run of stop 47, 9 min 17 s of job time in stop 48's)
    if (!p.waitFor(HANG_GUARD_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
      throw new AssertionError(
          name
              + " did not end in "
              + HANG_GUARD_MINUTES
              + " minutes; the end of its output ("
              + output
              + "):\n"
              + tail(output, 40));
    }
    log.info(
        "{} ({}): exit {} in {} ms",
        name,
        main,
        p.exitValue(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    return new Outcome(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  static void put(FileSystem fs, String path, byte[] content, boolean gzip) throws IOException {
    try (OutputStream out =
        gzip
            ? new GZIPOutputStream(fs.create(new org.apache.hadoop.fs.Path(path + ".gz")))
            : fs.create(new org.apache.hadoop.fs.Path(path))) {
      out.write(content);
    }
  }

  /** The successful YARN applications whose name starts with {@code prefix}. */
  static List<ApplicationReport> succeededApplications(String prefix) throws Exception {
    List<ApplicationReport> out = new ArrayList<>();
    for (ApplicationReport r :
        yarnClient.getApplications(EnumSet.of(YarnApplicationState.FINISHED))) {
      if (r.getName().startsWith(prefix)
          && r.getFinalApplicationStatus() == FinalApplicationStatus.SUCCEEDED) {
        out.add(r);
      }
    }
    return out;
  }

  /** The independent oracle: core's in-memory reference index of every page in the store. */
  record Reference(List<String> cells, long pages, long watPages) {}

  static Reference reference(String storeRoot) throws IOException {
    ReferenceIndex ref = new ReferenceIndex();
    long[] pages = new long[2];
    RawPageStore raw = new RawPageStore(storeRoot, yarn.getConfig());
    PageSink sink =
        new PageSink() {
          @Override
          public void page(Page page) {
            ref.apply(page);
            pages[0]++;
            if (page.version().file().contains(".wat.")) {
              pages[1]++;
            }
          }

          @Override
          public void reject(Reject reject) {}
        };
    for (RawPageStore.Batch b : raw.batches()) {
      raw.read(b, ReadLimits.DEFAULT, new ReadStats(), sink);
    }
    return new Reference(DumpFormat.lines(ref.cells()), pages[0], pages[1]);
  }

  /**
   * Recompute on YARN from the job jar with a reduce task of the write job failing in its first
   * attempt (YARN runs it again); the table equals the reference index cell for cell. Then the
   * check, in mapreduce mode on YARN, finds the run and a clone of its tables consistent. (That the
   * job jar's check finds a difference is OozieCycleIT's repair branch; the MapReduce check's
   * findings, CheckIT's.)
   */
  @Test
  void cycleStepsRunAsYarnApplicationsFromTheJobJar() throws Exception {
    String prefix = newTableName("wy");
    String storeRoot = dfs.getFileSystem().getUri() + "/webindex/store";
    Path local = Files.createDirectories(dir.resolve("webindex"));
    Path webindexConf =
        writeWebindexConf(
            local,
            prefix,
            // one tablet, so one reduce task per job and fewer files for the check's map tasks:
            // every task is a container JVM of its own, and the three jobs and the check took 33
            // containers with two (about 3 s of CPU each on the 2-core machine); the partitioning
            // itself is RecomputeIT's
            "webindex.recompute.tablets=1",
            "webindex.work.dir=" + local.resolve("work").toUri());

    FileSystem fs = dfs.getFileSystem();
    RandomWeb web = new RandomWeb(2027, 120);
    // 2 batches of 100 page versions in one JSON-lines file each, the second one gzipped (a map
    // task per file)
    for (long b = 0; b < 2; b++) {
      for (Map.Entry<String, String> f : web.batchFiles(b, 100, 1).entrySet()) {
        put(
            fs,
            storeRoot + String.format("/batches/%05d/", b) + f.getKey(),
            f.getValue().getBytes(StandardCharsets.UTF_8),
            b == 1);
      }
    }
    put(
        fs,
        storeRoot + "/batches/00000/wat/sample.wat.warc",
        Files.readAllBytes(Paths.get(System.getProperty("webindex.wat.sample"))),
        false);
    // each batch complete: its _SUCCESS marker after every file, as `hdfs dfs -touchz` writes it
    for (long b = 0; b < 2; b++) {
      put(
          fs,
          storeRoot + String.format("/batches/%05d/", b) + BatchLayout.COMPLETE_MARKER,
          new byte[0],
          false);
    }

    // the tasks' class path as docs/operations.md sets it: the job jar's libraries first
    List<String> common =
        List.of(
            "-D",
            "mapreduce.job.user.classpath.first=true",
            "-D",
            "webindex.store.root=" + storeRoot,
            "--webindex-conf",
            webindexConf.toString());
    String recompute = "io.webindex.mr.RecomputeTool";

    List<String> onYarn = new ArrayList<>(common);
    onYarn.addAll(0, List.of("-D", "webindex.mr.test.fault=write:once"));
    onYarn.addAll(List.of("--run", "yarn"));
    Outcome y = hadoopJar("recompute-yarn", recompute, onYarn);
    assertEquals(0, y.exit(), y.output());
    assertTrue(y.output().contains("run yarn SUCCEEDED"), y.output());

    // the three jobs of the YARN run were YARN applications that succeeded
    assertEquals(3, succeededApplications("webindex recompute").size(), "recompute on YARN");
    RunRegistry registry = new RunRegistry(connector(), prefix + "_meta");
    RunRecord yarnRun = registry.get("yarn").orElseThrow();
    assertEquals(RunRecord.Status.SUCCEEDED, yarnRun.status());
    // the failed first attempt of the write job's reduce task 0 recorded its exception, and YARN
    // ran the task again: exactly one attempt failed
    Path writeErrors = Paths.get(URI.create(yarnRun.workDir())).resolve("task-errors/write");
    List<Path> failed;
    try (Stream<Path> files = Files.list(writeErrors)) {
      failed = files.filter(f -> !f.getFileName().toString().startsWith(".")).toList();
    }
    assertEquals(1, failed.size(), failed.toString());
    assertTrue(
        failed.get(0).getFileName().toString().matches("attempt_\\d+_\\d+_r_000000_0"),
        failed.toString());
    assertTrue(Files.readString(failed.get(0)).contains("injected fault"));

    List<String> yarnTable = dumpTable(yarnRun.table());
    assertTrue(yarnTable.size() > 500, "a table worth comparing: " + yarnTable.size());
    Reference ref = reference(storeRoot);
    assertEquals(ref.cells(), yarnTable, "the reference index");
    assertTrue(ref.watPages() > 0, "WAT pages in the input");
    assertEquals(ref.pages(), yarnRun.counters().get("read.PAGES"), "every page read, WAT too");

    // the table the check compares with the run: a clone of it with its history and frontier
    // tables (a recompute on the local job runner from the job jar is OozieCycleIT's, one's tables
    // against the reference RecomputeIT's)
    String actual = prefix + "_actual";
    for (UnaryOperator<String> t :
        List.<UnaryOperator<String>>of(
            x -> x, HistorySchema::historyTable, FrontierSchema::frontierTable)) {
      connector()
          .tableOperations()
          .clone(t.apply(yarnRun.table()), t.apply(actual), true, Map.of(), Set.of());
    }

    // the check in mapreduce mode, on YARN: consistent
    List<String> check = new ArrayList<>(common);
    check.addAll(
        List.of(
            "--run",
            "yarn",
            "--actual",
            actual,
            "--mode",
            "mapreduce",
            "--out",
            Files.createDirectories(local.resolve("check-ok")).toString()));
    Outcome ok = hadoopJar("check-consistent", "io.webindex.check.CheckTool", check);
    assertEquals(0, ok.exit(), ok.output());
    assertTrue(ok.output().contains("check CONSISTENT"), ok.output());
    assertTrue(ok.output().contains("(mapreduce)"), ok.output());
    List<ApplicationReport> checks = succeededApplications("webindex check");
    assertEquals(1, checks.size(), "the check job on YARN");
    // its containers: the application master, one map task (a map task per tablet range of the
    // two tables, one tablet here; the schema's row-range prefixes cut its work, not its tasks) and
    // one reduce task (one per tablet)
    assertEquals(
        3, containers(checks.get(0).getApplicationId().toString()), "the check's containers");
  }

  /** The containers YARN ran for application {@code appId}, by their log directories. */
  static long containers(String appId) throws IOException {
    try (Stream<Path> dirs = Files.walk(Paths.get("target", "test", "data", "yarn-it"))) {
      return dirs.filter(
              d ->
                  Files.isDirectory(d)
                      && d.getFileName().toString().startsWith("container_")
                      && d.getParent().getFileName().toString().equals(appId))
          .map(d -> d.getFileName().toString())
          .distinct()
          .count();
    }
  }
}
