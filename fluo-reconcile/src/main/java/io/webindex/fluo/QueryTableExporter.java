package io.webindex.fluo;

import io.webindex.core.schema.CellChange;
import io.webindex.store.Cells;
import io.webindex.store.StoreException;
import java.util.Iterator;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.ClientConfiguration;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.ZooKeeperInstance;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.recipes.core.export.SequencedExport;
import org.apache.fluo.recipes.core.export.function.Exporter;

/**
 * Writes exported cell changes to the query table, each with its export sequence number as
 * timestamp, so an older export can never overwrite a newer one whatever the write order. Every
 * export call is flushed before it returns (the queue entries are deleted only after that).
 *
 * <p>Not fluo-recipes' {@code AccumuloExporter}: in recipes 1.1 all of its writers in a JVM share
 * one static queue, which sends exports of one application to another's table when two run in one
 * JVM (tests, the embedded runtime, a re-pointed exporter). This one owns its writer.
 */
final class QueryTableExporter implements Exporter<String, IndexExport> {
  static final String INSTANCE = "webindex.export.instance";
  static final String ZOOKEEPERS = "webindex.export.zookeepers";
  static final String USER = "webindex.export.user";
  static final String PASSWORD = "webindex.export.password";
  static final String TABLE = "webindex.export.table";

  private final SimpleConfiguration app;
  private BatchWriter writer;

  QueryTableExporter(SimpleConfiguration app) {
    this.app = app;
  }

  /** Stores the target in the application configuration. */
  static void configure(
      FluoConfiguration fc,
      String instance,
      String zookeepers,
      String user,
      String password,
      String table) {
    SimpleConfiguration app = fc.getAppConfiguration();
    app.setProperty(INSTANCE, instance);
    app.setProperty(ZOOKEEPERS, zookeepers);
    app.setProperty(USER, user);
    app.setProperty(PASSWORD, password);
    app.setProperty(TABLE, table);
  }

  static String table(SimpleConfiguration app) {
    return app.getString(TABLE);
  }

  private synchronized BatchWriter writer() {
    if (writer == null) {
      try {
        Connector conn =
            new ZooKeeperInstance(
                    ClientConfiguration.create()
                        .withInstance(app.getString(INSTANCE))
                        .withZkHosts(app.getString(ZOOKEEPERS)))
                .getConnector(app.getString(USER), new PasswordToken(app.getString(PASSWORD)));
        writer = conn.createBatchWriter(app.getString(TABLE), new BatchWriterConfig());
      } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
        throw new StoreException(
            "cannot write to query table " + app.getString(TABLE) + ": " + e.getMessage(), e);
      }
    }
    return writer;
  }

  @Override
  public synchronized void export(Iterator<SequencedExport<String, IndexExport>> exports) {
    BatchWriter bw = writer();
    try {
      while (exports.hasNext()) {
        SequencedExport<String, IndexExport> e = exports.next();
        for (CellChange change : e.getValue().changes()) {
          bw.addMutation(Cells.toMutation(change, e.getSequence()));
        }
      }
      bw.flush();
    } catch (MutationsRejectedException e) {
      writer = null;
      throw new StoreException(
          "the query table " + app.getString(TABLE) + " rejected exports: " + e.getMessage(), e);
    }
  }
}
