package io.webindex.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class SecretFilesTest {
  /** Creates {@code file} empty with mode 600 (where the file system has modes): for tests. */
  public static Path privateFile(Path file) throws IOException {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    return Files.createFile(file);
  }

  private static Path withMode(Path dir, String mode) throws IOException {
    Path f = privateFile(dir.resolve("secret-" + mode.replace('-', '_')));
    Files.writeString(f, " s3cret\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
    return f;
  }

  @Test
  void privateModesAreRead(@TempDir Path dir) throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    for (String mode : new String[] {"rw-------", "r--------", "rwx------", "r-x------"}) {
      assertEquals("s3cret", SecretFiles.read(withMode(dir, mode), "the key"), mode);
    }
  }

  @Test
  void anyGroupOrOtherReadOrWriteIsRefused(@TempDir Path dir) throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    // each of the four bits alone, and the usual umask 022 result
    String[][] cases = {
      {"rw-r-----", "read"},
      {"rw--w----", "written"},
      {"rw----r--", "read"},
      {"rw-----w-", "written"},
      {"rw-r--r--", "read"},
      {"rw-rw-rw-", "read"},
    };
    for (String[] c : cases) {
      Path f = withMode(dir, c[0]);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> SecretFiles.read(f, "the key"), c[0]);
      assertEquals(
          "the key "
              + f
              + " may be "
              + c[1]
              + " by other users (mode "
              + c[0]
              + "): make it private to its owner with chmod 600 "
              + f,
          e.getMessage());
      assertTrue(!e.getMessage().contains("s3cret"));
    }
  }

  @Test
  void aMissingFileSaysSo(@TempDir Path dir) {
    Path f = dir.resolve("absent");
    UncheckedIOException e =
        assertThrows(UncheckedIOException.class, () -> SecretFiles.read(f, "the key"));
    assertTrue(e.getMessage().startsWith("cannot read the key " + f), e.getMessage());
  }
}
