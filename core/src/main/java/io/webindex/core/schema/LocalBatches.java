package io.webindex.core.schema;

import io.webindex.core.files.LocalFiles;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes batches of a raw page store on the local file system ({@code gen}, {@code demo}, {@code
 * bench}, the tests) the way docs/input.md tells an operator to: the files under the batch's
 * in-progress name ({@link BatchLayout#inProgressDirName}), then the marker {@link
 * BatchLayout#COMPLETE_MARKER}, then the rename to the batch's number; or, for a directory written
 * in place, the marker after every file ({@link #markComplete}).
 */
public final class LocalBatches {
  private LocalBatches() {}

  /**
   * Starts batch {@code seq} under {@code batchesDir}: returns its empty in-progress directory (one
   * left by an interrupted writer is removed first).
   *
   * @throws FileAlreadyExistsException when batch {@code seq} exists already
   */
  public static Path begin(Path batchesDir, long seq) throws IOException {
    Path done = batchesDir.resolve(BatchLayout.dirName(seq));
    if (Files.exists(done)) {
      throw new FileAlreadyExistsException(done.toString(), null, "batch exists already");
    }
    Path tmp = batchesDir.resolve(BatchLayout.inProgressDirName(seq));
    LocalFiles.deleteRecursively(tmp);
    return Files.createDirectories(tmp);
  }

  /**
   * Completes batch {@code seq} begun with {@link #begin}: writes its marker after the files, then
   * renames the directory to the batch's number. Returns the batch directory.
   */
  public static Path publish(Path batchesDir, long seq) throws IOException {
    Path tmp = batchesDir.resolve(BatchLayout.inProgressDirName(seq));
    markComplete(tmp);
    return Files.move(tmp, batchesDir.resolve(BatchLayout.dirName(seq)));
  }

  /**
   * Writes batch {@code seq} at once: each file (its name relative to the batch directory, {@code
   * /} for subdirectories), then the marker, then the rename. Returns the batch directory.
   */
  public static Path write(Path batchesDir, long seq, Map<String, byte[]> files)
      throws IOException {
    Path tmp = begin(batchesDir, seq);
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      Path file = tmp.resolve(f.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, f.getValue());
    }
    return publish(batchesDir, seq);
  }

  /**
   * Marks a batch directory whose files are all written complete: writes {@link
   * BatchLayout#COMPLETE_MARKER} into it (what {@code hdfs dfs -touchz …/_SUCCESS} does).
   */
  public static void markComplete(Path batchDir) throws IOException {
    Path marker = batchDir.resolve(BatchLayout.COMPLETE_MARKER);
    if (!Files.exists(marker)) {
      Files.createFile(marker);
    }
  }
}
