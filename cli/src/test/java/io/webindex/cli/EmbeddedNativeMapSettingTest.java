package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code webindex.embedded.native-map} as {@code dev}, {@code demo} and {@code bench} read it: from
 * {@code webindex.properties} in the configuration directory, true when it is not there, a one-line
 * usage error naming the file for anything but true or false.
 */
class EmbeddedNativeMapSettingTest {
  @TempDir Path home;

  @BeforeEach
  void noSystemProperty() {
    // the system property wins over the file; these cases are about the file
    assumeTrue(System.getProperty("webindex.embedded.native-map") == null);
  }

  private Cli cli() {
    return new Cli(home, new ByteArrayOutputStream(), new ByteArrayOutputStream());
  }

  private void conf(String... lines) throws IOException {
    Files.createDirectories(home.resolve("conf"));
    Files.write(home.resolve("conf/webindex.properties"), java.util.List.of(lines));
  }

  @Test
  void onWithoutConfiguration() {
    assertTrue(cli().embeddedNativeMap());
  }

  @Test
  void onWhenTheFileDoesNotSay() throws IOException {
    conf("webindex.table.prefix=x");
    assertTrue(cli().embeddedNativeMap());
  }

  @Test
  void offWhenTheFileSaysFalse() throws IOException {
    conf("webindex.table.prefix=x", "webindex.embedded.native-map = false");
    assertFalse(cli().embeddedNativeMap());
  }

  @Test
  void onWhenTheFileSaysTrue() throws IOException {
    conf("webindex.embedded.native-map=true");
    assertTrue(cli().embeddedNativeMap());
  }

  @Test
  void anythingElseIsAUsageErrorNamingTheFile() throws IOException {
    conf("webindex.embedded.native-map=no");
    UsageException e = assertThrows(UsageException.class, () -> cli().embeddedNativeMap());
    assertEquals(
        "webindex.embedded.native-map must be true or false, not 'no' ("
            + home.resolve("conf/webindex.properties").toAbsolutePath().normalize()
            + ")",
        e.getMessage());
  }
}
