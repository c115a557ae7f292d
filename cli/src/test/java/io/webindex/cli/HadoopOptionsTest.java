package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hadoop's generic options on a bin/webindex command line. */
class HadoopOptionsTest {
  @TempDir Path dir;

  private Path siteFile(String name, String key, String value) throws IOException {
    Path f = dir.resolve(name);
    Files.writeString(
        f,
        "<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>"
            + key
            + "</name><value>"
            + value
            + "</value></property>\n</configuration>\n");
    return f;
  }

  @Test
  void genericOptionsAreTakenOutAnywhereAndTheRestKeepsItsOrder() throws IOException {
    Path jobs = siteFile("jobs.xml", "mapreduce.job.queuename", "fromfile");
    HadoopOptions.Split s =
        HadoopOptions.split(
            List.of(
                "--run",
                "-D",
                "a.b=1",
                "r1",
                "-conf",
                jobs.toString(),
                "-Dc.d=x=y",
                "--json",
                "-D",
                "mapreduce.job.queuename=fromD"));
    assertEquals(List.of("--run", "r1", "--json"), s.rest());
    Configuration conf = s.options().configuration();
    assertEquals("1", conf.get("a.b"));
    assertEquals("x=y", conf.get("c.d"), "only the first '=' separates key and value");
    assertEquals("fromD", conf.get("mapreduce.job.queuename"), "-D wins over -conf");
  }

  @Test
  void aConfFileAlone() throws IOException {
    Path jobs = siteFile("jobs.xml", "mapreduce.map.memory.mb", "3072");
    Configuration conf =
        HadoopOptions.split(List.of("-conf", jobs.toString())).options().configuration();
    assertEquals(3072, conf.getInt("mapreduce.map.memory.mb", 0));
  }

  @Test
  void noOptionsIsAPlainConfiguration() {
    HadoopOptions.Split s = HadoopOptions.split(List.of("top", "--limit", "3"));
    assertEquals(List.of("top", "--limit", "3"), s.rest());
    assertTrue(s.options().isEmpty());
    assertNull(s.options().configuration().get("a.b"));
  }

  @Test
  void theLocalConfigurationIgnoresAClusterButKeepsTheOptions() {
    HadoopOptions o =
        HadoopOptions.split(List.of("-D", "fs.defaultFS=file:///", "-Dk=v")).options();
    Configuration local = o.localConfiguration();
    assertEquals("local", local.get("mapreduce.framework.name"));
    assertEquals("file:///", local.get("fs.defaultFS"));
    assertEquals("v", local.get("k"));
  }

  @Test
  void jobsOnTheLocalRunnerGetTheLocalFileSystemWithoutProcesses() {
    String forkless = "io.webindex.embedded.ForklessLocalFileSystem";
    // nothing set: Hadoop's default framework is the local job runner
    assertEquals(
        forkless, HadoopOptions.forLocalJobs(new Configuration(false)).get("fs.file.impl"));
    Configuration local = new Configuration(false);
    local.set("mapreduce.framework.name", "local");
    assertEquals(forkless, HadoopOptions.forLocalJobs(local).get("fs.file.impl"));
    // jobs on a cluster: their tasks have Hadoop's class, not this one
    Configuration yarn = new Configuration(false);
    yarn.set("mapreduce.framework.name", "yarn");
    assertNull(HadoopOptions.forLocalJobs(yarn).get("fs.file.impl"));
    // a class the operator named stays
    Configuration named = new Configuration(false);
    named.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    assertEquals(
        "org.apache.hadoop.fs.RawLocalFileSystem",
        HadoopOptions.forLocalJobs(named).get("fs.file.impl"));
  }

  /**
   * A cluster's {@code mapred-site.xml} (on the class path, as {@code HADOOP_CONF_DIR} puts it)
   * names YARN: its jobs' tasks run there, without this project's class, whether or not MapReduce's
   * classes had loaded before (they add that file to every configuration when they do).
   */
  @Test
  void aClusterOnTheClassPathKeepsHadoopsLocalFileSystem() throws IOException {
    Path yarnSite = Files.createDirectories(dir.resolve("yarn-conf"));
    Files.copy(
        siteFile("mapred-site.xml", "mapreduce.framework.name", "yarn"),
        yarnSite.resolve("mapred-site.xml"));
    Path noSite = Files.createDirectories(dir.resolve("no-conf"));
    try (URLClassLoader yarn = new URLClassLoader(new URL[] {yarnSite.toUri().toURL()}, null);
        URLClassLoader none = new URLClassLoader(new URL[] {noSite.toUri().toURL()}, null)) {
      Configuration onYarn = new Configuration();
      onYarn.setClassLoader(yarn);
      assertEquals("yarn", HadoopOptions.framework(onYarn));
      assertNull(HadoopOptions.forLocalJobs(onYarn).get("fs.file.impl"));

      Configuration local = new Configuration();
      local.setClassLoader(none);
      assertEquals("local", HadoopOptions.framework(local));
      assertEquals(
          "io.webindex.embedded.ForklessLocalFileSystem",
          HadoopOptions.forLocalJobs(local).get("fs.file.impl"));

      // a -D on the command line wins over the class path's file, as for a job
      Configuration forcedLocal = new Configuration();
      forcedLocal.setClassLoader(yarn);
      forcedLocal.set("mapreduce.framework.name", "local");
      assertEquals("local", HadoopOptions.framework(forcedLocal));
    }
  }

  @Test
  void badOptionsAreUsageErrors() {
    assertEquals(
        "-D needs key=value",
        assertThrows(UsageException.class, () -> HadoopOptions.split(List.of("x", "-D")))
            .getMessage());
    assertEquals(
        "-D needs key=value, got 'novalue'",
        assertThrows(UsageException.class, () -> HadoopOptions.split(List.of("-Dnovalue")))
            .getMessage());
    assertEquals(
        "-D needs key=value, got '=v'",
        assertThrows(UsageException.class, () -> HadoopOptions.split(List.of("-D", "=v")))
            .getMessage());
    assertEquals(
        "-conf needs a Hadoop configuration file",
        assertThrows(UsageException.class, () -> HadoopOptions.split(List.of("-conf")))
            .getMessage());
    Path missing = dir.resolve("missing.xml");
    assertEquals(
        "-conf: no such Hadoop configuration file: " + missing,
        assertThrows(
                UsageException.class,
                () -> HadoopOptions.split(List.of("-conf", missing.toString())))
            .getMessage());
  }

  @Test
  void theEmbeddedInstanceLeavesTheHadoopConfigurationOffItsClassPath() {
    assertEquals(
        "/w/lib/a.jar:/w/lib/b.jar",
        EmbeddedAccumuloHost.hostClassPath(
            "/etc/hadoop/conf:/w/lib/a.jar:/w/lib/b.jar", "/etc/hadoop/conf"));
    assertEquals("/w/lib/a.jar", EmbeddedAccumuloHost.hostClassPath("/w/lib/a.jar", null));
  }
}
