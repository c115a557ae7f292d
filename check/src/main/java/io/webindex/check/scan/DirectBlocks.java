package io.webindex.check.scan;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.accumulo.core.conf.AccumuloConfiguration;
import org.apache.accumulo.core.file.blockfile.ABlockReader;
import org.apache.accumulo.core.file.blockfile.BlockFileReader;
import org.apache.accumulo.core.file.blockfile.impl.CachableBlockFile;
import org.apache.accumulo.core.file.rfile.bcfile.BCFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.DecompressorStream;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.xerial.snappy.Snappy;

/**
 * One RFile's blocks for {@link RFileCells}: the data blocks read and decompressed here, everything
 * else (the file's index, its meta blocks) by Accumulo's block file reader ({@code standard}).
 *
 * <p>Why: for every data block Accumulo's reader borrows a decompressor from Hadoop's codec pool
 * (which counts its leases in a cache), looks its codec up by buffer size in a cache of its own,
 * and the codec reads its buffer size from a {@link Configuration} shared by every reader in the
 * process (a synchronized look-up, on both cores at once in the check; docs/performance.md). Here a
 * block's stored bytes are read whole into an array and decompressed from it: snappy blocks in
 * Hadoop's block format (chunks of snappy buffers, {@link #unsnappy}) with snappy-java, the library
 * Hadoop's snappy codec calls; gz blocks through a {@link DecompressorStream} with one zlib
 * decompressor of this reader's own, as Hadoop's {@code DefaultCodec} reads them.
 *
 * <p>Only where the file's compression is one of these (snappy, gz, none); and a file's first data
 * block is read both ways and compared: when they differ (a block format this reader does not know,
 * an encrypted file) or this way fails, the whole file is read by the standard reader, as before.
 * All data blocks of a file share its compression and framing, so the first one decides. One thread
 * reads through an instance (as one {@link RFileCells} reads its tablet), which owns the stream's
 * position while it reads a block. A later block that fails to read this way is read by the
 * standard reader, which says what is wrong with it.
 */
final class DirectBlocks implements BlockFileReader {
  /** How a data block's stored bytes become its bytes. */
  enum Decoding {
    SNAPPY,
    GZ,
    NONE;

    /** The decoding of BCFile compression {@code name}; null when this reader has none. */
    static Decoding of(String name) {
      return switch (name) {
        case "snappy" -> SNAPPY;
        case "gz" -> GZ;
        case "none" -> NONE;
        default -> null;
      };
    }
  }

  private final CachableBlockFile.Reader standard;
  private final FSDataInputStream in;
  private final long length;
  private final String name;
  private final Decoding decoding;
  private final Decompressor decompressor; // gz's
  private byte[] stored = new byte[0];
  private Boolean direct; // null until the first data block decided
  private long directBlocks;

  /**
   * Reads {@code in} (a file of {@code length} bytes; not closed here) with Accumulo's block file
   * reader, named {@code name}, its data blocks as the file's compression says.
   */
  static DirectBlocks open(FSDataInputStream in, long length, String name, Configuration conf)
      throws IOException {
    CachableBlockFile.Reader standard =
        new CachableBlockFile.Reader(
            name,
            in,
            length,
            conf,
            RFileCells.WholeBlocks.INSTANCE,
            RFileCells.WholeBlocks.INSTANCE,
            AccumuloConfiguration.getDefaultConfiguration());
    try {
      // the data index names the compression of every data block of the file
      String compression =
          new BCFile.Reader(in, length, conf, AccumuloConfiguration.getDefaultConfiguration())
              .getDefaultCompressionName();
      return new DirectBlocks(standard, in, length, name, Decoding.of(compression));
    } catch (IOException | RuntimeException e) {
      standard.close();
      throw e;
    }
  }

  /** As {@link #open}, with the decoding given ({@code null}: the standard reader only). */
  DirectBlocks(
      CachableBlockFile.Reader standard,
      FSDataInputStream in,
      long length,
      String name,
      Decoding decoding) {
    this.standard = standard;
    this.in = in;
    this.length = length;
    this.name = name;
    this.decoding = decoding;
    if (decoding == Decoding.GZ) {
      // the zlib decompressor Accumulo's gz codec makes (Hadoop's native one or the JDK's)
      Configuration own = new Configuration(false);
      own.setInt("io.file.buffer.size", RFileCells.INPUT_BUFFER_SIZE);
      decompressor = ReflectionUtils.newInstance(DefaultCodec.class, own).createDecompressor();
    } else {
      decompressor = null;
    }
    if (decoding == null) {
      direct = false;
    }
  }

  /** The data blocks read here so far (not by the standard reader). */
  long directBlocks() {
    return directBlocks;
  }

  @Override
  public ABlockReader getDataBlock(long offset, long compressedSize, long rawSize)
      throws IOException {
    if (Boolean.FALSE.equals(direct)) {
      return standard.getDataBlock(offset, compressedSize, rawSize);
    }
    byte[] block;
    try {
      block = read(offset, compressedSize, rawSize);
    } catch (IOException | RuntimeException e) {
      block = null; // the standard reader reads it, and says what is wrong with it
    }
    if (direct == null || block == null) {
      ABlockReader theirs = standard.getDataBlock(offset, compressedSize, rawSize);
      if (direct == null) {
        direct = block != null && theirs.isIndexable() && Arrays.equals(block, theirs.getBuffer());
      }
      return theirs;
    }
    directBlocks++;
    return new CachableBlockFile.CachedBlockRead(
        RFileCells.WholeBlocks.INSTANCE.cacheBlock(name, block), block);
  }

  /** A data block's bytes: its stored bytes read whole, then decompressed. */
  private byte[] read(long offset, long compressedSize, long rawSize) throws IOException {
    if (offset < 0
        || compressedSize < 0
        || compressedSize > length - offset
        || compressedSize > Integer.MAX_VALUE - 8) {
      throw new IOException(
          "a data block of " + compressedSize + " bytes at " + offset + " of " + length);
    }
    if (rawSize < 0 || rawSize > Integer.MAX_VALUE - 8) {
      throw new IOException("a data block of " + rawSize + " bytes");
    }
    int n = (int) compressedSize;
    if (stored.length < n) {
      stored = new byte[n];
    }
    in.seek(offset);
    in.readFully(stored, 0, n);
    if (decoding == Decoding.NONE) {
      return uncompressed(stored, n, rawSize);
    }
    byte[] block = new byte[(int) rawSize];
    if (decoding == Decoding.SNAPPY) {
      unsnappy(stored, n, block);
      return block;
    }
    decompressor.reset();
    InputStream data =
        new DecompressorStream(
            new ByteArrayInputStream(stored, 0, n), decompressor, RFileCells.INPUT_BUFFER_SIZE);
    new DataInputStream(data).readFully(block);
    return block;
  }

  /**
   * An uncompressed block's bytes: the first {@code rawSize} of its {@code n} stored bytes, as
   * Accumulo's reader reads them (it fails when fewer are stored).
   */
  static byte[] uncompressed(byte[] stored, int n, long rawSize) throws IOException {
    if (rawSize > n) {
      throw new IOException("a block of " + rawSize + " bytes stored in " + n);
    }
    return Arrays.copyOf(stored, (int) rawSize);
  }

  /**
   * Decompresses {@code in[0..n)}, a block as Hadoop's snappy codec writes it, into the whole of
   * {@code out}: chunks of a raw length (4 bytes) and the snappy buffers that make it, each a
   * stored length (4 bytes) and that many bytes. Each buffer's raw length (its own header) is
   * checked to fit before it is decompressed, so a damaged block fails here instead of writing past
   * {@code out}.
   */
  static void unsnappy(byte[] in, int n, byte[] out) throws IOException {
    int pos = 0;
    int o = 0;
    while (o < out.length) {
      int chunk = readInt(in, pos, n);
      pos += 4;
      // an empty chunk before the end is the end of the stream to Hadoop's codec: the block
      // is short of its raw size, which Accumulo's reader fails on
      if (chunk <= 0 || chunk > out.length - o) {
        throw new IOException("a snappy chunk of " + chunk + " bytes at " + o);
      }
      int done = 0;
      while (done < chunk) {
        int len = readInt(in, pos, n);
        pos += 4;
        if (len <= 0 || len > n - pos) {
          throw new IOException("a snappy buffer of " + len + " bytes at " + pos);
        }
        int raw = snappyLength(in, pos, pos + len);
        if (raw < 0 || raw > chunk - done) {
          throw new IOException("a snappy buffer of " + raw + " raw bytes at " + pos);
        }
        int got = Snappy.uncompress(in, pos, len, out, o);
        if (got != raw) {
          throw new IOException("a snappy buffer gave " + got + " bytes, not " + raw);
        }
        pos += len;
        o += raw;
        done += raw;
      }
    }
    while (pos < n) { // a flush after the last byte writes an empty chunk
      if (readInt(in, pos, n) != 0) {
        throw new IOException((n - pos) + " bytes after the block's data");
      }
      pos += 4;
    }
  }

  /**
   * The raw length a snappy buffer {@code in[pos..end)} declares: its first bytes, a varint of at
   * most five bytes (seven bits each, least significant first), as the snappy format defines it;
   * read here rather than through a native call per buffer.
   */
  static int snappyLength(byte[] in, int pos, int end) throws IOException {
    long v = 0;
    for (int shift = 0; shift <= 28; shift += 7) {
      if (pos >= end) {
        break;
      }
      int b = in[pos++] & 0xff;
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (v > Integer.MAX_VALUE) {
          break;
        }
        return (int) v;
      }
    }
    throw new IOException("not a snappy buffer's length at " + pos);
  }

  private static int readInt(byte[] b, int pos, int n) throws IOException {
    if (pos > n - 4) {
      throw new IOException("the block ends in a length");
    }
    return ((b[pos] & 0xff) << 24)
        | ((b[pos + 1] & 0xff) << 16)
        | ((b[pos + 2] & 0xff) << 8)
        | (b[pos + 3] & 0xff);
  }

  @Override
  public ABlockReader getDataBlock(int blockIndex) throws IOException {
    return standard.getDataBlock(blockIndex); // files of RFile versions before offsets in the index
  }

  @Override
  public ABlockReader getMetaBlock(String name) throws IOException {
    return standard.getMetaBlock(name);
  }

  @Override
  public ABlockReader getMetaBlock(long offset, long compressedSize, long rawSize)
      throws IOException {
    return standard.getMetaBlock(offset, compressedSize, rawSize);
  }

  @Override
  public void close() throws IOException {
    try {
      standard.close();
    } finally {
      if (decompressor != null) {
        decompressor.end();
      }
    }
  }
}
