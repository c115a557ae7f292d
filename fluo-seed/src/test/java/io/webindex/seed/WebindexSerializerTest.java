package io.webindex.seed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.model.UriState;
import io.webindex.core.model.UriUpdate;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.TimedCell;
import io.webindex.core.schema.TimedCellChange;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluo.api.data.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Keys and values survive a round trip, and two distinct keys stay two keys inside a combine queue
 * on Fluo 1.2.0 (see {@link WebindexSerializer}).
 */
class WebindexSerializerTest {
  private final WebindexSerializer serializer = new WebindexSerializer();

  /**
   * Two URI keys of a synthetic web whose updates the {@code um:} queue once merged: equal length,
   * equal bytes up to the last two, and "qp" and "s2" have the same 31-based hash (31 * 'q' + 'p' =
   * 31 * 's' + '2' = 3615), as {@code Bytes.hashCode} computes it.
   */
  private static final String QP = "uk.org.site9.www/links/qp";

  private static final String S2 = "uk.org.site9.www/links/s2";

  @Test
  void keysThatHashAlikeStayTwoKeysInACombineQueueBucket() {
    assertEquals(31 * 'q' + 'p', 31 * 's' + '2');
    // bucket ids as the queues write them: 2 hex digits for up to 256 buckets, 8 at most
    for (String bucket : List.of("02", "0000002a")) {
      Map<Bytes, Integer> updates = new HashMap<>();
      Bytes qp = keyOfUpdateRow("um", bucket, QP, 1029);
      Bytes s2 = keyOfUpdateRow("um", bucket, S2, 1454);
      assertEquals(qp.hashCode(), s2.hashCode(), "the keys must collide in a hash map");
      updates.merge(qp, 1, Integer::sum);
      updates.merge(s2, 1, Integer::sum);
      updates.merge(keyOfUpdateRow("um", bucket, S2, 1511), 1, Integer::sum);
      assertEquals(2, updates.size(), "bucket " + bucket + ": " + updates.keySet());
      assertNotEquals(qp, s2);
      assertEquals(QP, serializer.deserialize(qp.toArray(), String.class));
      assertEquals(S2, serializer.deserialize(s2.toArray(), String.class));
    }
  }

  @Test
  void everyKeyAndValueReadsBackAsWritten() {
    for (String key : List.of("", "a", QP, "fr.site8/photos/rq.html", "ü/é")) {
      assertEquals(key, serializer.deserialize(serializer.serialize(key), String.class));
    }
    assertEquals(-42L, serializer.deserialize(serializer.serialize(-42L), Long.class));
    UriUpdate d = UriUpdate.of(new UriState.Delta(-3, 1));
    assertEquals(d, serializer.deserialize(serializer.serialize(d), UriUpdate.class));
    UriUpdate n = new UriUpdate(new UriState.Delta(2, 1), 1798797600000L);
    assertEquals("2,1,1798797600000", new String(serializer.serialize(n), StandardCharsets.UTF_8));
    assertEquals(n, serializer.deserialize(serializer.serialize(n), UriUpdate.class));
    assertEquals("-3,1", new String(serializer.serialize(d), StandardCharsets.UTF_8));
  }

  /**
   * An export with query-table and history-table changes: the encoded text (a hand-written golden:
   * query lines first, then the history lines) and its way back.
   */
  @Test
  void anExportWithHistoryChangesReadsBackAsWritten() {
    IndexExport e =
        new IndexExport(
            List.of(
                CellChange.put(new Cell("p:com.a/x", "page", "cur", "{\"t\":\"a\tb\"}")),
                CellChange.delete("p:com.a/x", "inlinks", "com.b")),
            List.of(
                new TimedCellChange.Put(
                    new TimedCell("com.a/x", "crawl", "", 1767225600000L, "ok sha1:AB 2")),
                new TimedCellChange.Delete(new Cell.Column("com.a/x", "sched", ""), 41L)));
    String golden =
        "P\tp:com.a/x\tpage\tcur\t{\"t\":\"a\\tb\"}\n"
            + "D\tp:com.a/x\tinlinks\tcom.b\n"
            + "T\tcom.a/x\tcrawl\t\t1767225600000\tok sha1:AB 2\n"
            + "X\tcom.a/x\tsched\t\t41\n";
    assertEquals(golden, new String(serializer.serialize(e), StandardCharsets.UTF_8));
    assertEquals(e, serializer.deserialize(serializer.serialize(e), IndexExport.class));
    IndexExport queryOnly = new IndexExport(e.changes());
    assertEquals(
        queryOnly, serializer.deserialize(serializer.serialize(queryOnly), IndexExport.class));
  }

  /**
   * An export with changes of all three tables: the frontier lines (a hand-written golden) come
   * last, each a cell-change line behind an {@code F}; the way back gives each table its own.
   */
  @Test
  void anExportWithFrontierChangesReadsBackAsWritten() {
    IndexExport e =
        new IndexExport(
            List.of(CellChange.delete("p:com.a/x", "inlinks", "com.b")),
            List.of(
                new TimedCellChange.Put(
                    new TimedCell("com.a/x", "crawl", "", 1767225600000L, "ok sha1:AB 2"))),
            List.of(
                CellChange.delete("q:a.com", "due", "0000000000000000:z:com.a/x"),
                CellChange.put(
                    new Cell("q:a.com", "due", "0000019b77f7a000:z:com.a/x", "http://a.com/x"))));
    String golden =
        "D\tp:com.a/x\tinlinks\tcom.b\n"
            + "T\tcom.a/x\tcrawl\t\t1767225600000\tok sha1:AB 2\n"
            + "FD\tq:a.com\tdue\t0000000000000000:z:com.a/x\n"
            + "FP\tq:a.com\tdue\t0000019b77f7a000:z:com.a/x\thttp://a.com/x\n";
    assertEquals(golden, new String(serializer.serialize(e), StandardCharsets.UTF_8));
    assertEquals(e, serializer.deserialize(serializer.serialize(e), IndexExport.class));
    IndexExport frontierOnly = new IndexExport(List.of(), List.of(), e.frontier());
    assertEquals(
        frontierOnly,
        serializer.deserialize(serializer.serialize(frontierOnly), IndexExport.class));
  }

  @Test
  void bytesWithoutTheTrailerAreNotAKey() {
    byte[] bare = QP.getBytes(StandardCharsets.UTF_8);
    assertThrows(IllegalArgumentException.class, () -> serializer.deserialize(bare, String.class));
  }

  /**
   * What fluo-recipes 1.1.0's combine queue takes as the key of an update row: the row is {@code
   * <id>:u:<bucket>:<serialized key><8-byte start timestamp>}, the key the slice between the
   * notification row prefix and the timestamp.
   */
  private Bytes keyOfUpdateRow(String queue, String bucket, String key, long startTs) {
    byte[] ts = new byte[8];
    for (int i = 0; i < 8; i++) {
      ts[i] = (byte) (startTs >>> (56 - 8 * i));
    }
    String prefix = queue + ":u:" + bucket + ":";
    Bytes row =
        Bytes.builder().append(prefix).append(serializer.serialize(key)).append(ts).toBytes();
    return row.subSequence(prefix.length(), row.length() - 8);
  }
}
