package io.webindex.core.frontier.ops;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The operational state of one queue of one crawl: its settings, its last hand-out, the change
 * stamp every write of the state replaces (so that one conditional write covers the whole queue),
 * the leases of its URLs in flight and the records of what clients put back. All of it is one row
 * of the operational table ({@code FrontierOpsSchema}).
 *
 * @param delaySeconds the queue's own politeness delay (null: the default)
 * @param blockedUntilSeconds no hand-out before this instant (epoch seconds; null: not blocked)
 * @param limit no hand-out once this many of the queue's URLs are completed (null: no limit)
 * @param lastHandOutMillis the last time URLs of the queue were handed out (null: never)
 * @param stamp the change stamp of the stored row (null: nothing stored)
 * @param leases the leases by URI key
 * @param records the records by URI key
 */
public record QueueState(
    Integer delaySeconds,
    Long blockedUntilSeconds,
    Long limit,
    Long lastHandOutMillis,
    String stamp,
    SortedMap<String, Lease> leases,
    SortedMap<String, UrlRecord> records) {
  /** A queue nothing was ever stored for. */
  public static final QueueState EMPTY =
      new QueueState(null, null, null, null, null, new TreeMap<>(), new TreeMap<>());

  public QueueState {
    leases = Collections.unmodifiableSortedMap(new TreeMap<>(leases));
    records = Collections.unmodifiableSortedMap(new TreeMap<>(records));
    if (delaySeconds != null && delaySeconds < 0) {
      throw new IllegalArgumentException("a negative delay " + delaySeconds);
    }
    if (limit != null && limit <= 0) {
      throw new IllegalArgumentException("a crawl limit must be positive: " + limit);
    }
  }

  /** Whether nothing but (perhaps) the stamp is stored: the row can go. */
  public boolean isEmpty() {
    return delaySeconds == null
        && blockedUntilSeconds == null
        && limit == null
        && lastHandOutMillis == null
        && leases.isEmpty()
        && records.isEmpty();
  }

  public QueueState withDelay(Integer seconds) {
    return new QueueState(
        seconds, blockedUntilSeconds, limit, lastHandOutMillis, stamp, leases, records);
  }

  public QueueState withBlockedUntil(Long seconds) {
    return new QueueState(delaySeconds, seconds, limit, lastHandOutMillis, stamp, leases, records);
  }

  public QueueState withLimit(Long n) {
    return new QueueState(
        delaySeconds, blockedUntilSeconds, n, lastHandOutMillis, stamp, leases, records);
  }

  public QueueState withLastHandOut(Long millis) {
    return new QueueState(delaySeconds, blockedUntilSeconds, limit, millis, stamp, leases, records);
  }

  public QueueState withStamp(String s) {
    return new QueueState(
        delaySeconds, blockedUntilSeconds, limit, lastHandOutMillis, s, leases, records);
  }

  public QueueState withLeases(Map<String, Lease> l) {
    return new QueueState(
        delaySeconds,
        blockedUntilSeconds,
        limit,
        lastHandOutMillis,
        stamp,
        new TreeMap<>(l),
        records);
  }

  public QueueState withRecords(Map<String, UrlRecord> r) {
    return new QueueState(
        delaySeconds,
        blockedUntilSeconds,
        limit,
        lastHandOutMillis,
        stamp,
        leases,
        new TreeMap<>(r));
  }
}
