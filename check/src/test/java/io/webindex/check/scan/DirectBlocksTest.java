package io.webindex.check.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Test;

/**
 * {@link DirectBlocks#unsnappy} against Hadoop's own snappy codec (the writer of every snappy block
 * Accumulo stores): what the codec writes, in one chunk or many, with a flush in the middle or not,
 * decompresses to the bytes it was given; a damaged block fails with an {@link IOException} at its
 * damage, never by writing past its output. The reading of whole files is in {@link
 * RFileCellsTest}.
 */
class DirectBlocksTest {
  @Test
  void unsnappyGivesWhatHadoopsSnappyCodecWasGiven() throws Exception {
    Random rnd = new Random(20261129L);
    int chunked = 0;
    int shortBlocks = 0;
    for (int bufferSize : new int[] {1024, 64 * 1024}) {
      for (int size : new int[] {0, 1, 100, 5_000, 70_000, 300_000}) {
        for (boolean flushInTheMiddle : new boolean[] {false, true}) {
          byte[] data = data(rnd, size);
          byte[] block = hadoopSnappy(data, bufferSize, flushInTheMiddle);
          byte[] out = new byte[size];
          String what =
              size + " bytes in buffers of " + bufferSize + ", flushed " + flushInTheMiddle;
          byte[] theirs = hadoopReads(block, size, bufferSize);
          if (theirs == null) {
            // a flush after a write larger than a buffer (or before any byte) writes an empty
            // chunk, which ends the stream to Hadoop's reader: the block is short of its bytes
            assertTrue(flushInTheMiddle, what);
            assertThrows(IOException.class, () -> DirectBlocks.unsnappy(block, block.length, out));
            shortBlocks++;
            continue;
          }
          assertArrayEquals(data, theirs, what);
          DirectBlocks.unsnappy(block, block.length, out);
          assertArrayEquals(data, out, what);
          if (size > bufferSize) {
            chunked++;
          }
        }
      }
    }
    assertTrue(chunked >= 6, "blocks of several chunks read: " + chunked);
    assertTrue(
        shortBlocks > 0 && shortBlocks <= 6, "blocks Hadoop's reader ends early: " + shortBlocks);
  }

  @Test
  void aBlockCutShortFailsWithAnIoException() throws Exception {
    byte[] data = data(new Random(1L), 20_000);
    byte[] block = hadoopSnappy(data, 4096, false);
    // the codec ends with an empty chunk (a zero raw length) when it is closed after finishing;
    // without it the block is whole
    int end = block.length;
    while (end >= 4
        && block[end - 1] == 0
        && block[end - 2] == 0
        && block[end - 3] == 0
        && block[end - 4] == 0) {
      end -= 4;
    }
    assertTrue(end > block.length / 2, "data to cut: " + end);
    for (int n = 0; n < end; n++) {
      int cut = n;
      byte[] out = new byte[data.length];
      assertThrows(
          IOException.class, () -> DirectBlocks.unsnappy(block, cut, out), "cut at " + cut);
    }
  }

  @Test
  void lengthsThatDoNotFitFailWithAnIoException() throws Exception {
    byte[] data = data(new Random(2L), 10_000);
    byte[] block = hadoopSnappy(data, 64 * 1024, false);
    // a chunk's raw length larger than the block
    byte[] rawTooLong = block.clone();
    writeInt(rawTooLong, 0, data.length + 1);
    assertFails(rawTooLong, data.length, "a snappy chunk");
    // a buffer's stored length past the end of the block
    byte[] storedTooLong = block.clone();
    writeInt(storedTooLong, 4, block.length);
    assertFails(storedTooLong, data.length, "a snappy buffer of");
    // the block's raw size smaller than what its buffer holds: the buffer would write past it
    assertFails(block, data.length - 1, "a snappy chunk");
    // bytes after the data that are not an empty chunk
    byte[] trailing = Arrays.copyOf(block, block.length + 4);
    writeInt(trailing, block.length, 7);
    assertFails(trailing, data.length, "after the block's data");
    // an empty chunk before the end: the end of the stream to Hadoop's codec, a short block here
    byte[] small = data(new Random(4L), 3_000); // halves that fit a buffer: no empty chunk
    byte[] twoChunks = hadoopSnappy(small, 4096, true);
    int second = chunkEnd(twoChunks, 0);
    assertTrue(second < twoChunks.length, "two chunks");
    byte[] early = Arrays.copyOf(twoChunks, twoChunks.length + 4);
    System.arraycopy(twoChunks, second, early, second + 4, twoChunks.length - second);
    writeInt(early, second, 0);
    assertArrayEquals(small, hadoopReads(twoChunks, small.length, 4096));
    assertEquals(null, hadoopReads(early, small.length, 4096), "Hadoop's reader stops there");
    assertFails(early, small.length, "a snappy chunk of 0 bytes");
    byte[] out2 = new byte[small.length];
    DirectBlocks.unsnappy(twoChunks, twoChunks.length, out2);
    assertArrayEquals(small, out2, "without it");
    // an uncompressed block: its raw size of its stored bytes, never more
    byte[] stored = {1, 2, 3, 4};
    assertArrayEquals(new byte[] {1, 2, 3}, DirectBlocks.uncompressed(stored, 4, 3));
    assertArrayEquals(stored, DirectBlocks.uncompressed(stored, 4, 4));
    assertThrows(IOException.class, () -> DirectBlocks.uncompressed(stored, 4, 5));
    // an empty chunk after the data is what a flush after the last byte writes
    byte[] empty = Arrays.copyOf(block, block.length + 4);
    byte[] out = new byte[data.length];
    DirectBlocks.unsnappy(empty, empty.length, out);
    assertArrayEquals(data, out);
  }

  /** The raw length a snappy buffer declares, against snappy-java's own reading of it. */
  @Test
  void snappysLengthIsReadAsSnappyReadsIt() throws Exception {
    Random rnd = new Random(3L);
    for (int size :
        new int[] {0, 1, 127, 128, 129, 16_383, 16_384, 16_385, 100_000, 2_097_151, 2_097_152}) {
      byte[] buffer = org.xerial.snappy.Snappy.compress(data(rnd, size));
      assertEquals(size, DirectBlocks.snappyLength(buffer, 0, buffer.length));
      assertEquals(
          org.xerial.snappy.Snappy.uncompressedLength(buffer, 0, buffer.length),
          DirectBlocks.snappyLength(buffer, 0, buffer.length));
    }
    // a length cut short, or longer than five bytes: not a snappy buffer
    byte[] cut = {(byte) 0x80, (byte) 0x80};
    assertThrows(IOException.class, () -> DirectBlocks.snappyLength(cut, 0, cut.length));
    byte[] six = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1};
    assertThrows(IOException.class, () -> DirectBlocks.snappyLength(six, 0, six.length));
    byte[] tooLarge = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f};
    assertThrows(IOException.class, () -> DirectBlocks.snappyLength(tooLarge, 0, 5));
    assertThrows(IOException.class, () -> DirectBlocks.snappyLength(new byte[0], 0, 0));
  }

  @Test
  void compressionsWithADecodingHereAndOnesWithout() {
    assertEquals(DirectBlocks.Decoding.SNAPPY, DirectBlocks.Decoding.of("snappy"));
    assertEquals(DirectBlocks.Decoding.GZ, DirectBlocks.Decoding.of("gz"));
    assertEquals(DirectBlocks.Decoding.NONE, DirectBlocks.Decoding.of("none"));
    assertNull(DirectBlocks.Decoding.of("lzo"));
    assertNull(DirectBlocks.Decoding.of("zstd"));
  }

  private static void assertFails(byte[] block, int rawSize, String message) {
    IOException e =
        assertThrows(
            IOException.class, () -> DirectBlocks.unsnappy(block, block.length, new byte[rawSize]));
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  /** Bytes that compress somewhat, as cells do: runs of a few repeated letters and random bytes. */
  private static byte[] data(Random rnd, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = rnd.nextInt(4) == 0 ? (byte) rnd.nextInt(256) : (byte) ('a' + (i / 7) % 5);
    }
    return b;
  }

  /** {@code data} as Hadoop's snappy codec writes it with buffers of {@code bufferSize} bytes. */
  private static byte[] hadoopSnappy(byte[] data, int bufferSize, boolean flushInTheMiddle)
      throws IOException {
    Configuration conf = new Configuration(false);
    conf.setInt("io.compression.codec.snappy.buffersize", bufferSize);
    SnappyCodec codec = ReflectionUtils.newInstance(SnappyCodec.class, conf);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CompressionOutputStream out = codec.createOutputStream(bytes, codec.createCompressor())) {
      int half = data.length / 2;
      out.write(data, 0, half);
      if (flushInTheMiddle) {
        out.finish(); // as Accumulo's block writer does on a flush
        out.resetState();
      }
      out.write(data, half, data.length - half);
      out.finish();
    }
    return bytes.toByteArray();
  }

  /** Where the chunk that starts at {@code pos} ends: after its raw length and its buffers. */
  private static int chunkEnd(byte[] block, int pos) throws IOException {
    int raw = readInt(block, pos);
    pos += 4;
    for (int done = 0; done < raw; ) {
      int len = readInt(block, pos);
      done += DirectBlocks.snappyLength(block, pos + 4, pos + 4 + len);
      pos += 4 + len;
    }
    return pos;
  }

  /**
   * {@code size} bytes as Hadoop's snappy codec reads them from {@code block} (as Accumulo's reader
   * does), or null when it ends before them.
   */
  private static byte[] hadoopReads(byte[] block, int size, int bufferSize) throws IOException {
    Configuration conf = new Configuration(false);
    conf.setInt("io.compression.codec.snappy.buffersize", Math.max(bufferSize, 64 * 1024));
    SnappyCodec codec = ReflectionUtils.newInstance(SnappyCodec.class, conf);
    byte[] out = new byte[size];
    try (java.io.DataInputStream in =
        new java.io.DataInputStream(
            codec.createInputStream(
                new java.io.ByteArrayInputStream(block), codec.createDecompressor()))) {
      in.readFully(out);
      return out;
    } catch (java.io.EOFException e) {
      return null;
    }
  }

  private static int readInt(byte[] b, int pos) {
    return ((b[pos] & 0xff) << 24)
        | ((b[pos + 1] & 0xff) << 16)
        | ((b[pos + 2] & 0xff) << 8)
        | (b[pos + 3] & 0xff);
  }

  private static void writeInt(byte[] b, int pos, int v) {
    b[pos] = (byte) (v >>> 24);
    b[pos + 1] = (byte) (v >>> 16);
    b[pos + 2] = (byte) (v >>> 8);
    b[pos + 3] = (byte) v;
  }
}
