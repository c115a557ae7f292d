package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.QuerySchema;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.data.ColumnUpdate;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Value;
import org.junit.jupiter.api.Test;

class CellsTest {
  private static final Cell CELL = QuerySchema.inlink("com.c", "com.b", "C from B, caf\u00e9");

  private static String s(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void putCarriesRowColumnAndUtf8Value() {
    Mutation m = Cells.toMutation(CELL);
    assertEquals("p:com.c", s(m.getRow()));
    List<ColumnUpdate> u = m.getUpdates();
    assertEquals(1, u.size());
    assertEquals("inlinks", s(u.get(0).getColumnFamily()));
    assertEquals("com.b", s(u.get(0).getColumnQualifier()));
    assertEquals("C from B, caf\u00e9", s(u.get(0).getValue()));
    assertFalse(u.get(0).isDeleted());
    assertFalse(u.get(0).hasTimestamp());
    assertEquals(0, u.get(0).getColumnVisibility().length);
  }

  @Test
  void timestampVariantsSetTheTimestamp() {
    ColumnUpdate put = Cells.toMutation(CELL, 42L).getUpdates().get(0);
    assertTrue(put.hasTimestamp());
    assertEquals(42L, put.getTimestamp());
    ColumnUpdate del =
        Cells.toMutation(CellChange.delete("p:com.c", "inlinks", "com.b"), 43L).getUpdates().get(0);
    assertTrue(del.isDeleted());
    assertEquals(43L, del.getTimestamp());
  }

  @Test
  void changesBecomePutsAndDeletes() {
    ColumnUpdate put = Cells.toMutation(CellChange.put(CELL)).getUpdates().get(0);
    assertFalse(put.isDeleted());
    assertEquals("C from B, caf\u00e9", s(put.getValue()));
    Mutation m = Cells.toMutation(CellChange.delete("t:x", "", ""));
    assertEquals("t:x", s(m.getRow()));
    ColumnUpdate del = m.getUpdates().get(0);
    assertTrue(del.isDeleted());
    assertFalse(del.hasTimestamp());
    assertEquals("", s(del.getColumnFamily()));
  }

  @Test
  void entryRoundTrip() {
    Mutation m = Cells.toMutation(CELL);
    ColumnUpdate u = m.getUpdates().get(0);
    Key key = new Key(m.getRow(), u.getColumnFamily(), u.getColumnQualifier(), new byte[0], 7L);
    assertEquals(CELL, Cells.fromEntry(key, new Value(u.getValue())));
    Cell total = QuerySchema.total("com.c", 3);
    assertEquals(
        total,
        Cells.fromEntry(
            new Key(total.row(), "", ""), new Value("3".getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void oneMutationPerRowRun() {
    List<Cell> cells =
        List.of(
            QuerySchema.pageCount("com.c", 2),
            QuerySchema.rank("com.c", "com.c", 3),
            QuerySchema.incount("com.c", 3));
    List<Mutation> ms = Cells.toMutations(cells);
    assertEquals(2, ms.size());
    assertEquals(2, ms.get(0).getUpdates().size());
    assertEquals("p:com.c", s(ms.get(1).getRow()));
  }

  /** A batch writer that records what it is asked; it rejects the mutation of {@code badRow}. */
  static final class RecordingWriter {
    final List<String> calls = new ArrayList<>();
    final BatchWriter writer;

    RecordingWriter(String badRow) {
      writer =
          (BatchWriter)
              Proxy.newProxyInstance(
                  CellsTest.class.getClassLoader(),
                  new Class<?>[] {BatchWriter.class},
                  (proxy, method, args) -> {
                    calls.add(method.getName());
                    if (method.getName().equals("addMutation")
                        && s(((Mutation) args[0]).getRow()).equals(badRow)) {
                      throw new MutationsRejectedException(
                          null, List.of(), Map.of(), List.of("constraint says no"), 1, null);
                    }
                    return null;
                  });
    }
  }

  @Test
  void theWriterIsClosedAfterARejectedMutation() {
    RecordingWriter w = new RecordingWriter("p:com.c");
    StoreException e =
        assertThrows(StoreException.class, () -> Cells.write(w.writer, "t", List.of(CELL)));
    assertTrue(e.getMessage().contains("writing to table 't' failed"), e.getMessage());
    assertEquals(List.of("addMutation", "close"), w.calls);
  }

  @Test
  void theWriterIsClosedWhenTheCellsFail() {
    RecordingWriter w = new RecordingWriter("none");
    Iterable<Cell> failing =
        () ->
            new Iterator<>() {
              int n;

              @Override
              public boolean hasNext() {
                return true;
              }

              @Override
              public Cell next() {
                if (n++ == 2) {
                  throw new IllegalStateException("the source broke");
                }
                return QuerySchema.incount("com.x" + n, n);
              }
            };
    assertThrows(IllegalStateException.class, () -> Cells.write(w.writer, "t", failing));
    assertEquals(List.of("addMutation", "close"), w.calls);
  }

  @Test
  void aSuccessfulWriteClosesOnce() {
    RecordingWriter w = new RecordingWriter("none");
    assertEquals(
        3,
        Cells.write(
            w.writer,
            "t",
            List.of(
                QuerySchema.pageCount("com.c", 2),
                QuerySchema.rank("com.c", "com.c", 3),
                QuerySchema.incount("com.c", 3))));
    assertEquals(List.of("addMutation", "addMutation", "close"), w.calls);
  }
}
