package io.webindex.core.schema;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The layout of the raw page store (docs/input.md), the one place that names it: numbered batches
 * {@code <root>/batches/<seq>/…} with {@code seq} zero-padded to five digits when written (any
 * number of digits is read), numbered from 0 without gaps. A batch is complete once its directory
 * holds the marker {@link #COMPLETE_MARKER} ({@code _SUCCESS}, Hadoop's own: a MapReduce or Spark
 * job's output committer writes it after every output file), written after every page file, and no
 * file still being written ({@code *._COPYING_} or {@code *.tmp}). A writer can also make the batch
 * appear at once: write it, marker last, under {@link #inProgressDirName} and rename that directory
 * to {@link #dirName}. Files whose name starts with {@code .} or {@code _} are not pages.
 */
public final class BatchLayout {
  /** The directory under the store root that holds the batches. */
  public static final String BATCHES_DIR = "batches";

  /**
   * The file that marks a batch complete, written after every page file: {@code _SUCCESS}, the name
   * Hadoop's output committers write when a job's output is complete.
   */
  public static final String COMPLETE_MARKER = "_SUCCESS";

  private static final Pattern SEQ = Pattern.compile("[0-9]{1,18}");

  private BatchLayout() {}

  /** The directory name of batch {@code seq}: {@code 00007}. */
  public static String dirName(long seq) {
    if (seq < 0) {
      throw new IllegalArgumentException("a batch number is not negative: " + seq);
    }
    return String.format(Locale.ROOT, "%05d", seq);
  }

  /** The path of batch {@code seq} relative to the store root: {@code batches/00007}. */
  public static String relativeDir(long seq) {
    return BATCHES_DIR + "/" + dirName(seq);
  }

  /**
   * Where a writer may put batch {@code seq} until it is complete: {@code _00007.tmp} (never read,
   * not being a number).
   */
  public static String inProgressDirName(long seq) {
    return "_" + dirName(seq) + ".tmp";
  }

  /** Whether a directory name under {@link #BATCHES_DIR} is a batch (a number). */
  public static boolean isBatchDirName(String name) {
    return SEQ.matcher(name).matches();
  }

  /** Whether a file name marks a copy in progress (the batch holding it is not complete). */
  public static boolean isInProgress(String fileName) {
    return fileName.endsWith("._COPYING_") || fileName.endsWith(".tmp");
  }

  /** Whether a file (or directory) of a batch holds pages: not hidden and not in progress. */
  public static boolean isPageFileName(String name) {
    return !name.startsWith(".") && !name.startsWith("_") && !isInProgress(name);
  }
}
