package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The recompute's job jar (built by {@code package}, before the ITs) lists no Fluo runtime class:
 * it writes a run's Fluo seed with Fluo's data types and its key/value writer, and carries the
 * check without its Fluo side. The Fluo Tools and the check's Fluo side are in fluo-jobs' job jar.
 */
class JobJarIT {
  /** Where the Fluo runtime lives: none of these may be in the jar. */
  private static final List<String> RUNTIME =
      List.of(
          "io/webindex/fluo/", // the application, its Tools and services, the check's Fluo side
          "org/apache/fluo/core/", // Fluo's implementation: oracle, worker, transactions
          "org/apache/fluo/cluster/",
          "org/apache/fluo/mini/",
          "org/apache/fluo/recipes/accumulo/", // the export queue's writer
          "org/apache/curator/", // Fluo's ZooKeeper client
          "com/codahale/metrics/"); // Fluo's metrics

  /** The one class of fluo-core that Fluo's key/value writer calls (byte conversions). */
  private static final String BYTE_UTIL = "org/apache/fluo/core/util/ByteUtil.class";

  private static Set<String> entries() throws IOException {
    Path jar = Paths.get(System.getProperty("webindex.job.jar"));
    assertTrue(Files.isRegularFile(jar), "the job jar " + jar + " (package builds it)");
    Set<String> names = new TreeSet<>();
    try (JarFile j = new JarFile(jar.toFile())) {
      for (JarEntry e : java.util.Collections.list(j.entries())) {
        names.add(e.getName());
      }
    }
    return names;
  }

  @Test
  void theJobJarHoldsNoFluoRuntimeClass() throws IOException {
    Set<String> runtime = new TreeSet<>();
    for (String name : entries()) {
      if (name.endsWith(".class")
          && !name.equals(BYTE_UTIL)
          && RUNTIME.stream().anyMatch(name::startsWith)) {
        runtime.add(name);
      }
    }
    assertEquals(Set.of(), runtime, "Fluo runtime classes in the recompute's job jar");
  }

  @Test
  void theJobJarHoldsTheRecomputeTheCheckAndWhatTheSeedIsWrittenWith() throws IOException {
    Set<String> names = entries();
    for (String c :
        List.of(
            "io/webindex/mr/RecomputeTool.class",
            "io/webindex/check/CheckTool.class",
            "io/webindex/seed/FluoSeed.class",
            "org/apache/fluo/mapreduce/FluoKeyValueGenerator.class",
            "org/apache/fluo/recipes/core/combine/CombineQueue.class",
            BYTE_UTIL)) {
      assertTrue(names.contains(c), c + " in the job jar");
    }
    assertTrue(
        !names.contains("META-INF/services/io.webindex.check.FluoSide"),
        "the check's Fluo side is not registered in the recompute's job jar");
  }
}
