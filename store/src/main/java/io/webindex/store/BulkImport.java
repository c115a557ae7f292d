package io.webindex.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.TableExistsException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.TableOfflineException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;

/** Creates fresh pre-split tables and bulk imports sorted RFiles into them. */
public final class BulkImport {
  private BulkImport() {}

  /**
   * Creates {@code table} with the given split points.
   *
   * @throws StoreException when it exists already: a run never writes into an existing table
   */
  public static void createFresh(Connector conn, String table, SortedSet<Text> splits) {
    try {
      conn.tableOperations().create(table);
      if (!splits.isEmpty()) {
        conn.tableOperations().addSplits(table, splits);
      }
    } catch (TableExistsException e) {
      throw new StoreException(
          "table " + table + " exists already; a run only writes into a fresh table", e);
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
      throw new StoreException("cannot create table " + table + ": " + e.getMessage(), e);
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
      conn.tableOperations().importDirectory(table, dir.toString(), failDir.toString(), false);
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
