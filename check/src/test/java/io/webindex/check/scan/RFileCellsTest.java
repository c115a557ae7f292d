package io.webindex.check.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.client.rfile.RFileWriter;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RFileCells} against Accumulo's public RFile scanner with its system iterators and the
 * table's versioning iterator (the tablet server's stack for such a table): the same cells, in the
 * same order, on random files with several versions of a cell, delete markers older, newer and as
 * old as puts, labelled cells and their delete markers, cells in several files, and tablet ranges.
 */
@Timeout(120)
class RFileCellsTest {
  private static final Configuration HADOOP = new Configuration();

  @TempDir Path dir;

  @Test
  void givesWhatTheTabletServersStackGivesForEveryVersionCount() throws Exception {
    Random rnd = new Random(20261128L);
    int compared = 0;
    int hidden = 0;
    int cellsWithSeveralVersions = 0;
    Map<String, Long> direct = new TreeMap<>();
    for (int round = 0; round < 40; round++) {
      String compression = COMPRESSIONS.get(round % COMPRESSIONS.size());
      List<String> files = writeFiles(rnd, round, compression);
      for (int versions : new int[] {1, 2, 3, 7}) {
        for (Range range : ranges(rnd)) {
          List<String> expected = publicScanner(files, versions, range);
          long[] blocks = new long[1];
          List<String> actual = rfileCells(files, versions, range, blocks);
          direct.merge(compression, blocks[0], Long::sum);
          assertEquals(
              expected, actual, "round " + round + ", " + versions + " versions, " + range);
          compared += expected.size();
          hidden += countKeys(files, range) - expected.size();
          cellsWithSeveralVersions += severalVersions(expected);
        }
      }
    }
    // the comparison exercised what it is for
    assertTrue(compared > 10_000, "cells compared: " + compared);
    assertTrue(hidden > 10_000, "keys a scan hides: " + hidden);
    assertTrue(
        cellsWithSeveralVersions > 1_000,
        "cells with several versions: " + cellsWithSeveralVersions);
    // and the data blocks of files of every compression were read below the block file reader
    for (String c : COMPRESSIONS) {
      assertTrue(direct.getOrDefault(c, 0L) > 1_000, "blocks read directly: " + direct);
    }
  }

  /**
   * A file read with a decoding that is not its compression's: its first data block reads
   * differently (or not at all) than through Accumulo's block file reader, so every block is read
   * by that reader, and the file gives every key it holds, as the public scanner does.
   */
  @Test
  void aFileWhoseFirstBlockReadsDifferentlyIsReadByAccumulosReaderAlone() throws Exception {
    Random rnd = new Random(7L);
    int compared = 0;
    for (String compression : COMPRESSIONS) {
      String file = writeFiles(rnd, COMPRESSIONS.indexOf(compression), compression).get(0);
      List<String> all = allKeys(file, null, null);
      for (DirectBlocks.Decoding wrong : DirectBlocks.Decoding.values()) {
        if (wrong.name().equalsIgnoreCase(compression)) {
          long[] blocks = new long[1];
          assertEquals(all, allKeys(file, wrong, blocks), compression + " as itself");
          assertTrue(blocks[0] > 0, compression + " read directly");
          continue;
        }
        long[] blocks = new long[1];
        assertEquals(all, allKeys(file, wrong, blocks), compression + " read as " + wrong);
        assertEquals(0, blocks[0], compression + " read as " + wrong + ": no block directly");
        compared += all.size();
      }
      long[] none = new long[1];
      assertEquals(all, allKeys(file, null, none), compression + " without a decoding");
      assertEquals(0, none[0]);
    }
    assertTrue(compared > 500, "keys compared: " + compared);
  }

  /**
   * Data blocks of 256 KB (Accumulo's reader decompresses snappy with 64 KB buffers; a block and
   * its chunks are larger here), with values of up to 12 KB: the same cells as the public scanner,
   * the blocks read below the block file reader.
   */
  @Test
  void largeBlocksAndLargeValues() throws Exception {
    Random rnd = new Random(11L);
    for (String compression : COMPRESSIONS) {
      TreeMap<Key, Value> cells = new TreeMap<>();
      for (int k = 0; k < 400; k++) {
        byte[] v = new byte[rnd.nextInt(12 * 1024)];
        for (int i = 0; i < v.length; i++) {
          v[i] = rnd.nextInt(3) == 0 ? (byte) rnd.nextInt(256) : (byte) ('a' + i % 7);
        }
        cells.put(key(String.format("r%04d", k), "f", "q", "", 1, false), new Value(v));
      }
      List<String> files =
          List.of(
              write(
                  "large-" + compression,
                  cells,
                  Map.of(
                      "table.file.compress.blocksize",
                      "256K",
                      "table.file.compress.type",
                      compression)));
      long[] blocks = new long[1];
      assertEquals(
          publicScanner(files, 1, new Range()),
          rfileCells(files, 1, new Range(), blocks),
          compression);
      assertTrue(blocks[0] >= 5, compression + ": blocks read directly: " + blocks[0]);
    }
  }

  @Test
  void aDeleteHidesItsVersionAndOlderOnesButNotNewerOnes() throws Exception {
    // hand-checked: r/f:q has puts at 9, 7, 5, 3 and a delete at 5; a scan keeps 9 and 7
    List<String> f = new ArrayList<>();
    f.add(
        write(
            "hand",
            List.of(
                key("r", "f", "q", "", 9, false),
                key("r", "f", "q", "", 7, false),
                key("r", "f", "q", "", 5, true),
                key("r", "f", "q", "", 5, false),
                key("r", "f", "q", "", 3, false),
                key("r", "f", "q", "L", 8, false),
                key("s", "f", "q", "", 4, true)),
            "gz"));
    Range all = new Range();
    assertEquals(List.of("r f:q [] 9 false"), keysOnly(rfileCells(f, 1, all, new long[1])));
    assertEquals(
        List.of("r f:q [] 9 false", "r f:q [] 7 false"),
        keysOnly(rfileCells(f, 2, all, new long[1])));
    assertEquals(
        List.of("r f:q [] 9 false", "r f:q [] 7 false"),
        keysOnly(rfileCells(f, 5, all, new long[1])));
  }

  @Test
  void versionsKeptReadsOnlyAccumulosVersioningIterator() {
    String vers = "20,org.apache.accumulo.core.iterators.user.VersioningIterator";
    assertEquals(
        1,
        FileCheck.versionsKept(
            Map.of(
                "table.iterator.scan.vers", vers,
                "table.iterator.scan.vers.opt.maxVersions", "1",
                "table.split.threshold", "1G")));
    assertEquals(
        12,
        FileCheck.versionsKept(
            Map.of(
                "table.iterator.scan.vers",
                vers,
                "table.iterator.scan.vers.opt.maxVersions",
                "12")));
    assertEquals(0, FileCheck.versionsKept(Map.of()), "no versioning: every version");
    assertEquals(
        0,
        FileCheck.versionsKept(
            Map.of(
                "table.iterator.scan.vers", vers,
                "table.iterator.scan.vers.opt.maxVersions", "1",
                "table.iterator.scan.sum",
                    "10,org.apache.accumulo.core.iterators.user.SummingCombiner")),
        "another scan iterator");
    assertEquals(
        0,
        FileCheck.versionsKept(
            Map.of(
                "table.iterator.scan.vers", "20,org.example.Other",
                "table.iterator.scan.vers.opt.maxVersions", "1")));
    assertEquals(
        0,
        FileCheck.versionsKept(
            Map.of(
                "table.iterator.scan.vers",
                vers,
                "table.iterator.scan.vers.opt.maxVersions",
                "x")));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RFileCells(List.of(), List.of(), new Range(), HADOOP, 0));
  }

  @Test
  void filesAreReadWithTheBlockReadersOwnBufferNotHadoops256Kb() {
    Configuration withDefaults = new Configuration(); // core-default.xml: 262144
    assertEquals(262_144, withDefaults.getInt(RFileCells.INPUT_BUFFER, -1), "Hadoop's default");
    Configuration reading = RFileCells.readingConf(withDefaults);
    assertEquals(32_768, reading.getInt(RFileCells.INPUT_BUFFER, -1));
    assertEquals(
        262_144, withDefaults.getInt(RFileCells.INPUT_BUFFER, -1), "the caller's untouched");
  }

  @Test
  void aFileThatIsNotAnRFileIsAReadFailureAndItsStreamIsClosed() throws Exception {
    java.nio.file.Path junk = dir.resolve("junk.rf");
    java.nio.file.Files.write(junk, new byte[4096]);
    FileSystem fs = FileSystem.getLocal(HADOOP);
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(junk.toString());
    boolean[] closed = new boolean[1];
    FSDataInputStream in =
        new FSDataInputStream(fs.open(p)) {
          @Override
          public void close() throws java.io.IOException {
            closed[0] = true;
            super.close();
          }
        };
    RuntimeException e =
        assertThrows(
            RuntimeException.class,
            () -> new RFileCells(List.of(in), List.of(4096L), new Range(), HADOOP, 1));
    assertTrue(
        !(e instanceof java.io.UncheckedIOException),
        "not a permission error, so the files mode is unavailable: " + e);
    assertTrue(closed[0], "the stream closed");
  }

  // --- the files -------------------------------------------------------------------------------

  /** The compressions files are written with (the table property's values). */
  private static final List<String> COMPRESSIONS = List.of("snappy", "gz", "none");

  /** One to three files of random keys; a key's value is a function of the key. */
  private List<String> writeFiles(Random rnd, int round, String compression) throws Exception {
    int n = 1 + rnd.nextInt(3);
    List<String> files = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Key> keys = new ArrayList<>();
      int count = 50 + rnd.nextInt(400);
      for (int k = 0; k < count; k++) {
        keys.add(
            key(
                String.format("r%02d", rnd.nextInt(30)),
                rnd.nextBoolean() ? "a" : "b",
                rnd.nextInt(3) == 0 ? "y" : "x",
                rnd.nextInt(6) == 0 ? "L" : "",
                1 + rnd.nextInt(6),
                rnd.nextInt(5) == 0));
      }
      files.add(write(round + "-" + i, keys, compression));
    }
    return files;
  }

  private String write(String name, List<Key> keys, String compression) throws Exception {
    TreeMap<Key, Value> sorted = new TreeMap<>();
    for (Key k : keys) {
      sorted.put(k, new Value(k.toString().getBytes(StandardCharsets.UTF_8)));
    }
    // small data and index blocks: many blocks per file and an index of several levels, as in a
    // table's files, so that the reader goes from block to block and down the index
    return write(
        name,
        sorted,
        Map.of(
            "table.file.compress.blocksize", "512",
            "table.file.compress.blocksize.index", "256",
            "table.file.compress.type", compression));
  }

  /** Writes {@code cells} to file {@code name}.rf with table properties {@code props}. */
  private String write(String name, TreeMap<Key, Value> cells, Map<String, String> props)
      throws Exception {
    String path = dir.resolve(name + ".rf").toString();
    try (RFileWriter w =
        RFile.newWriter()
            .to(path)
            .withFileSystem(FileSystem.getLocal(HADOOP))
            .withTableProperties(props)
            .build()) {
      for (Map.Entry<Key, Value> e : cells.entrySet()) {
        w.append(e.getKey(), e.getValue());
      }
    }
    return path;
  }

  private static Key key(String row, String cf, String cq, String cv, long ts, boolean deleted) {
    Key k = new Key(new Text(row), new Text(cf), new Text(cq), new Text(cv), ts);
    k.setDeleted(deleted);
    return k;
  }

  /** Whole tables and tablets: (start, end] as the metadata table gives them, open ends too. */
  private static List<Range> ranges(Random rnd) {
    String a = String.format("r%02d", rnd.nextInt(30));
    String b = String.format("r%02d", rnd.nextInt(30));
    String lo = a.compareTo(b) <= 0 ? a : b;
    String hi = a.compareTo(b) <= 0 ? b : a;
    return List.of(
        new Range(),
        new Range(null, false, new Text(lo), true),
        new Range(new Text(lo), false, new Text(hi), true),
        new Range(new Text(hi), false, null, true));
  }

  // --- the two readers -------------------------------------------------------------------------

  private static List<String> publicScanner(List<String> files, int versions, Range range)
      throws Exception {
    Map<String, String> props =
        Map.of(
            "table.iterator.scan.vers",
            "20,org.apache.accumulo.core.iterators.user.VersioningIterator",
            "table.iterator.scan.vers.opt.maxVersions",
            Integer.toString(versions));
    List<String> out = new ArrayList<>();
    try (Scanner s =
        RFile.newScanner()
            .from(files.toArray(new String[0]))
            .withFileSystem(FileSystem.getLocal(HADOOP))
            .withTableProperties(props)
            .withAuthorizations(Authorizations.EMPTY)
            .withBounds(range)
            .build()) {
      for (Map.Entry<Key, Value> e : s) {
        out.add(e.getKey() + " = " + e.getValue());
      }
    }
    return out;
  }

  private static List<String> rfileCells(
      List<String> files, int versions, Range range, long[] directBlocks) throws Exception {
    FileSystem fs = FileSystem.getLocal(HADOOP);
    List<FSDataInputStream> in = new ArrayList<>();
    List<boolean[]> closed = new ArrayList<>();
    List<Long> lengths = new ArrayList<>();
    for (String f : files) {
      org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(f);
      boolean[] c = new boolean[1];
      closed.add(c);
      in.add(
          new FSDataInputStream(fs.open(p)) {
            @Override
            public void close() throws java.io.IOException {
              c[0] = true;
              super.close();
            }
          });
      lengths.add(fs.getFileStatus(p).getLen());
    }
    List<String> out = new ArrayList<>();
    try (RFileCells c =
        new RFileCells(in, lengths, range, RFileCells.readingConf(HADOOP), versions)) {
      while (c.hasNext()) {
        Map.Entry<Key, Value> e = c.next();
        out.add(e.getKey() + " = " + e.getValue());
      }
      directBlocks[0] += c.directBlocks();
    }
    for (boolean[] c : closed) {
      assertTrue(c[0], "every file's stream closed");
    }
    return out;
  }

  /**
   * Every key of {@code file} with its value, deletes too, through Accumulo's RFile reader on
   * {@link DirectBlocks} with {@code decoding} (null: Accumulo's block file reader alone); {@code
   * null} for {@code directBlocks}: through the public scanner without its system iterators.
   */
  private static List<String> allKeys(
      String file, DirectBlocks.Decoding decoding, long[] directBlocks) throws Exception {
    List<String> out = new ArrayList<>();
    if (directBlocks == null) {
      try (Scanner s =
          RFile.newScanner()
              .from(file)
              .withFileSystem(FileSystem.getLocal(HADOOP))
              .withoutSystemIterators()
              .build()) {
        for (Map.Entry<Key, Value> e : s) {
          out.add(e.getKey() + " = " + e.getValue());
        }
      }
      return out;
    }
    FileSystem fs = FileSystem.getLocal(HADOOP);
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file);
    Configuration conf = RFileCells.readingConf(HADOOP);
    try (FSDataInputStream in = fs.open(p)) {
      DirectBlocks blocks =
          new DirectBlocks(
              new org.apache.accumulo.core.file.blockfile.impl.CachableBlockFile.Reader(
                  "f",
                  in,
                  fs.getFileStatus(p).getLen(),
                  conf,
                  RFileCells.WholeBlocks.INSTANCE,
                  RFileCells.WholeBlocks.INSTANCE,
                  org.apache.accumulo.core.conf.AccumuloConfiguration.getDefaultConfiguration()),
              in,
              fs.getFileStatus(p).getLen(),
              "f",
              decoding);
      org.apache.accumulo.core.file.rfile.RFile.Reader r =
          new org.apache.accumulo.core.file.rfile.RFile.Reader(blocks);
      try {
        r.seek(new Range(), java.util.Set.of(), false);
        while (r.hasTop()) {
          out.add(r.getTopKey() + " = " + r.getTopValue());
          r.next();
        }
        directBlocks[0] = blocks.directBlocks();
      } finally {
        r.close();
      }
    }
    return out;
  }

  private static List<String> keysOnly(List<String> cells) {
    List<String> out = new ArrayList<>();
    for (String c : cells) {
      out.add(c.substring(0, c.indexOf(" = ")));
    }
    return out;
  }

  private static int countKeys(List<String> files, Range range) throws Exception {
    int n = 0;
    try (Scanner s =
        RFile.newScanner()
            .from(files.toArray(new String[0]))
            .withFileSystem(FileSystem.getLocal(HADOOP))
            .withoutSystemIterators()
            .withBounds(range)
            .build()) {
      for (Map.Entry<Key, Value> e : s) {
        n++;
      }
    }
    return n;
  }

  /** The cells of {@code cells} (key strings) that appear with more than one timestamp. */
  private static int severalVersions(List<String> cells) {
    int n = 0;
    String prev = null;
    for (String c : cells) {
      String cell = c.substring(0, c.indexOf("] ") + 1);
      if (cell.equals(prev)) {
        n++;
      }
      prev = cell;
    }
    return n;
  }
}
