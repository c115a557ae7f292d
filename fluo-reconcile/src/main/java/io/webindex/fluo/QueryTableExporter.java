package io.webindex.fluo;

import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.TimedCellChange;
import io.webindex.seed.IndexExport;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.Cells;
import io.webindex.store.FrontierTables;
import io.webindex.store.HistoryTables;
import io.webindex.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.ConditionalWriter;
import org.apache.accumulo.core.client.ConditionalWriterConfig;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.MultiTableBatchWriter;
import org.apache.accumulo.core.client.MutationsRejectedException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;
import org.apache.accumulo.core.data.Condition;
import org.apache.accumulo.core.data.ConditionalMutation;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Value;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.recipes.core.export.SequencedExport;
import org.apache.fluo.recipes.core.export.function.Exporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes exported cell changes to the query table, each stamped with {@link #timestamp(long, long)}
 * of the application's export epoch and the export's sequence number, so an older export can never
 * overwrite a newer one whatever the write order — also across applications: every application that
 * exports into a table takes a higher epoch than all before it (docs/fluo.md), while its oracle's
 * sequence numbers restart near zero. Every export call is written and flushed by a writer of its
 * own, closed before the call returns (the queue entries are deleted only after that).
 *
 * <p>Not fluo-recipes' {@code AccumuloExporter}: in recipes 1.1 all of its writers in a JVM share
 * one static queue, which sends exports of one application to another's table when two run in one
 * JVM (tests, the embedded runtime, a re-pointed exporter). The application configuration (stored
 * in ZooKeeper) names the instance, user, table and epoch; the password comes from {@link
 * ExportCredentials}.
 *
 * <p>The history-table changes of an export ({@link IndexExport#history}) go to the query table's
 * history table ({@link HistorySchema#historyTable}): a {@code crawl:} version at its own timestamp
 * (the crawl millisecond), the {@code sched:} column's put at the export's timestamp and its delete
 * just below it ({@link #stamp}), so the newest export's schedule hides every older one whatever
 * the write order. A query table without a history table (made by hand, not by a recompute) gets
 * one, keeping the application's {@code webindex.history.versions}.
 *
 * <p>The export queue delivers at least once: when the process dies (or its transaction fails)
 * after an export call wrote its cells and before the transaction that removes the queue entries
 * committed, the next worker exports the same entries again. The query-table and frontier-table
 * cells are then written again at the same timestamps with the same values, which changes nothing
 * those tables' scans return (one version per column). The history table keeps several versions per
 * column, and Accumulo keeps a second put of one key beside the first as a version of its own: a
 * replayed {@code crawl:} version would no longer match the crawl count of its schedule, and the
 * versioning iterator would drop the oldest real crawl for it. Every history-table put is therefore
 * a conditional write ({@link #versionWrite}): made only when its column has no version at that
 * timestamp yet. A replayed one is rejected, and one whose outcome the writer does not know is
 * tried again, which either writes it or finds it written. (Deletes are markers, and a second one
 * at the same timestamp hides nothing more.)
 *
 * <p>The frontier-table changes of an export ({@link IndexExport#frontier}) go to the query table's
 * frontier table ({@link FrontierSchema#frontierTable}), stamped like the query-table changes: a
 * put and a delete at the export's timestamp, so of two exports that change one column the newer
 * one wins whatever the write order (a URI's entry moves by a delete of its old column and a put of
 * its new one, which never share a column). A query table without a frontier table gets one.
 */
final class QueryTableExporter implements Exporter<String, IndexExport> {
  private static final Logger log = LoggerFactory.getLogger(QueryTableExporter.class);
  static final String INSTANCE = "webindex.export.instance";
  static final String ZOOKEEPERS = "webindex.export.zookeepers";
  static final String USER = "webindex.export.user";
  static final String TABLE = "webindex.export.table";
  static final String EPOCH = "webindex.export.epoch";

  /** Bits of a timestamp that hold the export sequence number; the epoch is above them. */
  static final int SEQUENCE_BITS = 40;

  private final SimpleConfiguration app;
  private Connector conn;
  private boolean historyTableChecked;
  private boolean frontierTableChecked;

  QueryTableExporter(SimpleConfiguration app) {
    this.app = app;
  }

  /** Stores the target in the application configuration (no secret: it is stored in ZooKeeper). */
  static void configure(
      FluoConfiguration fc,
      String instance,
      String zookeepers,
      String user,
      String table,
      long epoch) {
    if (epoch < 1 || epoch >= 1L << (63 - SEQUENCE_BITS)) {
      throw new IllegalArgumentException("export epoch out of range: " + epoch);
    }
    SimpleConfiguration app = fc.getAppConfiguration();
    app.setProperty(INSTANCE, instance);
    app.setProperty(ZOOKEEPERS, zookeepers);
    app.setProperty(USER, user);
    app.setProperty(TABLE, table);
    app.setProperty(EPOCH, Long.toString(epoch));
  }

  static String table(SimpleConfiguration app) {
    return app.getString(TABLE);
  }

  static long epoch(SimpleConfiguration app) {
    return Long.parseLong(app.getString(EPOCH, "0"));
  }

  /**
   * The timestamp of an export: epoch above, sequence number below, so every timestamp of a later
   * epoch is higher than every timestamp of an earlier one.
   */
  static long timestamp(long epoch, long sequence) {
    if (sequence < 0 || sequence >= 1L << SEQUENCE_BITS) {
      throw new StoreException(
          "export sequence number " + sequence + " does not fit in " + SEQUENCE_BITS + " bits");
    }
    return epoch << SEQUENCE_BITS | sequence;
  }

  private synchronized Connector connector() {
    if (conn == null) {
      String instance = app.getString(INSTANCE);
      String user = app.getString(USER);
      try {
        conn =
            AccumuloConnections.connect(
                instance,
                app.getString(ZOOKEEPERS),
                user,
                new PasswordToken(ExportCredentials.password(instance, user)));
      } catch (StoreException e) {
        throw new StoreException(
            "cannot connect to write the query table " + table(app) + ": " + e.getMessage(), e);
      }
    }
    return conn;
  }

  /**
   * The mutation of one history-table change of an export written at {@code ts}: a {@code sched:}
   * put at {@code ts}, a {@code sched:} delete at {@code ts - 1}; every other change at its own
   * timestamp.
   */
  static Mutation stamp(TimedCellChange change, long ts) {
    boolean sched = change.column().family().equals(HistorySchema.FAM_SCHED);
    if (change instanceof TimedCellChange.Put p) {
      return Cells.toMutation(p.cell().cell(), sched ? ts : p.timestamp());
    }
    return Cells.toMutation(
        CellChange.delete(
            change.column().row(), change.column().family(), change.column().qualifier()),
        sched ? ts - 1 : change.timestamp());
  }

  private synchronized void ensureHistoryTable(Connector c) {
    if (historyTableChecked) {
      return;
    }
    String table = table(app);
    if (HistoryTables.createIfMissing(c, table, WebindexApp.historySettings(app))) {
      log.warn(
          "the query table {} had no history table: created {}",
          table,
          HistorySchema.historyTable(table));
    }
    historyTableChecked = true;
  }

  private synchronized void ensureFrontierTable(Connector c) {
    if (frontierTableChecked) {
      return;
    }
    String table = table(app);
    if (FrontierTables.createIfMissing(c, table)) {
      log.warn(
          "the query table {} had no frontier table: created {}",
          table,
          FrontierSchema.frontierTable(table));
    }
    frontierTableChecked = true;
  }

  /** One export of the queue: its sequence number and what it changes. */
  record Sequenced(long sequence, IndexExport export) {}

  /**
   * The conditional mutation of a history-table put written at {@code ts} (its own timestamp, or
   * the export's for {@code sched:}, see {@link #stamp}): the version, on condition that the column
   * holds none at {@code ts} yet (a replayed export's put is rejected).
   */
  static ConditionalMutation versionWrite(TimedCellChange.Put put, long ts) {
    var c = put.cell();
    ConditionalMutation m =
        new ConditionalMutation(c.row(), new Condition(c.family(), c.qualifier()).setTimestamp(ts));
    m.put(c.family(), c.qualifier(), ts, new Value(c.value().getBytes(StandardCharsets.UTF_8)));
    return m;
  }

  /** The timestamp {@link #stamp} writes a history-table put at in an export at {@code ts}. */
  private static long putTimestamp(TimedCellChange.Put put, long ts) {
    return put.column().family().equals(HistorySchema.FAM_SCHED) ? ts : put.timestamp();
  }

  @Override
  public void export(Iterator<SequencedExport<String, IndexExport>> exports) {
    write(
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            return exports.hasNext();
          }

          @Override
          public Sequenced next() {
            SequencedExport<String, IndexExport> e = exports.next();
            return new Sequenced(e.getSequence(), e.getValue());
          }
        });
  }

  /**
   * Writes the exports and flushes them; a history-table version only where its column has none at
   * its timestamp yet.
   */
  void write(Iterator<Sequenced> exports) {
    long epoch = epoch(app);
    if (epoch < 1) {
      throw new StoreException(
          "the application has no export epoch (initialised by an older webindex): re-initialise"
              + " it with fluo-init or reconcile");
    }
    Connector c = connector();
    String table = table(app);
    if (!c.tableOperations().exists(table)) {
      throw new StoreException("the query table " + table + " does not exist");
    }
    ensureHistoryTable(c);
    ensureFrontierTable(c);
    MultiTableBatchWriter mtbw = c.createMultiTableBatchWriter(new BatchWriterConfig());
    try {
      BatchWriter bw = mtbw.getBatchWriter(table);
      BatchWriter hw = null;
      BatchWriter fw = null;
      List<ConditionalMutation> puts = new ArrayList<>();
      while (exports.hasNext()) {
        Sequenced e = exports.next();
        long ts = timestamp(epoch, e.sequence());
        for (CellChange change : e.export().changes()) {
          bw.addMutation(Cells.toMutation(change, ts));
        }
        for (TimedCellChange change : e.export().history()) {
          if (change instanceof TimedCellChange.Put p) {
            puts.add(versionWrite(p, putTimestamp(p, ts)));
            continue;
          }
          if (hw == null) {
            hw = mtbw.getBatchWriter(HistorySchema.historyTable(table));
          }
          hw.addMutation(stamp(change, ts));
        }
        for (CellChange change : e.export().frontier()) {
          if (fw == null) {
            fw = mtbw.getBatchWriter(FrontierSchema.frontierTable(table));
          }
          fw.addMutation(Cells.toMutation(change, ts));
        }
      }
      mtbw.close();
      mtbw = null;
      if (!puts.isEmpty()) {
        writeVersions(c, HistorySchema.historyTable(table), puts);
      }
    } catch (MutationsRejectedException e) {
      throw new StoreException(
          "the query table "
              + table
              + " or its history or frontier table rejected exports: "
              + e.getMessage(),
          e);
    } catch (TableNotFoundException e) {
      throw new StoreException(
          "the query table " + table + " or its history or frontier table does not exist", e);
    } catch (AccumuloException | AccumuloSecurityException e) {
      throw new StoreException("cannot write the exports of " + table + ": " + e.getMessage(), e);
    } finally {
      if (mtbw != null) {
        try {
          mtbw.close();
        } catch (MutationsRejectedException ignored) {
          // the first failure is the one reported
        }
      }
    }
  }

  /**
   * Writes each conditional mutation until its outcome is known: written, or rejected because the
   * version is there already (a replayed export).
   */
  private static void writeVersions(
      Connector c, String historyTable, List<ConditionalMutation> mutations)
      throws TableNotFoundException, AccumuloException, AccumuloSecurityException {
    int present = 0;
    List<ConditionalMutation> pending = mutations;
    try (ConditionalWriter cw =
        c.createConditionalWriter(historyTable, new ConditionalWriterConfig())) {
      for (int attempt = 1; !pending.isEmpty(); attempt++) {
        List<ConditionalMutation> unknown = new ArrayList<>();
        Iterator<ConditionalWriter.Result> results = cw.write(pending.iterator());
        while (results.hasNext()) {
          ConditionalWriter.Result r = results.next();
          switch (r.getStatus()) {
            case ACCEPTED -> {}
            case REJECTED -> present++;
            case UNKNOWN -> unknown.add(r.getMutation());
            default ->
                throw new StoreException(
                    "the history table "
                        + historyTable
                        + " refused a version of "
                        + new String(r.getMutation().getRow(), StandardCharsets.UTF_8)
                        + ": "
                        + r.getStatus());
          }
        }
        if (!unknown.isEmpty() && attempt >= 10) {
          throw new StoreException(
              "the history table "
                  + historyTable
                  + " did not confirm "
                  + unknown.size()
                  + " versions after "
                  + attempt
                  + " attempts");
        }
        pending = unknown;
      }
    }
    if (present > 0) {
      log.info(
          "a replayed export: {} of {} history versions were in {} already (not written again)",
          present,
          mutations.size(),
          historyTable);
    }
  }
}
