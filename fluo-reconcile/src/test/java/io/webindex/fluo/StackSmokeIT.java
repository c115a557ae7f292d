package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.accumulo.core.data.Mutation;
import org.apache.fluo.api.client.FluoAdmin;
import org.apache.fluo.api.client.FluoAdmin.InitializationOptions;
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.FluoFactory;
import org.apache.fluo.api.client.LoaderExecutor;
import org.apache.fluo.api.client.Snapshot;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.mini.MiniFluo;
import org.apache.fluo.api.observer.Observer.NotificationType;
import org.apache.fluo.api.observer.ObserverProvider;
import org.apache.fluo.recipes.accumulo.export.function.AccumuloExporter;
import org.apache.fluo.recipes.core.combine.CombineQueue;
import org.apache.fluo.recipes.core.combine.SummingCombiner;
import org.apache.fluo.recipes.core.export.ExportQueue;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves the whole stack from a fresh clone: MiniAccumulo 1.10 (from {@link AccumuloITBase}),
 * MiniFluo 1.2 on it, an observer, a fluo-recipes {@link CombineQueue} that sums, and an {@link
 * ExportQueue} with {@link AccumuloExporter} into a plain Accumulo table.
 *
 * <p>Pipeline: a loader writes {@code "key amount"} into {@code data:new} of a page row; the
 * observer on {@code data:new} moves the value to {@code data:copy} and adds {@code key -> amount}
 * to the combine queue; the combine queue's change observer exports each new sum; the exporter
 * writes {@code key sum:total -> sum} to the export table.
 */
@SharedCluster
class StackSmokeIT extends AccumuloITBase {

  static final Column NEW_COL = new Column("data", "new");
  static final Column COPY_COL = new Column("data", "copy");
  static final String SUMS_QUEUE = "sums";
  static final String EXPORT_QUEUE = "exp";

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void loaderToObserverToCombineQueueToExportQueueToAccumulo() throws Exception {
    String exportTable = createTable("export");
    FluoConfiguration cfg = fluoConfig(exportTable);
    try (FluoAdmin admin = FluoFactory.newAdmin(cfg)) {
      admin.initialize(new InitializationOptions().setClearTable(true).setClearZookeeper(true));
    }

    // close order: loader (inner try), waitForObservers, client, MiniFluo; the base stops Accumulo
    try (MiniFluo miniFluo = FluoFactory.newMiniFluo(cfg);
        FluoClient client = FluoFactory.newClient(miniFluo.getClientConfiguration())) {

      load(client, "p1", "alpha 3", "p2", "beta 4", "p3", "alpha 5");
      load(client, "p4", "gamma 1", "p5", "beta 10", "p6", "alpha 2");
      miniFluo.waitForObservers();

      assertEquals(
          List.of("alpha sum:total 10", "beta sum:total 14", "gamma sum:total 1"),
          readTable(exportTable));
      try (Snapshot snap = client.newSnapshot()) {
        assertEquals("beta 10", snap.gets("page:p5", COPY_COL));
        assertNull(snap.gets("page:p5", NEW_COL));
      }

      // a second round updates the exported sums incrementally
      load(client, "p7", "gamma 6", "p8", "delta 7");
      miniFluo.waitForObservers();

      assertEquals(
          List.of(
              "alpha sum:total 10", "beta sum:total 14", "delta sum:total 7", "gamma sum:total 7"),
          readTable(exportTable));
    }
  }

  /** Loads pairs (page id, "key amount") in one LoaderExecutor, closed before returning. */
  private static void load(FluoClient client, String... pageAndValue) {
    try (LoaderExecutor loader = client.newLoaderExecutor()) {
      for (int i = 0; i < pageAndValue.length; i += 2) {
        String row = "page:" + pageAndValue[i];
        String value = pageAndValue[i + 1];
        loader.execute((tx, ctx) -> tx.set(row, NEW_COL, value));
      }
    }
  }

  private static FluoConfiguration fluoConfig(String exportTable) throws Exception {
    FluoConfiguration cfg = new FluoConfiguration();
    cfg.setMiniStartAccumulo(false);
    cfg.setMiniDataDir(Files.createTempDirectory(clusterDir(), "minifluo-").toString());
    cfg.setApplicationName(newTableName("smoke_app"));
    cfg.setInstanceZookeepers(zookeepers() + "/fluo");
    cfg.setAccumuloInstance(instanceName());
    cfg.setAccumuloZookeepers(zookeepers());
    cfg.setAccumuloUser(ROOT_USER);
    cfg.setAccumuloPassword(ROOT_PASSWORD);
    cfg.setAccumuloTable(newTableName("smoke_fluo"));
    cfg.setWorkerThreads(4);
    // low latency: look for notifications often (MiniFluo sets the same)
    cfg.setProperty("fluo.impl.worker.finder.minSleep", 50);
    cfg.setProperty("fluo.impl.worker.finder.maxSleep", 100);
    cfg.setObserverProvider(SmokeObservers.class);

    SimpleSerializer.setSerializer(cfg, TextSerializer.class);
    CombineQueue.configure(SUMS_QUEUE)
        .keyType(String.class)
        .valueType(Long.class)
        .buckets(3)
        .save(cfg);
    ExportQueue.configure(EXPORT_QUEUE)
        .keyType(String.class)
        .valueType(Long.class)
        .buckets(3)
        .save(cfg);
    AccumuloExporter.configure(EXPORT_QUEUE)
        .instance(instanceName(), zookeepers())
        .credentials(ROOT_USER, ROOT_PASSWORD)
        .table(exportTable)
        .save(cfg);
    return cfg;
  }

  /** The observers of the smoke application; Fluo instantiates it by class name. */
  public static class SmokeObservers implements ObserverProvider {
    @Override
    public void provide(Registry registry, Context ctx) {
      SimpleConfiguration appConfig = ctx.getAppConfiguration();
      CombineQueue<String, Long> sums = CombineQueue.getInstance(SUMS_QUEUE, appConfig);
      ExportQueue<String, Long> exports = ExportQueue.getInstance(EXPORT_QUEUE, appConfig);

      registry
          .forColumn(NEW_COL, NotificationType.STRONG)
          .useStrObserver(
              (tx, row, col) -> {
                String value = tx.gets(row, col);
                if (value == null) {
                  return;
                }
                tx.delete(row, col);
                tx.set(row, COPY_COL, value);
                String[] keyAndAmount = value.split(" ", 2);
                sums.addAll(tx, Map.of(keyAndAmount[0], Long.parseLong(keyAndAmount[1])));
              });

      sums.registerObserver(
          registry,
          new SummingCombiner<>(),
          (tx, changes) -> {
            for (var change : changes) {
              exports.add(tx, change.getKey(), change.getNewValue().orElse(0L));
            }
          });

      exports.registerObserver(
          registry,
          new AccumuloExporter<String, Long>(
              EXPORT_QUEUE,
              appConfig,
              (export, mutations) -> {
                Mutation m = new Mutation(export.getKey());
                // the export sequence as timestamp: the newest sum wins whatever the write order
                m.put("sum", "total", export.getSequence(), export.getValue().toString());
                mutations.accept(m);
              }));
    }
  }

  /**
   * A {@link SimpleSerializer} for the String keys and Long values of the queues above (the
   * recipes' default, Kryo, is not on our class path).
   */
  public static class TextSerializer implements SimpleSerializer {
    @Override
    public void init(SimpleConfiguration appConfig) {}

    @Override
    public <T> byte[] serialize(T obj) {
      if (!(obj instanceof String) && !(obj instanceof Long)) {
        throw new IllegalArgumentException("cannot serialize " + obj.getClass());
      }
      return obj.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public <T> T deserialize(byte[] bytes, Class<T> clazz) {
      String text = new String(bytes, StandardCharsets.UTF_8);
      if (clazz == String.class) {
        return clazz.cast(text);
      }
      if (clazz == Long.class) {
        return clazz.cast(Long.valueOf(text));
      }
      throw new IllegalArgumentException("cannot deserialize " + clazz);
    }
  }
}
