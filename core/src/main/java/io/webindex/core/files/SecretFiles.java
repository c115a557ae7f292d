package io.webindex.core.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads a file that holds a secret (a password), refusing one that its group or other users may
 * read or write: on a POSIX file system its mode must grant nothing to group and others ({@code
 * chmod 600 FILE}, or {@code 400}). On a file system without POSIX permissions the mode is not
 * checked.
 */
public final class SecretFiles {
  /** The permissions a secret file must not have. */
  private static final Set<PosixFilePermission> SHARED =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE);

  private SecretFiles() {}

  /**
   * The file's text, stripped of surrounding white space.
   *
   * @param what what the file is, for the message (the configuration key or option naming it)
   * @throws IllegalArgumentException when group or others may read or write it, naming the fix
   * @throws UncheckedIOException when it cannot be read
   */
  public static String read(Path file, String what) {
    refuseShared(file, what);
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + " " + file + ": " + e, e);
    }
  }

  /**
   * Refuses {@code file} when its group or others may read or write it (a file that does not exist
   * passes: reading it then says so).
   *
   * @throws IllegalArgumentException naming the file, its mode and the {@code chmod} that fixes it
   */
  public static void refuseShared(Path file, String what) {
    if (Files.getFileAttributeView(file, PosixFileAttributeView.class) == null
        || !Files.exists(file)) {
      return;
    }
    Set<PosixFilePermission> perms;
    try {
      perms = Files.getPosixFilePermissions(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the permissions of " + what + " " + file, e);
    }
    EnumSet<PosixFilePermission> shared = EnumSet.noneOf(PosixFilePermission.class);
    shared.addAll(perms);
    shared.retainAll(SHARED);
    if (!shared.isEmpty()) {
      throw new IllegalArgumentException(
          what
              + " "
              + file
              + " may be "
              + (shared.stream().anyMatch(p -> p.name().endsWith("_READ")) ? "read" : "written")
              + " by other users (mode "
              + PosixFilePermissions.toString(perms)
              + "): make it private to its owner with chmod 600 "
              + file);
    }
  }
}
