package io.webindex.fluo;

import io.webindex.core.Version;
import io.webindex.core.config.SecurityConfig;
import io.webindex.core.config.WebindexConfig;
import io.webindex.core.history.HistorySettings;
import io.webindex.core.model.UriUpdate;
import io.webindex.core.schema.FluoSchema;
import io.webindex.seed.FluoSeed;
import io.webindex.seed.IndexExport;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.BulkImport;
import io.webindex.store.RunRecord;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.client.rfile.RFile;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.fluo.api.client.FluoAdmin;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.client.Snapshot;
import org.apache.fluo.api.client.Transaction;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.api.exceptions.CommitException;
import org.apache.fluo.api.mini.MiniFluo;
import org.apache.fluo.core.client.FluoAdminImpl;
import org.apache.fluo.recipes.accumulo.ops.TableOperations;
import org.apache.fluo.recipes.core.combine.CombineQueue;
import org.apache.fluo.recipes.core.export.ExportQueue;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webindex Fluo application: its whole configuration in {@link #configure}, its connection
 * settings in {@link #connection}, and starting it from a batch run in {@link #initializeFromRun}.
 *
 * <p>The Accumulo password is part of every local configuration this class builds and of none that
 * Fluo stores in ZooKeeper ({@link SecretFreeAdmin}); the exporter learns it from {@link
 * ExportCredentials}.
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
   * served pointer names the current one), so a failed cut-over never touches the running one. The
   * password set here stays in this process: it is never written to ZooKeeper.
   */
  public static FluoConfiguration connection(WebindexConfig cfg, String app) {
    requirePasswordClient(cfg);
    FluoConfiguration fc = new FluoConfiguration();
    fc.setApplicationName(app);
    fc.setInstanceZookeepers(cfg.zookeepers() + "/fluo");
    fc.setAccumuloInstance(cfg.accumuloInstance());
    fc.setAccumuloZookeepers(cfg.zookeepers());
    fc.setAccumuloUser(cfg.accumuloUser());
    fc.setAccumuloPassword(cfg.accumuloPassword().value());
    fc.setAccumuloTable(fluoTable(cfg, app));
    // the operator's fluo.* keys (e.g. Fluo's metrics reporters); the ones set above are refused
    // by WebindexConfig
    cfg.fluoProperties().forEach(fc::setProperty);
    ExportCredentials.register(
        cfg.accumuloInstance(), cfg.accumuloUser(), cfg.accumuloPassword().value());
    return fc;
  }

  /**
   * Refuses a configuration Fluo 1.2 cannot connect with: its Accumulo client takes an instance,
   * ZooKeepers, a user and a password only (no SASL/Kerberos, no SSL), see docs/security.md.
   *
   * @throws IllegalArgumentException naming the keys, for a configuration error
   */
  static void requirePasswordClient(WebindexConfig cfg) {
    if (cfg.security().saslEnabled() || cfg.security().ssl().enabled()) {
      throw new IllegalArgumentException(
          "the Fluo stages cannot run with "
              + (cfg.security().saslEnabled()
                  ? SecurityConfig.SASL_ENABLED
                  : SecurityConfig.SSL_ENABLED)
              + "=true: Fluo 1.2 connects to Accumulo with a user and password only, without SASL"
              + " or SSL (docs/security.md, \"Fluo\"); keep the Fluo engine on an Accumulo"
              + " instance that accepts password logins, or run the MapReduce engine alone");
    }
  }

  /**
   * The application that maintains the served table (the served pointer names it after a {@code
   * reconcile}), else the configured one.
   */
  public static String currentApp(WebindexConfig cfg, Connector conn) {
    return ServedState.read(new RunRegistry(conn, cfg.metaTable()), cfg).app();
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
   * Every observer, queue and exporter setting of the application (docs/tables.md): the {@code um:}
   * and {@code dm:} combine queues and the {@code eq:} export queue with the configured bucket
   * count (the batch seed uses the same), the exporter writing to {@code queryTable} (and its
   * history table) in export epoch {@code epoch}, and the crawl-history settings ({@link
   * HistorySettings}).
   */
  public static void configure(
      FluoConfiguration fc, WebindexConfig cfg, String queryTable, long epoch) {
    fc.setProperty(FluoConfiguration.APP_PREFIX + "." + VERSION_KEY, Version.current().webindex());
    fc.setObserverProvider(WebindexObservers.class);
    SimpleSerializer.setSerializer(fc, io.webindex.seed.WebindexSerializer.class);
    // the um: queue is UriQueue; the recipes' configuration lays out its tablets, and the seed
    // writes its sums with the recipes' initializer
    CombineQueue.configure(FluoSchema.URI_MAP_ID)
        .keyType(String.class)
        .valueType(UriUpdate.class)
        .buckets(cfg.fluoBuckets())
        .save(fc);
    UriQueue.configure(fc.getAppConfiguration(), cfg.fluoBuckets());
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
        fc, cfg.accumuloInstance(), cfg.zookeepers(), cfg.accumuloUser(), queryTable, epoch);
    cfg.historySettings().properties().forEach(fc.getAppConfiguration()::setProperty);
  }

  /**
   * The crawl-history settings application configuration {@code app} was initialised with (from the
   * configuration of that moment, the one the batch run it starts from is recomputed with as a
   * rule): every loader and the exporter follow them whatever their own configuration files say, so
   * the application writes its history by one rule for its whole life.
   *
   * @throws StoreException when it holds none (initialised by a webindex without crawl history) or
   *     they are damaged
   */
  static HistorySettings historySettings(SimpleConfiguration app) {
    Map<String, String> p = new HashMap<>();
    app.getKeys().forEachRemaining(k -> p.put(k, app.getString(k)));
    if (!HistorySettings.recordedIn(p)) {
      throw new StoreException(
          "the Fluo application holds no crawl-history settings (initialised by an older"
              + " webindex): re-initialise it with fluo-init or reconcile");
    }
    try {
      return HistorySettings.fromProperties(p);
    } catch (IllegalArgumentException e) {
      throw new StoreException(
          "the Fluo application's crawl-history settings are damaged: " + e.getMessage(), e);
    }
  }

  /**
   * The key of the application's configuration (Fluo's {@code fluo.app.*}, kept in ZooKeeper) that
   * names the version of webindex that initialised it.
   */
  public static final String VERSION_KEY = "webindex.version";

  /**
   * The version of webindex that initialised application {@code app} ({@code ""}: one from before
   * versions were recorded).
   */
  public static String version(WebindexConfig cfg, String app) {
    try (AppZooKeeper zk = new AppZooKeeper(connection(cfg, app))) {
      if (!zk.initialized()) {
        throw new StoreException("Fluo application " + app + " is not initialised");
      }
      // the whole shared configuration, the application's keys under fluo.app.
      return zk.sharedConfig(FluoConfiguration.APP_PREFIX + "." + VERSION_KEY, "");
    }
  }

  /**
   * Refuses application {@code app} unless this version of webindex initialised it: a version runs
   * only the applications it initialised itself (docs/operations.md, upgrading webindex).
   *
   * @throws StoreException naming both versions and the way forward
   */
  public static void requireThisVersion(WebindexConfig cfg, String app) {
    String v = version(cfg, app);
    if (!v.equals(Version.current().webindex())) {
      throw new StoreException(versionMismatch("Fluo application " + app, "initialised", v));
    }
  }

  /** Why state written by version {@code v} is refused, and what to do. */
  static String versionMismatch(String what, String written, String v) {
    String cur = Version.current().webindex();
    String by =
        v.isEmpty()
            ? "by a webindex older than " + cur + " (which recorded no version)"
            : "by webindex " + v;
    String way =
        v.isEmpty() || olderThan(v, cur)
            ? "upgrade as docs/operations.md (Upgrading webindex) says: recompute a run with "
                + cur
                + " and reconcile to it, then start "
                + cur
                + "'s services, which serve the new application; until then run the old"
                + " version's services and loader for this one"
            : "run it with webindex " + v + ", or reconcile to a run that " + cur + " recomputed";
    return what
        + " was "
        + written
        + " "
        + by
        + ", and this is webindex "
        + cur
        + ": a version runs only the applications it initialised, from runs it recomputed; "
        + way;
  }

  /** Whether dotted version {@code a} comes before {@code b} (numbers compared as numbers). */
  static boolean olderThan(String a, String b) {
    String[] x = a.split("[.-]");
    String[] y = b.split("[.-]");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      String p = i < x.length ? x[i] : "0";
      String q = i < y.length ? y[i] : "0";
      int c =
          p.matches("\\d+") && q.matches("\\d+")
              ? Long.compare(Long.parseLong(p), Long.parseLong(q))
              : p.compareTo(q);
      if (c != 0) {
        return c < 0;
      }
    }
    return false;
  }

  /** Low-latency notification settings (the defaults poll for seconds to minutes). */
  public static void lowLatency(FluoConfiguration fc) {
    fc.setProperty("fluo.impl.worker.finder.minSleep", 50);
    fc.setProperty("fluo.impl.worker.finder.maxSleep", 100);
  }

  /** Fluo's admin for {@code fc}, which keeps the password out of ZooKeeper. */
  public static FluoAdmin admin(FluoConfiguration fc) {
    return new SecretFreeAdmin(fc);
  }

  /** Whether application {@code app} exists: its ZooKeeper state or its Fluo table. */
  public static boolean exists(WebindexConfig cfg, String app) {
    FluoConfiguration fc = connection(cfg, app);
    try (AppZooKeeper zk = new AppZooKeeper(fc)) {
      if (zk.initialized()) {
        return true;
      }
    }
    try (FluoAdminImpl admin = new SecretFreeAdmin(fc)) {
      return admin.accumuloTableExists();
    }
  }

  /** The number of running oracles (0 or 1) and workers of an initialised application. */
  public record Processes(boolean oracle, int workers) {}

  public static Processes processes(WebindexConfig cfg, String app) {
    try (AppZooKeeper zk = new AppZooKeeper(connection(cfg, app))) {
      if (!zk.initialized()) {
        return new Processes(false, 0);
      }
      return new Processes(zk.oracle(), zk.workers());
    }
  }

  /** Removes application {@code app}: its Fluo table and its ZooKeeper state, and its record. */
  public static void remove(WebindexConfig cfg, RunRegistry registry, String app) {
    try (FluoAdminImpl admin = new SecretFreeAdmin(connection(cfg, app))) {
      if (admin.zookeeperInitialized() || admin.accumuloTableExists()) {
        admin.remove();
      }
    }
    BulkImport.dropIfExists(AccumuloConnections.connect(cfg), fluoTable(cfg, app));
    registry.deleteApp(app);
  }

  /** How the seed files of the frontier inputs' own rows ({@code f:}) of earlier builds begin. */
  static final String OLD_FRONTIER_SEED = "fr-";

  /**
   * Initialises the base application afresh from a successful batch run (see {@link
   * #initializeFromRun(WebindexConfig, RunRecord, Configuration, String)}).
   */
  public static FluoConfiguration initializeFromRun(
      WebindexConfig cfg, RunRecord run, Configuration hadoop) throws IOException {
    return initializeFromRun(cfg, run, hadoop, cfg.fluoApp());
  }

  /**
   * Initialises application {@code app} afresh from a successful batch run: checks first that the
   * run's seed is there and was laid out with the configured bucket count, and that no application
   * ever exported into the run's table (its content must equal the seed: an application computes
   * each export as a change from its own state); then takes a new export epoch for the table,
   * clears any previous state of {@code app}, points its exporter at the run's table and bulk
   * imports a copy of the seed (the run keeps its own), before any worker starts. The application
   * is recorded {@code INITIALIZING} until the seed is in, then {@code READY}. The caller then
   * starts it and catches it up.
   *
   * @throws StoreException before anything is changed when a check fails
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
    if (!run.version().equals(Version.current().webindex())) {
      throw new StoreException(
          versionMismatch("run " + run.runId() + " (its Fluo seed)", "recomputed", run.version()));
    }
    if (run.fluoBuckets() != cfg.fluoBuckets()) {
      throw new StoreException(
          "run "
              + run.runId()
              + (run.fluoBuckets() == 0
                  ? " recorded no Fluo bucket count"
                  : " laid its Fluo seed out in " + run.fluoBuckets() + " buckets")
              + ", but "
              + WebindexConfig.FLUO_BUCKETS
              + " is "
              + cfg.fluoBuckets()
              + ": an application must use the seed's bucket count (set it to "
              + run.fluoBuckets()
              + " or recompute with the new count)");
    }
    Path seed = new Path(run.seedDir());
    FileSystem fs = seed.getFileSystem(hadoop);
    FileStatus[] seedFiles =
        fs.exists(seed) ? fs.listStatus(seed, p -> p.getName().endsWith(".rf")) : null;
    if (seedFiles == null || seedFiles.length == 0) {
      throw new StoreException(
          "the Fluo seed of run " + run.runId() + " is missing (no RFiles in " + seed + ")");
    }
    for (FileStatus f : seedFiles) {
      if (f.getPath().getName().startsWith(OLD_FRONTIER_SEED)) {
        // a seed of a build of this version from before the frontier inputs moved into the um:
        // sums: its sums lack the next fetch, which the application would take for "never crawled"
        throw new StoreException(
            "the Fluo seed of run "
                + run.runId()
                + " holds frontier inputs in rows of their own ("
                + f.getPath().getName()
                + "), the layout of an earlier build: recompute a new run (recompute --run NEW_ID)"
                + " and start from that one");
      }
    }
    Connector conn = AccumuloConnections.connect(cfg);
    if (!conn.tableOperations().exists(run.table())) {
      throw new StoreException(
          "the table of run " + run.runId() + " (" + run.table() + ") was dropped");
    }
    RunRegistry registry = new RunRegistry(conn, cfg.metaTable()).ensureTable();
    if (registry.exported(run.table())
        && registry.apps().stream()
            .noneMatch(a -> a.table().equals(run.table()) && exists(cfg, a.name()))) {
      // resuming is impossible too: without this, the message below would send the operator
      // round in a circle
      throw new StoreException(
          "the Fluo application that maintained "
              + run.table()
              + " is gone (removed by the retention or by hand), so the table no longer holds run "
              + run.runId()
              + "'s result and nothing can bring it up to date: recompute a new run"
              + " (recompute --run NEW_ID) and reconcile to that one");
    }
    if (registry.exported(run.table())) {
      throw new StoreException(
          "a Fluo application already maintained "
              + run.table()
              + ", so it no longer holds run "
              + run.runId()
              + "'s result and no new application can start from it: resume that application"
              + " (reconcile --run "
              + run.runId()
              + ") or recompute a new run and cut over to it");
    }
    long epoch = registry.nextExportEpoch(run.table());
    registry.putApp(
        new RunRegistry.FluoApp(
            app,
            run.runId(),
            run.table(),
            epoch,
            RunRegistry.AppState.INITIALIZING,
            Instant.now()));
    FluoConfiguration fc = connection(cfg, app);
    configure(fc, cfg, run.table(), epoch);
    try (FluoAdmin admin = admin(fc)) {
      admin.initialize(
          new FluoAdmin.InitializationOptions().setClearTable(true).setClearZookeeper(true));
    } catch (FluoAdmin.AlreadyInitializedException | FluoAdmin.TableExistsException e) {
      throw new StoreException(
          "cannot initialise Fluo application " + app + ": " + e.getMessage(), e);
    }
    optimizeTable(conn, fc, fs, seedFiles);
    Path copy = new Path(new Path(run.workDir()), "fluo-import-" + app + "-" + epoch);
    if (fs.exists(copy)) {
      fs.delete(copy, true);
    }
    fs.mkdirs(copy);
    try {
      for (FileStatus st : seedFiles) {
        FileUtil.copy(fs, st.getPath(), fs, new Path(copy, st.getPath().getName()), false, hadoop);
      }
      BulkImport.importDirectory(
          conn,
          hadoop,
          fc.getAccumuloTable(),
          copy,
          new Path(copy.getParent(), copy.getName() + "-failures"));
    } finally {
      fs.delete(copy, true);
      fs.delete(new Path(copy.getParent(), copy.getName() + "-failures"), true);
    }
    // from here on workers may run and export: the table is this application's for good
    registry.markExported(run.table());
    registry.putApp(
        new RunRegistry.FluoApp(
            app, run.runId(), run.table(), epoch, RunRegistry.AppState.READY, Instant.now()));
    log.info(
        "Fluo application {} seeded from run {} ({} files), exporting to {} in epoch {}",
        app,
        run.runId(),
        seedFiles.length,
        run.table(),
        epoch);
    return fc;
  }

  /**
   * Prepares the application's new, still empty table before the seed is imported: splits it at the
   * bucket groups of its combine and export queues (the optimizations the recipes register, applied
   * by fluo-recipes' {@code TableOperations.optimizeTable}) and where each seed file begins (the
   * batch run writes one file per row range of the seed), and has it write its files with snappy
   * instead of gzip. With one tablet every write, lock check and compaction of a load goes through
   * one in-memory map and one ever larger set of files; gzip (de)compression of the files the
   * load's compactions and lock checks read and write took about a sixth of the tablet server's
   * time (docs/performance.md).
   */
  static void optimizeTable(
      Connector conn, FluoConfiguration fc, FileSystem fs, FileStatus[] seedFiles)
      throws IOException {
    try {
      TableOperations.optimizeTable(fc);
    } catch (Exception e) {
      throw new StoreException(
          "cannot split the Fluo table " + fc.getAccumuloTable() + ": " + e.getMessage(), e);
    }
    SortedSet<Text> splits = new TreeSet<>();
    for (FileStatus st : seedFiles) {
      Scanner first = RFile.newScanner().from(st.getPath().toString()).withFileSystem(fs).build();
      try {
        Iterator<Map.Entry<Key, Value>> it = first.iterator();
        if (it.hasNext()) {
          splits.add(it.next().getKey().getRow());
        }
      } finally {
        first.close();
      }
    }
    if (!splits.isEmpty()) {
      splits.remove(splits.first()); // the table's first tablet starts there anyway
    }
    try {
      conn.tableOperations()
          .setProperty(
              fc.getAccumuloTable(), Property.TABLE_FILE_COMPRESSION_TYPE.getKey(), "snappy");
      conn.tableOperations()
          .setProperty(
              fc.getAccumuloTable(),
              Property.TABLE_FILE_COMPRESSED_BLOCK_SIZE.getKey(),
              Integer.toString(WebindexConfig.RFILE_DATA_BLOCK_BYTES));
      if (!splits.isEmpty()) {
        conn.tableOperations().addSplits(fc.getAccumuloTable(), splits);
      }
      log.info(
          "Fluo table {} split into {} tablets",
          fc.getAccumuloTable(),
          conn.tableOperations().listSplits(fc.getAccumuloTable()).size() + 1);
    } catch (AccumuloException | AccumuloSecurityException | TableNotFoundException e) {
      throw new StoreException(
          "cannot split the Fluo table " + fc.getAccumuloTable() + ": " + e.getMessage(), e);
    }
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
    for (int attempt = 1; ; attempt++) {
      try {
        return FluoFactory.newMiniFluo(fc);
      } catch (RuntimeException e) {
        // Fluo 1.2's embedded oracle picks a free port and binds it a moment later: another
        // process may take it in between. A new start picks another port.
        if (attempt >= EMBEDDED_START_ATTEMPTS || !portTaken(e)) {
          throw e;
        }
        log.warn(
            "the embedded Fluo oracle's port was taken by another process before it bound it"
                + " (attempt {} of {}): starting again",
            attempt,
            EMBEDDED_START_ATTEMPTS);
      }
    }
  }

  private static final int EMBEDDED_START_ATTEMPTS = 3;

  /** Whether a failed embedded start failed because the oracle's server socket could not bind. */
  static boolean portTaken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException
          || (t.getMessage() != null
              && t.getMessage().startsWith("Could not create ServerSocket"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Records that every batch up to {@code batch} is applied, unless the resume point is there
   * already or beyond (another loader went further): it never goes back. The resume point is read
   * and written in one transaction, so two loaders recording at once collide (Fluo's conflict
   * detection) and the one that runs again reads what the other recorded.
   *
   * @return the resume point now recorded: {@code batch}, or the higher one found
   */
  public static long markApplied(FluoClient client, long batch) {
    while (true) {
      try (Transaction tx = client.newTransaction()) {
        long recorded = parseApplied(tx.gets(FluoSchema.META_LOADER_ROW, FluoSeed.APPLIED));
        if (recorded >= batch) {
          return recorded;
        }
        tx.set(FluoSchema.META_LOADER_ROW, FluoSeed.APPLIED, Long.toString(batch));
        tx.commit();
        return batch;
      } catch (CommitException e) {
        // another transaction recorded a resume point after this one read it: read it again
        log.debug("the resume point changed while recording batch {}: reading it again", batch);
      }
    }
  }

  private static long parseApplied(String v) {
    return v == null ? -1 : Long.parseLong(v);
  }

  /** The highest batch fully applied, or -1 when none is recorded. */
  public static long applied(FluoClient client) {
    try (Snapshot s = client.newSnapshot()) {
      return parseApplied(s.gets(FluoSchema.META_LOADER_ROW, FluoSeed.APPLIED));
    }
  }
}
