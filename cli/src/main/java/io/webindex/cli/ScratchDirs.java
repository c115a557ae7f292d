package io.webindex.cli;

import io.webindex.core.files.LocalFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The temporary directories of the commands that run an embedded instance in one ({@code demo},
 * {@code bench}) or write a batch under a temporary name ({@code gen}).
 */
public final class ScratchDirs {
  private ScratchDirs() {}

  /**
   * Deletes {@code dir} when the command is done, or with {@code keep} leaves it and says where it
   * is: {@code <command>: kept <dir>} on stderr.
   */
  public static void release(Path dir, boolean keep, PrintWriter err, String command)
      throws IOException {
    if (keep) {
      err.println(command + ": kept " + dir);
    } else {
      delete(dir);
    }
  }

  /** Deletes a file or directory tree; nothing when it does not exist. */
  public static void delete(Path dir) throws IOException {
    LocalFiles.deleteRecursively(dir);
  }
}
