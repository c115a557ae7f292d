package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.FluoSchema;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.BulkImport;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.StoreException;
import java.io.IOException;
import org.apache.accumulo.core.client.Connector;
import org.apache.fluo.api.client.FluoAdmin;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.client.Snapshot;
import org.apache.fluo.api.client.Transaction;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.mini.MiniFluo;
import org.apache.fluo.recipes.core.combine.CombineQueue;
import org.apache.fluo.recipes.core.export.ExportQueue;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webindex Fluo application: its whole configuration in {@link #configure}, its connection
 * settings in {@link #connection}, and starting it from a batch run in {@link #initializeFromRun}.
 */
public final class WebindexApp {
  private static final Logger log = LoggerFactory.getLogger(WebindexApp.class);

  private WebindexApp() {}

  /**
   * Where the configured (base) application lives: its name, its Fluo table, Accumulo, ZooKeeper.
   */
  public static FluoConfiguration connection(WebindexConfig cfg) {
    return connection(cfg, cfg.fluoApp());
  }

  /**
   * Where application {@code app} lives. {@code reconcile} starts one application per run (the
   * served pointer names the current one), so a failed cut-over never touches the running one.
   */
  public static FluoConfiguration connection(WebindexConfig cfg, String app) {
    FluoConfiguration fc = new FluoConfiguration();
    fc.setApplicationName(app);
    fc.setInstanceZookeepers(cfg.zookeepers() + "/fluo");
    fc.setAccumuloInstance(cfg.accumuloInstance());
    fc.setAccumuloZookeepers(cfg.zookeepers());
    fc.setAccumuloUser(cfg.accumuloUser());
    fc.setAccumuloPassword(cfg.accumuloPassword().value());
    fc.setAccumuloTable(fluoTable(cfg, app));
    return fc;
  }

  /**
   * The application that maintains the served table (the served pointer names it after a {@code
   * reconcile}), else the configured one.
   */
  public static String currentApp(WebindexConfig cfg, Connector conn) {
    return new RunRegistry(conn, cfg.metaTable())
        .served()
        .map(RunRegistry.Served::fluoApp)
        .filter(a -> !a.isEmpty())
        .orElse(cfg.fluoApp());
  }

  /** The Fluo table of the base application: {@code <prefix>_fluo}. */
  public static String fluoTable(WebindexConfig cfg) {
    return fluoTable(cfg, cfg.fluoApp());
  }

  /** {@code <prefix>_fluo} for the base application, {@code <prefix>_fluo_<app>} for others. */
  public static String fluoTable(WebindexConfig cfg, String app) {
    if (app.equals(cfg.fluoApp())) {
      return cfg.tablePrefix() + "_fluo";
    }
    return cfg.tablePrefix() + "_fluo_" + app.replaceAll("[^A-Za-z0-9_]", "_");
  }

  /**
   * Every observer, queue and exporter setting of the application (SPEC §5): the {@code um:} and
   * {@code dm:} combine queues and the {@code eq:} export queue with the configured bucket count
   * (the batch seed uses the same), and the exporter writing to {@code queryTable}.
   */
  public static void configure(FluoConfiguration fc, WebindexConfig cfg, String queryTable) {
    fc.setObserverProvider(WebindexObservers.class);
    SimpleSerializer.setSerializer(fc, WebindexSerializer.class);
    CombineQueue.configure(FluoSchema.URI_MAP_ID)
        .keyType(String.class)
        .valueType(UriState.Delta.class)
        .buckets(cfg.fluoBuckets())
        .save(fc);
    CombineQueue.configure(FluoSchema.DOMAIN_MAP_ID)
        .keyType(String.class)
        .valueType(Long.class)
        .buckets(cfg.fluoBuckets())
        .save(fc);
    ExportQueue.configure(FluoSchema.EXPORT_QUEUE_ID)
        .keyType(String.class)
        .valueType(IndexExport.class)
        .buckets(cfg.fluoBuckets())
        .save(fc);
    QueryTableExporter.configure(
        fc,
        cfg.accumuloInstance(),
        cfg.zookeepers(),
        cfg.accumuloUser(),
        cfg.accumuloPassword().value(),
        queryTable);
  }

  /** Low-latency notification settings (the defaults poll for seconds to minutes). */
  public static void lowLatency(FluoConfiguration fc) {
    fc.setProperty("fluo.impl.worker.finder.minSleep", 50);
    fc.setProperty("fluo.impl.worker.finder.maxSleep", 100);
  }

  /**
   * Initialises the application afresh from a successful batch run: clears any previous Fluo table
   * and ZooKeeper state, points the exporter at the run's query table, and bulk imports the run's
   * Fluo seed (a copy; the run keeps its seed) before any worker starts. The caller then starts the
   * application and calls {@link #markApplied} with the run's snapshot.
   */
  public static FluoConfiguration initializeFromRun(
      WebindexConfig cfg, RunRecord run, Configuration hadoop) throws IOException {
    return initializeFromRun(cfg, run, hadoop, cfg.fluoApp());
  }

  /**
   * As {@link #initializeFromRun(WebindexConfig, RunRecord, Configuration)}, for application {@code
   * app}.
   */
  public static FluoConfiguration initializeFromRun(
      WebindexConfig cfg, RunRecord run, Configuration hadoop, String app) throws IOException {
    if (run.status() != RunRecord.Status.SUCCEEDED) {
      throw new StoreException(
          "run "
              + run.runId()
              + " did not succeed ("
              + run.status()
              + "): cannot start Fluo from it");
    }
    FluoConfiguration fc = connection(cfg, app);
    configure(fc, cfg, run.table());
    try (FluoAdmin admin = FluoFactory.newAdmin(fc)) {
      admin.initialize(
          new FluoAdmin.InitializationOptions().setClearTable(true).setClearZookeeper(true));
    } catch (FluoAdmin.AlreadyInitializedException | FluoAdmin.TableExistsException e) {
      throw new StoreException(
          "cannot initialise Fluo application " + app + ": " + e.getMessage(), e);
    }
    Path seed = new Path(run.seedDir());
    FileSystem fs = seed.getFileSystem(hadoop);
    if (fs.exists(seed)) {
      Path copy = new Path(new Path(run.workDir()), "fluo-import-" + System.currentTimeMillis());
      fs.mkdirs(copy);
      int files = 0;
      for (FileStatus st : fs.listStatus(seed)) {
        if (st.getPath().getName().endsWith(".rf")) {
          FileUtil.copy(
              fs, st.getPath(), fs, new Path(copy, st.getPath().getName()), false, hadoop);
          files++;
        }
      }
      Connector conn = AccumuloConnections.connect(cfg);
      BulkImport.importDirectory(
          conn,
          hadoop,
          fc.getAccumuloTable(),
          copy,
          new Path(copy.getParent(), copy.getName() + "-failures"));
      log.info(
          "Fluo application {} seeded from run {} ({} files), exporting to {}",
          app,
          run.runId(),
          files,
          run.table());
    }
    return fc;
  }

  /**
   * Runs the (initialised) application embedded: oracle and workers in this JVM (MiniFluo) over the
   * configured Accumulo, with low-latency notification settings. Close it only when idle: wait for
   * the observers first (Fluo 1.2 can hang closing with work in flight).
   */
  public static MiniFluo startEmbedded(
      FluoConfiguration fc, java.nio.file.Path dataDir, int workerThreads) {
    fc.setMiniStartAccumulo(false);
    fc.setMiniDataDir(dataDir.toAbsolutePath().toString());
    fc.setWorkerThreads(workerThreads);
    lowLatency(fc);
    return FluoFactory.newMiniFluo(fc);
  }

  /** Records that every batch up to {@code batch} is applied. */
  public static void markApplied(FluoClient client, long batch) {
    try (Transaction tx = client.newTransaction()) {
      tx.set(FluoSchema.META_LOADER_ROW, FluoSeed.APPLIED, Long.toString(batch));
      tx.commit();
    }
  }

  /** The highest batch fully applied, or -1 when none is recorded. */
  public static long applied(FluoClient client) {
    try (Snapshot s = client.newSnapshot()) {
      String v = s.gets(FluoSchema.META_LOADER_ROW, FluoSeed.APPLIED);
      return v == null ? -1 : Long.parseLong(v);
    }
  }
}
