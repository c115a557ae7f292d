package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.model.UriState;
import io.webindex.core.model.UriUpdate;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.synth.RandomWeb;
import io.webindex.seed.WebindexSerializer;
import io.webindex.store.StoreException;
import java.util.HashSet;
import java.util.Set;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.fluo.recipes.core.combine.CombineQueue;
import org.junit.jupiter.api.Test;

/**
 * The {@code um:} queue keeps each URI's sum in the row fluo-recipes' combine queue — and so the
 * batch run's seed, written with the recipes' initializer — puts it in: the recipes are the oracle.
 */
class UriQueueTest {
  @Test
  void sumsLieWhereTheRecipesInitializerPutsThem() {
    WebindexSerializer serializer = new WebindexSerializer();
    Set<String> keys = new HashSet<>();
    new RandomWeb(5, 40)
        .batch(0, 400)
        .forEach(
            p -> {
              keys.add(p.key());
              p.links().forEach(l -> keys.add(l.key()));
            });
    keys.add("a");
    for (int buckets : new int[] {1, 2, 4, 15, 16, 17, 255, 256, 1000}) {
      UriQueue queue = new UriQueue(buckets, serializer);
      CombineQueue.Initializer<String, UriUpdate> recipes =
          CombineQueue.getInitializer(FluoSchema.URI_MAP_ID, buckets, serializer);
      Set<String> used = new HashSet<>();
      for (String key : keys) {
        RowColumnValue seeded = recipes.convert(key, UriUpdate.of(new UriState.Delta(1, 0)));
        assertEquals(seeded.getRow(), queue.sumRow(key), key + " in " + buckets + " buckets");
        assertEquals(seeded.getColumn(), UriQueue.SUM);
        used.add(seeded.getsRow().substring(0, seeded.getsRow().indexOf(':', 5)));
      }
      // the keys reach several buckets, so the comparison covers the bucket function
      assertEquals(buckets == 1, used.size() == 1, used.size() + " buckets of " + buckets);
    }
  }

  @Test
  void anApplicationOfAnEarlierBuildIsRefused() {
    SimpleConfiguration app = new SimpleConfiguration();
    StoreException e = assertThrows(StoreException.class, () -> UriQueue.of(app));
    assertEquals(
        "the Fluo application records no webindex.uri.queue.buckets: it was initialised by an"
            + " earlier build of webindex, whose um: queue this one cannot read; recompute a new"
            + " run and reconcile to it",
        e.getMessage());
    UriQueue.configure(app, 16);
    app.setProperty("recipes.serializer", WebindexSerializer.class.getName());
    assertEquals(
        new UriQueue(16, new WebindexSerializer()).sumRow("com.a/x"),
        UriQueue.of(app).sumRow("com.a/x"));
  }

  @Test
  void refusesNoBuckets() {
    assertThrows(IllegalArgumentException.class, () -> new UriQueue(0, new WebindexSerializer()));
  }
}
