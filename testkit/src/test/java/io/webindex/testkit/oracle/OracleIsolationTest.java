package io.webindex.testkit.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The oracle shares no code with what it checks: neither its sources nor its compiled classes
 * mention any {@code io.webindex} class outside its own package (checkstyle's import control says
 * the same for imports; this also catches fully qualified names and reflection-free uses in the
 * byte code).
 */
class OracleIsolationTest {
  static final String PKG = "io/webindex/testkit/oracle";

  static List<Path> files(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
    }
  }

  @Test
  void sourcesImportNothingOfOurs() throws IOException {
    List<Path> sources = files(Path.of("src/main/java").resolve(PKG), ".java");
    assertEquals(5, sources.size(), "the oracle's sources: " + sources);
    List<String> found = new ArrayList<>();
    for (Path f : sources) {
      for (String line : Files.readAllLines(f)) {
        if (line.startsWith("import") && line.contains("io.webindex.")) {
          found.add(f.getFileName() + ": " + line.strip());
        }
      }
    }
    assertEquals(List.of(), found);
  }

  @Test
  void classesReferenceNothingOfOurs() throws IOException {
    List<Path> classes = files(Path.of("target/classes").resolve(PKG), ".class");
    assertTrue(classes.size() >= 4, "compiled oracle classes: " + classes);
    List<String> found = new ArrayList<>();
    for (Path f : classes) {
      // class names in the constant pool are stored as UTF-8 internal names: io/webindex/...
      String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      int i = -1;
      while ((i = text.indexOf("io/webindex/", i + 1)) >= 0) {
        if (!text.startsWith(PKG + "/", i)) {
          found.add(f.getFileName() + ": " + text.substring(i, Math.min(text.length(), i + 60)));
        }
      }
    }
    assertEquals(List.of(), found);
  }
}
