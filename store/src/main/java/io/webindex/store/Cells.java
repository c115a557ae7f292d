package io.webindex.store;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.TimedCell;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.ByteSequence;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Value;
import org.apache.hadoop.io.Text;

/**
 * The one translation between our {@link Cell}s / {@link CellChange}s and Accumulo's keys, values
 * and mutations. Everything that turns cells into Accumulo objects (or back) goes through here: the
 * dump, the queries, the batch writers and the Fluo exporter. All text is UTF-8; visibility is
 * always empty.
 */
public final class Cells {
  private Cells() {}

  /** A mutation that puts one cell (the server assigns the timestamp). */
  public static Mutation toMutation(Cell cell) {
    Mutation m = new Mutation(new Text(cell.row()));
    put(m, cell);
    return m;
  }

  /** A mutation that puts one cell at timestamp {@code ts}. */
  public static Mutation toMutation(Cell cell, long ts) {
    Mutation m = new Mutation(new Text(cell.row()));
    put(m, cell, ts);
    return m;
  }

  /** A mutation for one change: a put, or a delete of the column. */
  public static Mutation toMutation(CellChange change) {
    Mutation m = new Mutation(new Text(change.column().row()));
    add(m, change);
    return m;
  }

  /**
   * A mutation for one change at timestamp {@code ts} (a delete hides versions up to {@code ts}).
   */
  public static Mutation toMutation(CellChange change, long ts) {
    Mutation m = new Mutation(new Text(change.column().row()));
    add(m, change, ts);
    return m;
  }

  /**
   * Mutations for cells, one per run of consecutive cells with the same row (cells in table order
   * therefore give one mutation per row).
   */
  public static List<Mutation> toMutations(Iterable<Cell> cells) {
    List<Mutation> out = new ArrayList<>();
    Mutation current = null;
    String currentRow = null;
    for (Cell c : cells) {
      if (current == null || !c.row().equals(currentRow)) {
        current = new Mutation(new Text(c.row()));
        currentRow = c.row();
        out.add(current);
      }
      put(current, c);
    }
    return out;
  }

  /** The cell a key and value hold (timestamp and visibility dropped). */
  public static Cell fromEntry(Key key, Value value) {
    return new Cell(
        text(key.getRowData()),
        text(key.getColumnFamilyData()),
        text(key.getColumnQualifierData()),
        new String(value.get(), StandardCharsets.UTF_8));
  }

  /** The cell version a key and value hold, with its timestamp (visibility dropped). */
  public static TimedCell timedFromEntry(Key key, Value value) {
    return new TimedCell(
        text(key.getRowData()),
        text(key.getColumnFamilyData()),
        text(key.getColumnQualifierData()),
        key.getTimestamp(),
        new String(value.get(), StandardCharsets.UTF_8));
  }

  /**
   * Writes cells to an existing table with one batch writer, flushing before it returns. The writer
   * is closed on every path: after a rejected mutation or a failing {@code cells} iterator too.
   *
   * @return the number of cells written
   * @throws StoreException when the table does not exist or the server rejects a mutation
   */
  public static long write(Connector connector, String table, Iterable<Cell> cells) {
    BatchWriter writer;
    try {
      writer = connector.createBatchWriter(table, new BatchWriterConfig());
    } catch (TableNotFoundException e) {
      throw new StoreException("no table '" + table + "'", e);
    }
    return write(writer, table, cells);
  }

  /** Writes cells with {@code writer}, one mutation per row run, and closes it on every path. */
  static long write(BatchWriter writer, String table, Iterable<Cell> cells) {
    long n = 0;
    try {
      Mutation current = null;
      String currentRow = null;
      for (Cell c : cells) {
        if (current == null || !c.row().equals(currentRow)) {
          if (current != null) {
            writer.addMutation(current);
          }
          current = new Mutation(new Text(c.row()));
          currentRow = c.row();
        }
        put(current, c);
        n++;
      }
      if (current != null) {
        writer.addMutation(current);
      }
    } catch (MutationsRejectedException e) {
      closeAfter(writer, e);
      throw rejected(table, e);
    } catch (RuntimeException | Error e) {
      closeAfter(writer, e);
      throw e;
    }
    try {
      writer.close();
    } catch (MutationsRejectedException e) {
      throw rejected(table, e);
    }
    return n;
  }

  private static StoreException rejected(String table, MutationsRejectedException e) {
    return new StoreException("writing to table '" + table + "' failed: " + e.getMessage(), e);
  }

  /** Closes a writer after {@code failure}; what closing throws is attached to it. */
  private static void closeAfter(BatchWriter writer, Throwable failure) {
    try {
      writer.close();
    } catch (MutationsRejectedException | RuntimeException e) {
      if (e != failure) {
        failure.addSuppressed(e);
      }
    }
  }

  private static void put(Mutation m, Cell c) {
    m.put(new Text(c.family()), new Text(c.qualifier()), value(c.value()));
  }

  private static void put(Mutation m, Cell c, long ts) {
    m.put(new Text(c.family()), new Text(c.qualifier()), ts, value(c.value()));
  }

  // CellChange is sealed (Put | Delete); Java 17 has no pattern switch, so one instanceof decides.
  private static void add(Mutation m, CellChange change) {
    if (change instanceof CellChange.Put p) {
      put(m, p.cell());
    } else {
      Cell.Column c = change.column();
      m.putDelete(new Text(c.family()), new Text(c.qualifier()));
    }
  }

  private static void add(Mutation m, CellChange change, long ts) {
    if (change instanceof CellChange.Put p) {
      put(m, p.cell(), ts);
    } else {
      Cell.Column c = change.column();
      m.putDelete(new Text(c.family()), new Text(c.qualifier()), ts);
    }
  }

  private static Value value(String s) {
    return new Value(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(ByteSequence b) {
    if (b.isBackedByArray()) {
      return new String(b.getBackingArray(), b.offset(), b.length(), StandardCharsets.UTF_8);
    }
    return new String(b.toArray(), StandardCharsets.UTF_8);
  }
}
