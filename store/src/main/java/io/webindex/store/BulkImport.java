package io.webindex.store;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.TableOfflineException;
import org.apache.accumulo.core.client.admin.NewTableConfiguration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Bulk imports sorted RFiles into a run's fresh tables ({@link QueryTables}, {@link HistoryTables},
 * {@link FrontierTables} create them), and drops them after a failed run.
 */
public final class BulkImport {
  private BulkImport() {}

  /** How long an operation on a table created a moment ago waits for the client to know it. */
  static final Duration TABLE_KNOWN_WITHIN = Duration.ofSeconds(10);

  /**
   * An operation on a table by its name, which may also throw {@code X} (inferred as
   * RuntimeException where it throws nothing else).
   */
  public interface TableOp<X extends Exception> {
    void run()
        throws X,
            AccumuloException,
            AccumuloSecurityException,
            TableNotFoundException,
            TableOfflineException;
  }

  /**
   * Runs {@code op} on a table this process has just created (or cloned), again while the client
   * says the table does not exist, for up to {@link #TABLE_KNOWN_WITHIN}. The client looks a
   * table's name up in a cache of the table list that another thread of the process can fill with a
   * list read before the table was created (seen in full test runs: "Table … does not exist" at the
   * split right after the creation, and at the bulk import after the split, while the recompute's
   * other table steps or a sweeper of old tables read and changed the list). Accumulo clears the
   * cache on a miss and reads the list again, which such a read can still overwrite; a try a moment
   * later reads it afresh. The operations are by name and do nothing before the lookup.
   */
  public static <X extends Exception> void onFreshTable(TableOp<X> op)
      throws X,
          AccumuloException,
          AccumuloSecurityException,
          TableNotFoundException,
          TableOfflineException {
    onFreshTable(op, TABLE_KNOWN_WITHIN);
  }

  /**
   * Waits until this client knows {@code table}, which this process (or another) has just created:
   * {@link #onFreshTable(TableOp)} with a look-up of its properties.
   *
   * @throws StoreException when the client still does not know it after {@link
   *     #TABLE_KNOWN_WITHIN}, or cannot ask
   */
  public static void awaitKnown(Connector conn, String table) {
    try {
      onFreshTable(() -> conn.tableOperations().getProperties(table));
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
      throw new StoreException("table " + table + " was created but is not known: " + e, e);
    } catch (TableOfflineException e) {
      throw new StoreException("table " + table + " is offline: " + e.getMessage(), e);
    }
  }

  /**
   * Creates {@code table} with {@code properties} unless it exists, and returns once this client
   * knows it ({@link #awaitKnown}), also when another process created it at the same moment. The
   * one way a table that any process may create first is made: the run registry's, the frontier
   * service's operational table, a run's history and frontier tables when the Fluo exporter finds
   * them missing.
   *
   * @return whether this call created it
   * @throws StoreException when the client does not come to know the table it created
   */
  public static boolean createIfMissing(
      Connector conn, String table, Map<String, String> properties)
      throws AccumuloException, AccumuloSecurityException {
    if (conn.tableOperations().exists(table)) {
      return false; // in the client's table list, so known to it
    }
    boolean created;
    try {
      conn.tableOperations().create(table, new NewTableConfiguration().setProperties(properties));
      created = true;
    } catch (TableExistsException e) {
      created = false; // by another process at the same moment: usable once this client knows it
    }
    awaitKnown(conn, table);
    return created;
  }

  /** {@link #onFreshTable(TableOp)} trying again for up to {@code within}. */
  static <X extends Exception> void onFreshTable(TableOp<X> op, Duration within)
      throws X,
          AccumuloException,
          AccumuloSecurityException,
          TableNotFoundException,
          TableOfflineException {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      try {
        op.run();
        return;
      } catch (TableNotFoundException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException i) {
          Thread.currentThread().interrupt();
          e.addSuppressed(i);
          throw e;
        }
      }
    }
  }

  /** Deletes a table if it exists (cleaning up after a failed run). */
  public static void dropIfExists(Connector conn, String table) {
    try {
      if (conn.tableOperations().exists(table)) {
        conn.tableOperations().delete(table);
      }
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
      throw new StoreException("cannot drop table " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * Bulk imports every RFile in {@code dir} into {@code table}; {@code failDir} is created empty.
   *
   * @throws StoreException when Accumulo refuses or any file lands in the failure directory
   */
  public static void importDirectory(
      Connector conn, Configuration hadoop, String table, Path dir, Path failDir)
      throws IOException {
    FileSystem fs = dir.getFileSystem(hadoop);
    if (fs.exists(failDir)) {
      fs.delete(failDir, true);
    }
    fs.mkdirs(failDir);
    try {
      onFreshTable(
          () ->
              conn.tableOperations()
                  .importDirectory(table, dir.toString(), failDir.toString(), false));
    } catch (AccumuloException
        | AccumuloSecurityException
        | TableNotFoundException
        | TableOfflineException e) {
      throw new StoreException(
          "bulk import of " + dir + " into " + table + " failed: " + e.getMessage(), e);
    }
    List<String> failed = new ArrayList<>();
    for (FileStatus st : fs.listStatus(failDir)) {
      failed.add(st.getPath().getName());
    }
    if (!failed.isEmpty()) {
      throw new StoreException(
          "bulk import into " + table + " left files in " + failDir + ": " + failed);
    }
  }
}
