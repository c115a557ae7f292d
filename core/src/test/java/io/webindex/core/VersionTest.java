package io.webindex.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class VersionTest {
  /** The root pom, read as text: the source the build filters the resource from. */
  private static String rootPom() throws IOException {
    return Files.readString(Path.of("../pom.xml"));
  }

  private static String element(String xml, String name) {
    Matcher m = Pattern.compile("<" + name + ">([^<]+)</" + name + ">").matcher(xml);
    assertTrue(m.find(), name + " in the root pom");
    return m.group(1);
  }

  @Test
  void currentIsTheRootPomsVersionAndStacks() throws IOException {
    String pom = rootPom();
    // the project's own <version> is the first one after <artifactId>webindex-parent</artifactId>
    String afterParent = pom.substring(pom.indexOf("<artifactId>webindex-parent</artifactId>"));
    Version v = Version.current();
    assertEquals(element(afterParent, "version"), v.webindex());
    assertEquals(element(pom, "accumulo.version"), v.accumulo());
    assertEquals(element(pom, "fluo.version"), v.fluo());
    assertEquals(element(pom, "hadoop.version"), v.hadoop());
    assertTrue(v.webindex().matches("\\d+\\.\\d+\\.\\d+"), "a release version: " + v.webindex());
  }

  @Test
  void describeNamesAllFour() {
    Version v = new Version("9.8.7", "1.2.3", "4.5.6", "7.8.9");
    assertEquals(
        "webindex 9.8.7\nbuilt against Accumulo 1.2.3, Fluo 4.5.6, Hadoop 7.8.9\n", v.describe());
  }

  @Test
  void anUnfilteredResourceIsRefused() {
    Properties p = new Properties();
    p.setProperty("webindex.version", "${project.version}");
    p.setProperty("accumulo.version", "1");
    p.setProperty("fluo.version", "1");
    p.setProperty("hadoop.version", "1");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Version.parse(p));
    assertTrue(e.getMessage().contains("built without its version resource"), e.getMessage());
    p.remove("hadoop.version");
    p.setProperty("webindex.version", "1.0.0");
    assertThrows(IllegalStateException.class, () -> Version.parse(p));
  }
}
