package io.webindex.oozie;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.oozie.client.OozieClient;
import org.apache.oozie.local.LocalOozie;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Oozie 5.2.1's own engine ({@link LocalOozie}: the Oozie services with an in-memory Derby database
 * and the callback servlet) on Hadoop's mini-cluster (MiniDFS with one data node, MiniMRYarnCluster
 * with one node manager), all in this JVM; Oozie's launchers run as YARN applications in their own
 * JVMs.
 *
 * <p>Set up as an operator sets up a cluster: the Hadoop configuration directory Oozie reads
 * ({@code oozie.service.HadoopAccessorService.hadoop.configurations}), the class path of YARN
 * applications ({@code yarn.application.classpath}: Hadoop's jars only, see {@link
 * ClassPaths#clusterClassPath()}), the submitting user allowed to impersonate ({@code
 * hadoop.proxyuser.*}, Oozie submits as a proxy user), and Oozie's share lib with its launcher jar
 * installed on HDFS as {@code oozie-setup.sh sharelib create} does ({@code
 * <system.libpath>/lib_<timestamp>/oozie/}). No webindex class is on the cluster's class path.
 */
final class MiniOozieCluster implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MiniOozieCluster.class);

  private final Path dir;
  private final MiniDFSCluster dfs;
  private final MiniMRYarnCluster yarn;
  private final Path hadoopConfDir;

  private MiniOozieCluster(
      Path dir, MiniDFSCluster dfs, MiniMRYarnCluster yarn, Path hadoopConfDir) {
    this.dir = dir;
    this.dfs = dfs;
    this.yarn = yarn;
    this.hadoopConfDir = hadoopConfDir;
  }

  /** Starts HDFS, YARN and Oozie under {@code dir}. */
  static MiniOozieCluster start(Path dir) throws Exception {
    long t0 = System.nanoTime();
    String user = System.getProperty("user.name");
    Path hadoopConfDir = Files.createDirectories(dir.resolve("hadoop-conf"));
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    // Oozie acts for the workflow's user through a proxy user, also when both are the same
    conf.set("hadoop.proxyuser." + user + ".hosts", "*");
    conf.set("hadoop.proxyuser." + user + ".groups", "*");
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    MiniMRYarnCluster yarn = null;
    try {
      dfs.waitActive();
      conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
      // one launcher at a time (the workflow asks for 2 GB), small containers otherwise
      conf.setInt("yarn.nodemanager.resource.memory-mb", 4096);
      conf.setInt("yarn.scheduler.minimum-allocation-mb", 128);
      conf.setInt("yarn.scheduler.maximum-allocation-mb", 2048);
      conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 1.0f);
      conf.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
      conf.setInt("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 100);
      conf.setInt("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 100);
      // the cluster's options for every MapReduce application master: only the fast JVM flags
      conf.set("yarn.app.mapreduce.am.admin-command-opts", TestJvms.FAST);
      // and for every container, Oozie's launchers too, as a NodeManager's administrator sets them:
      // a launcher's command line has only the workflow's <java-opts> (Oozie 5 does not prepend
      // the application masters' options when the workflow sets its own), and without these it ran
      // with the JVM's defaults, C2 and G1, for its few seconds of work
      conf.set(
          "yarn.nodemanager.admin-env",
          "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX,JDK_JAVA_OPTIONS=" + TestJvms.FAST);
      conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
      conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx384m " + TestJvms.CONTAINER);
      conf.set("mapreduce.map.java.opts", "-Xmx256m " + TestJvms.CONTAINER);
      conf.set("mapreduce.reduce.java.opts", "-Xmx256m " + TestJvms.CONTAINER);
      conf.set(
          "yarn.application.classpath",
          Stream.concat(Stream.of(hadoopConfDir), ClassPaths.clusterClassPath().stream())
              .map(Path::toString)
              .collect(Collectors.joining(",")));
      yarn = new MiniMRYarnCluster("oozie-it", 1);
      yarn.init(conf);
      yarn.start();
      // the cluster's whole configuration as each *-site.xml (a site file overrides only the
      // defaults loaded before it)
      for (String site : List.of("core", "hdfs", "mapred", "yarn")) {
        try (OutputStream out = Files.newOutputStream(hadoopConfDir.resolve(site + "-site.xml"))) {
          yarn.getConfig().writeXml(out);
        }
      }
      MiniOozieCluster c = new MiniOozieCluster(dir, dfs, yarn, hadoopConfDir);
      c.prepareHdfs(user);
      c.startOozie(user);
      log.info(
          "MiniDFS {}, MiniMRYarnCluster {} and LocalOozie up in {} ms",
          c.nameNode(),
          c.resourceManager(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      return c;
    } catch (Exception | Error e) {
      if (LocalOozie.isStarted()) {
        LocalOozie.stop();
      }
      if (yarn != null) {
        yarn.stop();
      }
      dfs.shutdown();
      throw e;
    }
  }

  /** {@code /user/<user>} and {@code /tmp} as on a cluster, and Oozie's share lib. */
  private void prepareHdfs(String user) throws IOException {
    FileSystem fs = fs();
    for (String d : List.of("/tmp", "/user")) {
      fs.mkdirs(new org.apache.hadoop.fs.Path(d));
      fs.setPermission(new org.apache.hadoop.fs.Path(d), FsPermission.valueOf("drwxrwxrwx"));
    }
    fs.mkdirs(new org.apache.hadoop.fs.Path("/user/" + user));
    // what `oozie-setup.sh sharelib create` installs for java actions: the launcher, in oozie/
    SimpleDateFormat stamp = new SimpleDateFormat("yyyyMMddHHmmss");
    stamp.setTimeZone(TimeZone.getTimeZone("UTC"));
    Path launcher = Path.of(System.getProperty("webindex.oozie.launcher.jar"));
    if (!Files.isRegularFile(launcher)) {
      throw new IllegalStateException("no Oozie launcher jar at " + launcher);
    }
    org.apache.hadoop.fs.Path oozieLib =
        new org.apache.hadoop.fs.Path(
            shareLibRoot(user) + "/lib_" + stamp.format(new Date()) + "/oozie");
    fs.mkdirs(oozieLib);
    fs.copyFromLocalFile(
        new org.apache.hadoop.fs.Path(launcher.toUri()),
        new org.apache.hadoop.fs.Path(oozieLib, launcher.getFileName().toString()));
  }

  private String shareLibRoot(String user) {
    return nameNode() + "/user/" + user + "/share/lib";
  }

  private void startOozie(String user) throws Exception {
    Path home = Files.createDirectories(dir.resolve("oozie"));
    Path confDir = Files.createDirectories(home.resolve("conf"));
    Path data = Files.createDirectories(home.resolve("data"));
    // per-action-type defaults of the server (none here), as an installation has the directory
    Files.createDirectories(confDir.resolve("action-conf"));
    Configuration site = new Configuration(false);
    site.set("oozie.service.JPAService.create.db.schema", "true");
    site.set("oozie.service.JPAService.jdbc.driver", "org.apache.derby.jdbc.EmbeddedDriver");
    site.set("oozie.service.JPAService.jdbc.url", "jdbc:derby:memory:oozie-it;create=true");
    site.set("oozie.service.HadoopAccessorService.hadoop.configurations", "*=" + hadoopConfDir);
    site.set("oozie.service.WorkflowAppService.system.libpath", shareLibRoot(user));
    site.set("oozie.service.ShareLibService.fail.fast.on.startup", "true");
    // the JDK's XML parser: Oozie names Xerces (left out here), and would set it for the whole JVM
    site.set("oozie.javax.xml.parsers.DocumentBuilderFactory", " ");
    // a stopped test does not wait for the command queue
    site.set("oozie.service.CallableQueueService.queue.awaitTermination.timeout.seconds", "1");
    // launchers report their end through the callback; the checker is the fallback
    site.set("oozie.service.ActionCheckerService.action.check.interval", "5");
    site.set("oozie.service.ActionCheckerService.action.check.delay", "10");
    // coordinator and job states follow their actions within a second, not a minute (the test
    // waits for the coordinator's end before its next scenario)
    site.set("oozie.service.StatusTransitService.statusTransit.interval", "1");
    site.set("oozie.service.RecoveryService.interval", "10");
    try (OutputStream out = Files.newOutputStream(confDir.resolve("oozie-site.xml"))) {
      site.writeXml(out);
    }
    Files.copy(
        MiniOozieCluster.class.getResourceAsStream("/oozie-it-log4j.properties"),
        confDir.resolve("oozie-it-log4j.properties"));
    // Derby's own log, else derby.log in the working directory (the module's)
    System.setProperty("derby.stream.error.file", home.resolve("derby.log").toString());
    System.setProperty("oozie.home.dir", home.toString());
    System.setProperty("oozie.config.dir", confDir.toString());
    System.setProperty("oozie.data.dir", data.toString());
    System.setProperty("oozie.log.dir", home.resolve("logs").toString());
    System.setProperty("oozie.log4j.file", "oozie-it-log4j.properties");
    System.setProperty("oozie-it.log", home.resolve("logs").resolve("oozie.log").toString());
    LocalOozie.start();
  }

  FileSystem fs() throws IOException {
    return dfs.getFileSystem();
  }

  String nameNode() {
    try {
      return fs().getUri().toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  String resourceManager() {
    return yarn.getConfig().get("yarn.resourcemanager.address");
  }

  Configuration conf() {
    return yarn.getConfig();
  }

  Path hadoopConfDir() {
    return hadoopConfDir;
  }

  /** A client for workflow jobs, as the submitting user. */
  OozieClient workflows() {
    return LocalOozie.getClient();
  }

  /** A client for coordinator jobs, as the submitting user. */
  OozieClient coordinators() {
    return LocalOozie.getCoordClient();
  }

  /**
   * The output of YARN application {@code appId}'s containers (an Oozie launcher: the Tool's
   * output), for failure messages.
   */
  String containerLogs(String appId) {
    if (appId == null || appId.isEmpty()) {
      return "(no YARN application)";
    }
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.walk(Path.of("target", "test", "data", "oozie-it"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String p = f.toString();
        if (p.contains(File.separator + appId + File.separator)
            && (p.endsWith("stdout") || p.endsWith("stderr") || p.endsWith("syslog"))) {
          String text = Files.readString(f);
          sb.append("==== ")
              .append(p)
              .append('\n')
              .append(text.length() > 20000 ? text.substring(text.length() - 20000) : text)
              .append('\n');
        }
      }
    } catch (IOException e) {
      sb.append("(cannot read the container logs: ").append(e).append(')');
    }
    return sb.toString();
  }

  /** What a child JVM did: its exit status and its output. */
  record Outcome(int exit, String output) {}

  /** A child JVM that runs {@code hadoop jar}, and the file its output goes to. */
  record Child(String name, Process process, Path output) {
    /** Stops it as a supervisor does (SIGTERM: its shutdown hooks run), then for good. */
    void stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * {@code hadoop jar <jar> <main> <args>} on this cluster, and waits for it: {@link
   * org.apache.hadoop.util.RunJar} in a child JVM whose class path is the cluster's configuration
   * directory and Hadoop's jars, with {@code HADOOP_USE_CLIENT_CLASSLOADER=true} (the jar on its
   * own class loader, its libraries first), as docs/operations.md runs every step.
   */
  Outcome hadoopJar(String name, Path jar, String main, List<String> args) throws Exception {
    long t0 = System.nanoTime();
    Child c = startHadoopJar(name, "-Xmx512m", jar, main, args);
    if (!c.process().waitFor(5, TimeUnit.MINUTES)) {
      c.process().destroyForcibly();
      throw new AssertionError(name + " did not end in 5 minutes; see " + c.output());
    }
    log.info(
        "{} ({}): exit {} in {} ms",
        name,
        main,
        c.process().exitValue(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    return new Outcome(c.process().exitValue(), Files.readString(c.output()));
  }

  /** As {@link #hadoopJar}, without waiting: for a long-running service. */
  Child startHadoopJar(String name, String heap, Path jar, String main, List<String> args)
      throws IOException {
    List<String> jvm = new java.util.ArrayList<>();
    jvm.add(heap);
    jvm.addAll(List.of(TestJvms.CONTAINER.split(" ")));
    jvm.add("-cp");
    jvm.add(
        Stream.concat(Stream.of(hadoopConfDir), ClassPaths.clusterClassPath().stream())
            .map(Path::toString)
            .collect(Collectors.joining(File.pathSeparator)));
    // an argument file: the class path is longer than one command-line argument may be
    Path argFile = dir.resolve(name + ".jvm-args");
    Files.write(argFile, jvm.stream().map(a -> "\"" + a.replace("\\", "\\\\") + "\"").toList());
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("@" + argFile);
    cmd.add("org.apache.hadoop.util.RunJar");
    cmd.add(jar.toString());
    cmd.add(main);
    cmd.addAll(args);
    Path output = dir.resolve(name + ".out");
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HADOOP_USE_CLIENT_CLASSLOADER", "true");
    Process p = pb.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    return new Child(name, p, output);
  }

  @Override
  public void close() {
    try {
      if (LocalOozie.isStarted()) {
        LocalOozie.stop();
      }
    } finally {
      try {
        yarn.stop();
      } finally {
        dfs.shutdown();
      }
    }
  }
}
