package io.webindex.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class VersionTest {
  /** The version the build wrote is the project version of the root pom, read independently. */
  @Test
  void currentIsTheProjectVersion() throws Exception {
    String pom = Files.readString(Path.of("../pom.xml"));
    Matcher m =
        Pattern.compile("<artifactId>webindex-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    m.find();
    assertEquals(m.group(1), Version.current());
  }
}
