package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded instance's directory is its owner's only, however it came to exist. */
class OwnerOnlyDirectoryTest {
  @TempDir Path tmp;

  @Test
  void aNewDirectoryIsOwnerOnly() throws IOException {
    Path dir = EmbeddedAccumulo.createOwnerOnlyDirectory(tmp.resolve("a/b/dev"));
    assertEquals(tmp.resolve("a/b/dev"), dir);
    assertEquals("rwx------", permissions(dir));
  }

  @Test
  void anExistingDirectoryIsRestricted() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("dev"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    EmbeddedAccumulo.createOwnerOnlyDirectory(dir);
    assertEquals("rwx------", permissions(dir));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
    EmbeddedAccumulo.createOwnerOnlyDirectory(dir);
    assertEquals("rwx------", permissions(dir), "the owner needs all three");
  }

  @Test
  void aFileIsRefused() throws IOException {
    Path file = Files.writeString(tmp.resolve("dev"), "x");
    assertThrows(FileSystemException.class, () -> EmbeddedAccumulo.createOwnerOnlyDirectory(file));
  }

  @Test
  void theDevLockMakesTheDirectory() throws IOException {
    Path dir = tmp.resolve("work/dev");
    try (DevLock lock = DevLock.acquire(dir)) {
      assertEquals("rwx------", permissions(dir));
    }
  }

  private static String permissions(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
