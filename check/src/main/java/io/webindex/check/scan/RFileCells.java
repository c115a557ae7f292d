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
import org.apache.accumulo.core.conf.AccumuloConfiguration;
import org.apache.accumulo.core.data.ByteSequence;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.PartialKey;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.file.blockfile.cache.BlockCache;
import org.apache.accumulo.core.file.blockfile.cache.CacheEntry;
import org.apache.accumulo.core.file.blockfile.impl.CachableBlockFile;
import org.apache.accumulo.core.file.rfile.RFile;
import org.apache.accumulo.core.iterators.SortedKeyValueIterator;
import org.apache.accumulo.core.iterators.system.MultiIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;

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
 * as the tablet server does for cached blocks. {@code RFileCellsTest} holds it to the public
 * scanner with the system iterators and the table's versioning iterator on random files.
 */
final class RFileCells implements Iterator<Map.Entry<Key, Value>>, AutoCloseable {
  private final List<RFile.Reader> readers = new ArrayList<>();
  private final SortedKeyValueIterator<Key, Value> merged;
  private final int versions;
  private Key cell; // a key of the cell being read
  private int left; // how many more of its puts a scan gives: 0 after a delete marker
  private Map.Entry<Key, Value> pending;

  /** The property of the input buffer Accumulo's block file reader looks up for every block. */
  static final String INPUT_BUFFER = "tfile.fs.input.buffer.size";

  /** Its default in that reader (BCFile's). */
  static final int INPUT_BUFFER_DEFAULT = 32 * 1024;

  /**
   * The configuration to read files with: {@code hadoop} with {@link #INPUT_BUFFER} set (to its
   * default where unset). The block file reader looks it up for each block it opens, and the lookup
   * of an unset property cost the 1M check's reading phase a third of its time: reading a 1M-page
   * query table's files took 11.2 s of CPU with the property unset and 6.6–7.2 s with it set to its
   * default (2026-11-28, docs/performance.md).
   */
  static Configuration readingConf(Configuration hadoop) {
    Configuration c = new Configuration(hadoop);
    if (c.get(INPUT_BUFFER) == null) {
      c.setInt(INPUT_BUFFER, INPUT_BUFFER_DEFAULT);
    }
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
    if (versions < 1) {
      throw new IllegalArgumentException("versions kept: " + versions);
    }
    this.versions = versions;
    try {
      List<SortedKeyValueIterator<Key, Value>> sources = new ArrayList<>(files.size());
      for (int i = 0; i < files.size(); i++) {
        RFile.Reader r =
            new RFile.Reader(
                new CachableBlockFile.Reader(
                    "file-" + i,
                    files.get(i),
                    lengths.get(i),
                    conf,
                    WholeBlocks.INSTANCE,
                    WholeBlocks.INSTANCE,
                    AccumuloConfiguration.getDefaultConfiguration()));
        readers.add(r);
        sources.add(r);
      }
      merged = new MultiIterator(sources, range);
      merged.seek(new Range(), Collections.<ByteSequence>emptySet(), false);
    } catch (IOException | RuntimeException e) {
      close();
      for (int i = readers.size(); i < files.size(); i++) {
        closeQuietly(files.get(i));
      }
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
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
      throw new UncheckedIOException(e);
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

  @Override
  public void close() {
    for (RFile.Reader r : readers) {
      try {
        r.close(); // and its stream
      } catch (IOException e) {
        // read to the end or given up: nothing is lost by a failed close
      }
    }
    readers.clear();
  }

  private static void closeQuietly(FSDataInputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // nothing read from it
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
