package io.webindex.check.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The metadata entries the files check reads, decoded as Accumulo 1.x writes them. */
class FileCheckTest {
  private static final Supplier<String> VOLUME = () -> "hdfs://nn:8020/accumulo";

  @Test
  void anAbsoluteFileEntryIsItsOwnPathAndNeedsNoVolume() {
    Supplier<String> none =
        () -> {
          throw new AssertionError("an absolute entry needs no volume");
        };
    assertEquals(
        new Path("hdfs://nn:8020/accumulo/tables/2/t-0001/F0000.rf"),
        FileCheck.resolve("hdfs://nn:8020/accumulo/tables/2/t-0001/F0000.rf", "5", none));
    assertEquals(
        new Path("file:/tmp/mac/accumulo/tables/2/default_tablet/A0000.rf"),
        FileCheck.resolve("file:/tmp/mac/accumulo/tables/2/default_tablet/A0000.rf", "5", none));
  }

  @Test
  void relativeFileEntriesAreUnderTheDefaultVolumesTablesDirectory() {
    // another table's file, as a clone made before Accumulo 1.6 refers to it
    assertEquals(
        new Path("hdfs://nn:8020/accumulo/tables/3/t-0001/F0000.rf"),
        FileCheck.resolve("../3/t-0001/F0000.rf", "5", VOLUME));
    // the table's own file
    assertEquals(
        new Path("hdfs://nn:8020/accumulo/tables/5/t-0001/F0000.rf"),
        FileCheck.resolve("/t-0001/F0000.rf", "5", VOLUME));
    assertEquals(
        new Path("hdfs://nn:8020/accumulo/tables/5/t-0001/F0000.rf"),
        FileCheck.resolve("/t-0001/F0000.rf", "5", () -> "hdfs://nn:8020/accumulo/"));
    StoreException e =
        assertThrows(StoreException.class, () -> FileCheck.resolve("t-0001/F.rf", "5", VOLUME));
    assertEquals(
        "a file entry of an unknown form in the metadata table: t-0001/F.rf", e.getMessage());
  }

  @Test
  void thePreviousEndRowIsAFlagByteAndTheRow() {
    assertNull(FileCheck.prevEndRow(new byte[] {0}));
    assertArrayEquals(
        "p:com.a".getBytes(StandardCharsets.UTF_8),
        FileCheck.prevEndRow(new byte[] {1, 'p', ':', 'c', 'o', 'm', '.', 'a'}));
    assertArrayEquals(new byte[0], FileCheck.prevEndRow(new byte[] {1}));
    assertThrows(StoreException.class, () -> FileCheck.prevEndRow(new byte[] {2, 'a'}));
    assertThrows(StoreException.class, () -> FileCheck.prevEndRow(new byte[] {0, 'a'}));
    assertThrows(StoreException.class, () -> FileCheck.prevEndRow(new byte[0]));
  }

  @Test
  void aFileWhoseTimeTheTabletServerSetsIsRefused() {
    FileCheck.checkNoTimeSet("t", "f.rf", "1234,56");
    FileCheck.checkNoTimeSet("t", "f.rf", "1234,56,-1");
    FileCheck.Unavailable e =
        assertThrows(
            FileCheck.Unavailable.class,
            () -> FileCheck.checkNoTimeSet("q_b0", "hdfs://x/I0000.rf", "1234,56,1700000000000"));
    assertEquals(
        "the file hdfs://x/I0000.rf of q_b0 was bulk imported with its cells' time set by the"
            + " tablet server",
        e.getMessage());
  }

  @Test
  void aCloneNameIsAValidTableNameInTheSourcesNamespace() {
    String a = FileCheck.cloneName("ns.q_b0");
    assertTrue(a.matches("ns\\.q_b0_chk_[0-9]+_[0-9a-f]{8}"), a);
    assertTrue(FileCheck.cloneName("q").matches("q_chk_[0-9]+_[0-9a-f]{8}"));
  }
}
