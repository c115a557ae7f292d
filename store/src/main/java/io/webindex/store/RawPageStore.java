package io.webindex.store;

import io.webindex.core.read.PageReaders;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.schema.BatchLayout;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The raw page store (docs/input.md): numbered batches {@code <root>/batches/<seq>/…} on any Hadoop
 * file system, numbered from 0 without gaps. Files whose name starts with {@code .} or {@code _}
 * are not pages.
 *
 * <p>A batch is read only once it is complete: its directory holds the marker {@code _SUCCESS}
 * ({@link BatchLayout#COMPLETE_MARKER}), which its writer writes after every page file (a MapReduce
 * or Spark job's output committer does so by itself; after {@code hdfs dfs -put} it is {@code hdfs
 * dfs -touchz batches/00007/_SUCCESS}), and no file still being copied ({@code *._COPYING_}, as
 * {@code hdfs dfs -put} leaves it, or {@code *.tmp}). Batches are read in order of their numbers
 * and without gaps: the first batch after a resume point that is missing or not complete waits, and
 * every batch after it with it, so the resume point never passes a batch that was not read whole,
 * nor one that was not there yet ({@link #pending} says which batch waits and why). One number has
 * one directory: {@code 1} and {@code 00001} together are an error, not two batches.
 */
public final class RawPageStore {
  /** One batch directory and its number. */
  public record Batch(long seq, Path dir) {}

  /** Why a batch waits. */
  public enum Reason {
    /** No directory has its number, while a later batch has one. */
    MISSING,
    /** Its directory has no {@code _SUCCESS} marker yet. */
    UNMARKED,
    /** It holds a file still being written ({@code *._COPYING_}, {@code *.tmp}). */
    IN_PROGRESS
  }

  /**
   * The first batch that cannot be read yet, with every batch after it.
   *
   * @param seq its number
   * @param reason why it waits
   * @param message what waits and why, for an operator (a sentence without a final period)
   */
  public record Waiting(long seq, Reason reason, String message) {}

  /**
   * The batches after a resume point that can be read, in order, and the first one that waits (or
   * null when every batch there is ready).
   */
  public record Pending(List<Batch> ready, Waiting waiting) {
    public Pending {
      ready = List.copyOf(ready);
    }
  }

  private final FileSystem fs;
  private final Path batchesDir;

  public RawPageStore(String root, Configuration conf) throws IOException {
    Path r = new Path(root);
    this.fs = r.getFileSystem(conf);
    this.batchesDir = fs.makeQualified(new Path(r, BatchLayout.BATCHES_DIR));
  }

  public Path batchesDir() {
    return batchesDir;
  }

  /**
   * The complete batches from batch 0 on, in order, up to the first that is missing or incomplete
   * (which, with every batch after it, is left for later).
   *
   * @throws StoreException when two directories name one batch number
   */
  public List<Batch> batches() throws IOException {
    return pending(-1).ready();
  }

  /**
   * As {@link #batches()}, but only the batches numbered above {@code seq}: those at or below it
   * (already applied by the loader) are not listed file by file, so the cost of finding the next
   * batch does not grow with the store's history.
   */
  public List<Batch> batchesAfter(long seq) throws IOException {
    return pending(seq).ready();
  }

  /**
   * The batches numbered above {@code seq} that can be read: {@code seq + 1}, {@code seq + 2}, … as
   * long as each is there and complete; and the first one that is not, when a batch directory above
   * {@code seq} exists that cannot be read yet ({@code seq} -1: from batch 0 on).
   *
   * @throws StoreException when two directories name one batch number, or there is no batches
   *     directory
   */
  public Pending pending(long seq) throws IOException {
    List<Batch> all = allBatches();
    List<Batch> ready = new ArrayList<>();
    long next = Math.max(seq, -1) + 1;
    for (int i = 0; i < all.size(); i++) {
      Batch b = all.get(i);
      if (b.seq() <= seq) {
        continue;
      }
      int after = all.size() - i - 1;
      if (b.seq() != next) {
        return new Pending(ready, missing(next, b, after));
      }
      Waiting w = incomplete(b, after);
      if (w != null) {
        return new Pending(ready, w);
      }
      ready.add(b);
      next++;
    }
    return new Pending(ready, null);
  }

  private Waiting missing(long seq, Batch present, int after) {
    return new Waiting(
        seq,
        Reason.MISSING,
        "batch "
            + seq
            + " is missing: batches are read in order of their numbers, from 0 and without gaps,"
            + " and "
            + batchesDir
            + " holds batch "
            + present.seq()
            + (after == 0 ? "" : " (and " + after + " after it)")
            + " but no batch "
            + seq
            + ", so "
            + (after == 0 ? "that one waits" : "they wait")
            + " for it (to skip the number, write batch "
            + BatchLayout.dirName(seq)
            + " as an empty batch with its "
            + BatchLayout.COMPLETE_MARKER
            + " marker)");
  }

  /** Null when batch {@code b} is complete, else why it waits. */
  private Waiting incomplete(Batch b, int after) throws IOException {
    String also =
        after == 0 ? "" : ", and the " + after + " batch" + (after == 1 ? "" : "es") + " after it";
    if (!fs.exists(new Path(b.dir(), BatchLayout.COMPLETE_MARKER))) {
      return new Waiting(
          b.seq(),
          Reason.UNMARKED,
          "batch "
              + b.seq()
              + " is not complete yet: "
              + b.dir()
              + " has no "
              + BatchLayout.COMPLETE_MARKER
              + " marker (its writer writes it after every file: `hdfs dfs -touchz "
              + new Path(b.dir(), BatchLayout.COMPLETE_MARKER)
              + "` after a copy, a job's output committer by itself); it waits"
              + also);
    }
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(b.dir(), true);
    while (it.hasNext()) {
      Path p = it.next().getPath();
      if (isInProgress(p.getName())) {
        return new Waiting(
            b.seq(),
            Reason.IN_PROGRESS,
            "batch "
                + b.seq()
                + " is still being written: "
                + p
                + " is a file in progress (its name ends in "
                + (p.getName().endsWith(".tmp") ? ".tmp" : "._COPYING_")
                + "); it waits"
                + also);
      }
    }
    return null;
  }

  /**
   * Why there is no batch to read although the batches directory exists: what it holds instead (the
   * first batch still being written under its temporary name, or names that are not batch numbers)
   * and what to do.
   */
  public String noBatches() throws IOException {
    List<String> writing = new ArrayList<>();
    List<String> other = new ArrayList<>();
    if (fs.exists(batchesDir)) {
      for (FileStatus st : fs.listStatus(batchesDir)) {
        String n = st.getPath().getName();
        if (n.startsWith("_") && n.endsWith(".tmp")) {
          writing.add(n);
        } else {
          other.add(n);
        }
      }
    }
    writing.sort(null);
    other.sort(null);
    String first = new Path(batchesDir, BatchLayout.dirName(0)).toString();
    if (!writing.isEmpty()) {
      return "no batches under "
          + batchesDir
          + " yet: the first batch is still being written ("
          + String.join(", ", writing)
          + "; its writer renames it to "
          + BatchLayout.dirName(0)
          + " once complete): run again when "
          + first
          + " is there with its "
          + BatchLayout.COMPLETE_MARKER
          + " marker";
    }
    return "no batches under "
        + batchesDir
        + ": raw pages go in batch directories named by their number from 0 on ("
        + first
        + ", then "
        + BatchLayout.dirName(1)
        + ", …), each with a "
        + BatchLayout.COMPLETE_MARKER
        + " marker once complete"
        + (other.isEmpty()
            ? ""
            : "; it holds only " + String.join(", ", other) + ", which are not batch numbers");
  }

  private List<Batch> allBatches() throws IOException {
    if (!fs.exists(batchesDir)) {
      throw new StoreException(
          "no batches directory " + batchesDir + " (pages live under <store root>/batches/<seq>/)");
    }
    List<Batch> out = new ArrayList<>();
    for (FileStatus st : fs.listStatus(batchesDir)) {
      String n = st.getPath().getName();
      if (st.isDirectory() && BatchLayout.isBatchDirName(n)) {
        out.add(new Batch(Long.parseLong(n), st.getPath()));
      }
    }
    out.sort((a, b) -> Long.compare(a.seq(), b.seq()));
    for (int i = 1; i < out.size(); i++) {
      if (out.get(i).seq() == out.get(i - 1).seq()) {
        throw new StoreException(
            "batch "
                + out.get(i).seq()
                + " has two directories, "
                + out.get(i - 1).dir().getName()
                + " and "
                + out.get(i).dir().getName()
                + ", under "
                + batchesDir
                + ": keep one (merge their files) so that the batch is read once");
      }
    }
    return out;
  }

  /** Whether a file name marks a copy in progress (the batch holding it is not complete). */
  public static boolean isInProgress(String fileName) {
    return BatchLayout.isInProgress(fileName);
  }

  public static boolean isPageFile(Path p) {
    return BatchLayout.isPageFileName(p.getName());
  }

  /** The page files of a batch, recursively, in name order. */
  public List<Path> files(Batch b) throws IOException {
    List<Path> out = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(b.dir(), true);
    while (it.hasNext()) {
      Path p = it.next().getPath();
      if (isPageFile(p) && !hiddenParent(b.dir(), p)) {
        out.add(p);
      }
    }
    out.sort(null);
    return out;
  }

  private static boolean hiddenParent(Path batchDir, Path file) {
    for (Path p = file.getParent(); p != null && !p.equals(batchDir); p = p.getParent()) {
      if (!isPageFile(p)) {
        return true;
      }
    }
    return false;
  }

  /** A file's name relative to its batch directory: the {@code file} of its page versions. */
  public static String relativeName(Batch b, Path file) {
    String dir = b.dir().toUri().getPath();
    String f = file.toUri().getPath();
    if (!f.startsWith(dir + "/")) {
      throw new IllegalArgumentException(file + " is not in batch " + b.dir());
    }
    return f.substring(dir.length() + 1);
  }

  /** Reads every page file of a batch into {@code sink}. */
  public void read(Batch b, ReadLimits limits, ReadStats stats, PageSink sink) throws IOException {
    for (Path f : files(b)) {
      try (InputStream in = fs.open(f)) {
        PageReaders.read(in, relativeName(b, f), b.seq(), limits, stats, sink);
      }
    }
  }
}
