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
 * The raw page store (SPEC §2): numbered batches {@code <root>/batches/<seq>/…} on any Hadoop file
 * system. Files whose name starts with {@code .} or {@code _} are not pages.
 *
 * <p>A batch is read only once it is complete. Writers make a batch appear atomically: write it
 * under a name that is not a number (e.g. {@code batches/_00007.tmp/}) and rename the directory to
 * its number when every file is in place (a rename is atomic on HDFS and local file systems). A
 * batch that still holds a file being copied ({@code *._COPYING_}, as {@code hdfs dfs -put} leaves
 * it, or {@code *.tmp}) is incomplete: it and every later batch wait, so the resume point never
 * passes a batch that was not read whole. One number has one directory: {@code 1} and {@code 00001}
 * together are an error, not two batches.
 */
public final class RawPageStore {
  /** One batch directory and its number. */
  public record Batch(long seq, Path dir) {}

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
   * The complete batches in order of their numbers, up to the first incomplete one (which, with
   * every batch after it, is left for later).
   *
   * @throws StoreException when two directories name one batch number
   */
  public List<Batch> batches() throws IOException {
    return batchesAfter(-1); // batch numbers are not negative
  }

  /**
   * As {@link #batches()}, but only the batches numbered above {@code seq}: those at or below it
   * (already applied by the loader) are not listed file by file, so the cost of finding the next
   * batch does not grow with the store's history.
   */
  public List<Batch> batchesAfter(long seq) throws IOException {
    List<Batch> out = new ArrayList<>();
    for (Batch b : allBatches()) {
      if (b.seq() <= seq) {
        continue;
      }
      if (!isComplete(b)) {
        break;
      }
      out.add(b);
    }
    return out;
  }

  /** The batches still being written: the first incomplete one and every batch after it. */
  public List<Batch> waiting() throws IOException {
    List<Batch> all = allBatches();
    return all.subList(batches().size(), all.size());
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

  private boolean isComplete(Batch b) throws IOException {
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(b.dir(), true);
    while (it.hasNext()) {
      if (isInProgress(it.next().getPath().getName())) {
        return false;
      }
    }
    return true;
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
