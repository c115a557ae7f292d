package io.webindex.check.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.Lock;
import org.apache.accumulo.core.data.ByteSequence;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.PartialKey;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.file.blockfile.cache.BlockCache;
import org.apache.accumulo.core.file.blockfile.cache.CacheEntry;
import org.apache.accumulo.core.file.rfile.RFile;
import org.apache.accumulo.core.iterators.SortedKeyValueIterator;
import org.apache.accumulo.core.iterators.system.MultiIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.security.AccessControlException;

/**
 * The cells of one tablet as a scan of its table gives them, read from its files with Accumulo's
 * RFile reader itself, below the public {@code RFile} scanner: for tables whose only scan iterator
 * is Accumulo's versioning one ({@link FileCheck#versionsKept}), with no authorizations.
 *
 * <p>What a scan does, and this does: the files merged in key order within the tablet's range; a
 * delete marker hides the versions of its cell (row, family, qualifier, visibility) at or before
 * its timestamp, itself included (it sorts before a put of its timestamp, after every newer
 * version); a cell with a visibility label is never visible without authorizations; of what
 * remains, the newest {@code versions} of each cell. Within a cell's keys (newest first) that is:
 * the puts up to the first delete marker, at most {@code versions} of them, none of a labelled
 * cell. Against the public scanner this saves, per cell, its four system iterator layers, its
 * synchronized iterator layer, its copy of every key and value, and a synchronized stream read per
 * byte: each data block is read whole into an array ({@link WholeBlocks}) and decoded from there,
 * as the tablet server does for cached blocks, and read and decompressed below Accumulo's block
 * file reader ({@link DirectBlocks}: one decompressor per file, nothing looked up per block).
 * {@code RFileCellsTest} holds it to the public scanner with the system iterators and the table's
 * versioning iterator on random files.
 */
final class RFileCells implements Iterator<Map.Entry<Key, Value>>, AutoCloseable {
  private final List<RFile.Reader> readers = new ArrayList<>();
  private final List<DirectBlocks> direct = new ArrayList<>();
  private final List<FSDataInputStream> streams; // the reader does not close a stream it is given
  private final SortedKeyValueIterator<Key, Value> merged;
  private final int versions;
  private Key cell; // a key of the cell being read
  private int left; // how many more of its puts a scan gives: 0 after a delete marker
  private Map.Entry<Key, Value> pending;

  /** The buffer Accumulo's block file reader allocates for each block's decompression stream. */
  static final String INPUT_BUFFER = "tfile.fs.input.buffer.size";

  /** What the check reads with: the block file reader's own default. */
  static final int INPUT_BUFFER_SIZE = 32 * 1024;

  /**
   * The configuration to read files with: {@code hadoop} with {@link #INPUT_BUFFER} at {@link
   * #INPUT_BUFFER_SIZE}. Hadoop's defaults ({@code core-default.xml}) set it to 256 KB, and the
   * block file reader allocates a new buffer of that size for every block it decompresses: reading
   * a 1M-page query table's files took 11.3–11.4 s with 256 KB and 6.8–7.3 s with 32 KB
   * (2026-11-28, docs/performance.md).
   */
  static Configuration readingConf(Configuration hadoop) {
    Configuration c = new Configuration(hadoop);
    c.setInt(INPUT_BUFFER, INPUT_BUFFER_SIZE);
    return c;
  }

  /**
   * Opens {@code files} (each stream with its length; this object closes them) bounded to {@code
   * range}.
   */
  RFileCells(
      List<FSDataInputStream> files,
      List<Long> lengths,
      Range range,
      Configuration conf,
      int versions) {
    this.streams = List.copyOf(files);
    this.versions = versions;
    if (versions < 1) {
      close();
      throw new IllegalArgumentException("versions kept: " + versions);
    }
    try {
      List<SortedKeyValueIterator<Key, Value>> sources = new ArrayList<>(files.size());
      for (int i = 0; i < files.size(); i++) {
        DirectBlocks blocks = DirectBlocks.open(files.get(i), lengths.get(i), "file-" + i, conf);
        RFile.Reader r;
        try {
          r = new RFile.Reader(blocks);
        } catch (IOException | RuntimeException e) {
          blocks.close();
          throw e;
        }
        direct.add(blocks);
        readers.add(r);
        sources.add(r);
      }
      merged = new MultiIterator(sources, range);
      merged.seek(new Range(), Collections.<ByteSequence>emptySet(), false);
    } catch (IOException | RuntimeException e) {
      close();
      throw e instanceof IOException io ? readFailure(io) : (RuntimeException) e;
    }
  }

  /**
   * An error reading a file: unchecked as an {@link UncheckedIOException} when it is a permission
   * error (the files mode says "no permission" and {@code auto} falls back to the scanner), else as
   * the public RFile scanner throws it (a file that cannot be read with the table's settings: the
   * files mode is unavailable).
   */
  private static RuntimeException readFailure(IOException e) {
    return e instanceof AccessControlException
        ? new UncheckedIOException(e)
        : new IllegalStateException("cannot read the file: " + e, e);
  }

  @Override
  public boolean hasNext() {
    try {
      while (pending == null && merged.hasTop()) {
        Key k = merged.getTopKey();
        if (cell == null || !k.equals(cell, PartialKey.ROW_COLFAM_COLQUAL_COLVIS)) {
          cell = k;
          left = k.getColumnVisibilityData().length() == 0 ? versions : 0;
        }
        if (k.isDeleted()) {
          left = 0;
        } else if (left > 0) {
          left--;
          // the reader makes a new Key and a new value array per cell: neither is copied
          pending =
              new AbstractMap.SimpleImmutableEntry<>(
                  k, new Value(merged.getTopValue().get(), false));
        }
        merged.next();
      }
    } catch (IOException e) {
      throw readFailure(e);
    }
    return pending != null;
  }

  @Override
  public Map.Entry<Key, Value> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Map.Entry<Key, Value> e = pending;
    pending = null;
    return e;
  }

  /** The data blocks read below Accumulo's block file reader so far ({@link DirectBlocks}). */
  long directBlocks() {
    long n = 0;
    for (DirectBlocks b : direct) {
      n += b.directBlocks();
    }
    return n;
  }

  /** Closes the readers and the streams (each once; a stream closed twice is no harm either). */
  @Override
  public void close() {
    for (RFile.Reader r : readers) {
      try {
        r.close(); // its state, not the stream it was given
      } catch (IOException e) {
        // read to the end or given up: nothing is lost by a failed close
      }
    }
    readers.clear();
    for (FSDataInputStream in : streams) {
      try {
        in.close();
      } catch (IOException e) {
        // nothing more is read from it
      }
    }
  }

  /**
   * A block "cache" that keeps nothing: each block is read whole into an array and decoded from it,
   * then dropped. The reader decodes a block it was given from a cache through an unsynchronized
   * array stream; without a cache it reads the block's bytes one at a time through a synchronized
   * stream, which is most of its cost per cell. A sequential read never needs a block twice.
   */
  static final class WholeBlocks implements BlockCache {
    static final WholeBlocks INSTANCE = new WholeBlocks();

    @Override
    public CacheEntry cacheBlock(String blockName, byte[] buf, boolean inMemory) {
      return cacheBlock(blockName, buf);
    }

    @Override
    public CacheEntry cacheBlock(String blockName, byte[] buf) {
      return new CacheEntry() {
        private Object index;

        @Override
        public byte[] getBuffer() {
          return buf;
        }

        @Override
        public Object getIndex() {
          return index;
        }

        @Override
        public void setIndex(Object idx) {
          this.index = idx;
        }
      };
    }

    @Override
    public CacheEntry getBlock(String blockName) {
      return null;
    }

    @Override
    public CacheEntry getBlockNoStats(String blockName) {
      return null;
    }

    @Override
    public long getMaxSize() {
      return Integer.MAX_VALUE;
    }

    @Override
    public Lock getLoadLock(String blockName) {
      return null;
    }
  }
}
