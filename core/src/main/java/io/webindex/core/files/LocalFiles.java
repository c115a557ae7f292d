package io.webindex.core.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The local file operations every module needs, written once. */
public final class LocalFiles {
  private LocalFiles() {}

  /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
  public static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> s = Files.walk(dir)) {
      paths = s.sorted(Comparator.reverseOrder()).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (Path p : paths) {
      Files.deleteIfExists(p);
    }
  }
}
