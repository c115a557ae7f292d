package io.webindex.fluo;

import com.google.common.hash.Hashing;
import io.webindex.core.model.UriState;
import io.webindex.core.model.UriUpdate;
import io.webindex.core.schema.FluoSchema;
import io.webindex.store.StoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.fluo.api.client.TransactionBase;
import org.apache.fluo.api.config.SimpleConfiguration;
import org.apache.fluo.api.data.Bytes;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.data.RowColumnValue;
import org.apache.fluo.api.data.Span;
import org.apache.fluo.api.observer.Observer.NotificationType;
import org.apache.fluo.api.observer.ObserverProvider.Registry;
import org.apache.fluo.recipes.core.serialization.SimpleSerializer;

/**
 * The {@code um} queue: every URI's {@code (urc, crawled)}, the sum of the deltas the loader adds,
 * and the next fetches of their crawl histories, with an observer of the URIs that changed. It
 * keeps each URI's sum where fluo-recipes' combine queue {@code um} keeps it ({@code
 * um:d:<bucket>:<key>} {@code data:current}, the rows the batch run's seed writes with the recipes'
 * initializer, in the table's tablets the recipes lay out), but queues the updates differently: the
 * recipes' queue writes one entry per URI and delta, which its observer reads and deletes again —
 * about 18 of each per page version in the bench's deltas — while this one writes one entry per
 * transaction and bucket ({@code um:u:<bucket>:<start timestamp, 16 hex digits>} {@code u:g}, the
 * URIs' {@link UriUpdate}s in {@link FluoSchema#encodeUriUpdates}): a group of 16 page versions
 * adds at most one entry to each bucket.
 *
 * <p>The observer of a bucket ({@link #process}) reads its entries in timestamp order, deletes
 * them, combines the updates per URI ({@link UriUpdate#then}), reads those URIs' sums, writes the
 * new ones (an empty sum — no links, no current page, no history — is deleted) and hands every URI
 * whose sum changed to the {@link Observer}, all in one transaction. Of two loader transactions
 * that change one URI's history, the later one starts after the earlier committed (they write the
 * same history cell), so its entry sorts after the earlier's, and an observer that sees it sees the
 * earlier one too: the last next fetch in timestamp order is the newest. Only this observer writes
 * a bucket's sums, so it never collides with the loader, and one transaction takes everything
 * queued up to {@link #MAX_URIS} distinct URIs (it notifies itself again when entries remain): the
 * more updates of one URI it combines, the fewer sums and exports it writes. An entry is read by
 * the transaction that deletes it, so two observers of one bucket collide instead of counting an
 * entry twice.
 */
final class UriQueue {
  /** The column of a queue entry: the deltas of one transaction to one bucket. */
  static final Column ENTRY = new Column("u", "g");

  /** The column of a URI's sum: fluo-recipes' combine-queue data column, as the seed writes it. */
  static final Column SUM = new Column("data", "current");

  /** The notification column of a bucket's row {@code um:u:<bucket>:}. */
  static final Column NOTIFY = new Column("webindex", "uq:" + FluoSchema.URI_MAP_ID);

  /** The application property that holds the number of buckets. */
  static final String BUCKETS = "webindex.uri.queue.buckets";

  /**
   * Distinct URIs one observer transaction takes at most before it leaves the rest for the next: a
   * bound on its memory and commit, not a batch size. Idle, a transaction takes the few entries of
   * one loader transaction; behind a loader that outpaces the drain it takes the bucket's whole
   * backlog, and the more it takes, the more updates of one URI it combines into one sum (at 1,000
   * the bench's drain wrote 16.6 entries per page version, at 20,000 7.2: performance.md).
   */
  static final int MAX_URIS = 20_000;

  /**
   * The application property that lowers {@link #MAX_URIS} (tests set a few, so that one bucket's
   * backlog takes several transactions).
   */
  static final String MAX_URIS_PROPERTY = "webindex.uri.queue.max-uris";

  private static final String ENTRY_PREFIX = FluoSchema.URI_MAP_ID + ":u:";
  private static final String SUM_PREFIX = FluoSchema.URI_MAP_ID + ":d:";

  private final int buckets;
  private final int bucketDigits;
  private final int maxUris;
  private final SimpleSerializer serializer;

  UriQueue(int buckets, SimpleSerializer serializer) {
    this(buckets, MAX_URIS, serializer);
  }

  UriQueue(int buckets, int maxUris, SimpleSerializer serializer) {
    if (buckets < 1 || maxUris < 1) {
      throw new IllegalArgumentException(
          "buckets and URIs per transaction must be at least 1: " + buckets + ", " + maxUris);
    }
    this.buckets = buckets;
    this.maxUris = maxUris;
    int bits = 32 - Integer.numberOfLeadingZeros(buckets);
    this.bucketDigits = (bits + 3) / 4;
    this.serializer = serializer;
  }

  /**
   * The queue of the application configured in {@code app} ({@link #configure}).
   *
   * @throws StoreException when the application records no bucket count (an earlier build)
   */
  static UriQueue of(SimpleConfiguration app) {
    int n = app.getInt(BUCKETS, 0);
    if (n < 1) {
      throw new StoreException(
          "the Fluo application records no "
              + BUCKETS
              + ": it was initialised by an earlier build of webindex, whose um: queue this one"
              + " cannot read; recompute a new run and reconcile to it");
    }
    return new UriQueue(
        n, app.getInt(MAX_URIS_PROPERTY, MAX_URIS), SimpleSerializer.getInstance(app));
  }

  /** Records the number of buckets in an application's configuration. */
  static void configure(SimpleConfiguration app, int buckets) {
    app.setProperty(BUCKETS, Integer.toString(buckets));
  }

  /**
   * The bucket of a URI, as fluo-recipes' combine queue places it (so the seed's sums are found):
   * murmur3 (32 bits) of the serialized key modulo the buckets, in hex of fixed width.
   */
  String bucket(byte[] serializedKey) {
    int hash = Hashing.murmur3_32().hashBytes(serializedKey).asInt();
    String hex = Integer.toHexString(Math.abs(hash % buckets));
    return "0".repeat(bucketDigits - hex.length()) + hex;
  }

  /** The row of a URI's sum: {@code um:d:<bucket>:<serialized key>}. */
  Bytes sumRow(String uriKey) {
    byte[] key = serializer.serialize(uriKey);
    return Bytes.builder().append(SUM_PREFIX).append(bucket(key)).append(":").append(key).toBytes();
  }

  /**
   * Adds the updates (none of them empty) in {@code tx}: one entry per bucket, and a notification
   * of each bucket's observer.
   */
  void addAll(TransactionBase tx, Map<String, UriUpdate> updates) {
    Map<String, Map<String, UriUpdate>> byBucket = new TreeMap<>();
    for (Map.Entry<String, UriUpdate> e : updates.entrySet()) {
      byBucket
          .computeIfAbsent(bucket(serializer.serialize(e.getKey())), b -> new LinkedHashMap<>())
          .put(e.getKey(), e.getValue());
    }
    String stamp = String.format(Locale.ROOT, "%016x", tx.getStartTimestamp());
    for (Map.Entry<String, Map<String, UriUpdate>> b : byBucket.entrySet()) {
      String bucketRow = ENTRY_PREFIX + b.getKey() + ":";
      tx.set(bucketRow + stamp, ENTRY, FluoSchema.encodeUriUpdates(b.getValue()));
      tx.setWeakNotification(bucketRow, NOTIFY);
    }
  }

  /**
   * One URI that an observer transaction changed: its sum before and after ({@link UriUpdate}: the
   * state as a delta from nothing, and the history's next fetch; an absent sum is {@link #NONE}).
   */
  record Change(String key, UriUpdate before, UriUpdate after) {
    UriState stateBefore() {
      return UriState.NONE.apply(before.delta());
    }

    UriState stateAfter() {
      return UriState.NONE.apply(after.delta());
    }
  }

  /** The sum of a URI the queue holds nothing of. */
  static final UriUpdate NONE = UriUpdate.of(UriState.Delta.ZERO);

  /** What happens to the URIs that changed, in the observer's transaction. */
  interface Observer {
    void process(TransactionBase tx, List<Change> changes) throws Exception;
  }

  /** Registers the observer of the buckets, handing the URIs that changed to {@code then}. */
  void registerObserver(Registry registry, Observer then) {
    registry
        .forColumn(NOTIFY, NotificationType.WEAK)
        .withId("uriq-" + FluoSchema.URI_MAP_ID)
        .useObserver((tx, row, col) -> process(tx, row, then));
  }

  /** Takes entries of the bucket {@code bucketRow} and applies them (see the class comment). */
  void process(TransactionBase tx, Bytes bucketRow, Observer then) throws Exception {
    Iterator<RowColumnValue> entries =
        tx.scanner().over(Span.prefix(bucketRow)).fetch(ENTRY).build().iterator();
    Map<String, UriUpdate> updates = new LinkedHashMap<>();
    boolean more = false;
    while (entries.hasNext()) {
      if (updates.size() >= maxUris) {
        more = true;
        break;
      }
      RowColumnValue entry = entries.next();
      tx.delete(entry.getRow(), ENTRY);
      FluoSchema.decodeUriUpdates(entry.getsValue())
          .forEach((k, u) -> updates.merge(k, u, UriUpdate::then));
    }
    if (more) {
      tx.setWeakNotification(bucketRow, NOTIFY);
    }
    if (updates.isEmpty()) {
      return;
    }
    Map<String, Bytes> rows = new HashMap<>(updates.size() * 2);
    updates.keySet().forEach(k -> rows.put(k, sumRow(k)));
    Map<Bytes, Map<Column, Bytes>> held = tx.get(rows.values(), Set.of(SUM));
    List<Change> changed = new ArrayList<>();
    for (Map.Entry<String, UriUpdate> e : updates.entrySet()) {
      Bytes row = rows.get(e.getKey());
      Bytes value = held.getOrDefault(row, Map.of()).get(SUM);
      UriUpdate before =
          value == null ? NONE : serializer.deserialize(value.toArray(), UriUpdate.class);
      UriUpdate after = before.then(e.getValue());
      if (after.equals(before)) {
        continue;
      }
      if (after.isEmpty()) {
        tx.delete(row, SUM);
      } else {
        tx.set(row, SUM, Bytes.of(serializer.serialize(after)));
      }
      changed.add(new Change(e.getKey(), before, after));
    }
    if (!changed.isEmpty()) {
      then.process(tx, changed);
    }
  }
}
