package io.webindex.oozie;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * The test JVM's class path, and the part of it that plays a cluster's Hadoop installation: what
 * {@code yarn.application.classpath} names on a real cluster and {@code hadoop jar} runs with.
 */
final class ClassPaths {
  /**
   * Jars of the test class path that are not the cluster's, by the start of their file names:
   * webindex's own and its libraries (the job jar brings them: Accumulo, Fluo, crawler-commons,
   * Thrift, JCommander, commons-vfs2), Oozie and what only its server needs (the launcher comes
   * from Oozie's share lib on HDFS; OpenJPA, Derby, JGit, Quartz, the EL and mail libraries,
   * Xerces), and the test frameworks. What is left is Hadoop 3.3.6 and its dependencies.
   */
  private static final List<String> NOT_THE_CLUSTERS =
      List.of(
          "webindex-",
          "accumulo-",
          "fluo-",
          "crawler-commons-",
          "libthrift-",
          "jcommander-",
          "commons-vfs2-",
          "oozie-",
          "openjpa-",
          "derby-",
          "org.eclipse.jgit-",
          "quartz-",
          "apache-el-",
          "apache-jsp-",
          "mail-",
          "xercesImpl-",
          "junit-",
          "opentest4j-",
          "apiguardian-",
          "mockito-");

  private ClassPaths() {}

  /** Every entry of the test class path, also when failsafe passes it in a manifest-only jar. */
  static List<Path> testClassPath() {
    List<Path> out = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!e.isEmpty()) {
        out.add(Paths.get(e).toAbsolutePath());
      }
    }
    if (out.size() == 1 && out.get(0).getFileName().toString().startsWith("surefirebooter")) {
      return manifestClassPath(out.get(0));
    }
    return out;
  }

  private static List<Path> manifestClassPath(Path booter) {
    try (JarFile jar = new JarFile(booter.toFile())) {
      String cp = jar.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      List<Path> out = new ArrayList<>();
      for (String url : cp.trim().split("\\s+")) {
        out.add(Paths.get(URI.create(url)));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Hadoop 3.3.6 and its dependencies: the test class path without the test's own classes and
   * without the jars of {@link #NOT_THE_CLUSTERS}.
   */
  static List<Path> clusterClassPath() {
    List<Path> out = new ArrayList<>();
    for (Path p : testClassPath()) {
      String name = p.getFileName().toString();
      boolean ours = NOT_THE_CLUSTERS.stream().anyMatch(name::startsWith);
      boolean classesDir = name.equals("classes") || name.equals("test-classes");
      if (!ours && !classesDir) {
        out.add(p);
      }
    }
    return out;
  }
}
