package io.webindex.core.frontier.ops;

import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.frontier.service.UrlFrontier.Ack;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The frontier's operational rules on one queue, pure (docs/frontier.md): when a queue may hand out
 * URLs, which of its URLs wait and in what order, what a hand-out and a put-back change.
 *
 * <p>A queue of the {@code DEFAULT} crawl is <em>indexed</em>: its URLs are the derived frontier's
 * entries of its host plus the records clients put back, and a record holds only while it agrees
 * with the served index ({@link #stale}). A queue of any other crawl holds only its records, and
 * they never go stale.
 */
public final class QueueOps {
  private QueueOps() {}

  /** Whether a queue hands out URLs now, or why not. */
  public enum Eligibility {
    ELIGIBLE,
    /** The frontier is inactive ({@code SetActive false}). */
    INACTIVE,
    /** Blocked until a later instant. */
    BLOCKED,
    /** Its delay since the last hand-out has not passed. */
    DELAY,
    /** As many of its URLs are completed as its crawl limit allows. */
    LIMIT
  }

  /** One URL of the derived frontier: its entry and its URL. */
  public record Derived(FrontierEntry entry, String url) {
    public Derived {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(url, "url");
    }
  }

  /** One URL waiting in a queue, with the metadata a client put with it. */
  public record Waiting(FrontierEntry entry, String url, Map<String, List<String>> metadata) {
    public Waiting {
      metadata = Map.copyOf(metadata);
    }
  }

  /** A hand-out: the URLs, in order, and the queue's state to write. */
  public record Claim(List<Waiting> urls, QueueState next) {}

  /** A put-back's answer and the state to write (null: nothing to write). */
  public record PutOutcome(Ack ack, QueueState next) {}

  /**
   * One put-back of a batch into one queue ({@link #putAll}).
   *
   * @param key the URI key
   * @param record the record to put
   * @param knownToIndex whether the served index knows the URI (for a discovered record)
   */
  public record PutRequest(String key, UrlRecord record, boolean knownToIndex) {
    public PutRequest {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(record, "record");
    }
  }

  /** The answers of a batch of put-backs, in order, and the state to write (null: nothing). */
  public record BatchOutcome(List<Ack> acks, QueueState next) {
    public BatchOutcome {
      acks = List.copyOf(acks);
    }
  }

  /**
   * The delay of a queue: its own, else the frontier's default ({@code SetDelay} with an empty
   * queue; null when never set), else the configured one.
   */
  public static int delaySeconds(QueueState s, Integer serviceDefault, FrontierSettings settings) {
    if (s.delaySeconds() != null) {
      return s.delaySeconds();
    }
    return serviceDefault != null ? serviceDefault : settings.delaySeconds();
  }

  /**
   * Whether the queue may hand out URLs at {@code nowMillis}: the frontier is active, the queue is
   * not blocked (its block lifts itself at its instant), {@code delaySeconds} have passed since its
   * last hand-out, and fewer than its limit of its URLs are completed ({@code completed}: valid
   * completed records).
   */
  public static Eligibility eligibility(
      QueueState s, boolean active, int delaySeconds, long completed, long nowMillis) {
    if (!active) {
      return Eligibility.INACTIVE;
    }
    if (s.blockedUntilSeconds() != null && s.blockedUntilSeconds() * 1000 > nowMillis) {
      return Eligibility.BLOCKED;
    }
    if (s.lastHandOutMillis() != null && nowMillis < s.lastHandOutMillis() + delaySeconds * 1000L) {
      return Eligibility.DELAY;
    }
    if (s.limit() != null && completed >= s.limit()) {
      return Eligibility.LIMIT;
    }
    return Eligibility.ELIGIBLE;
  }

  /**
   * Whether a record of an indexed queue no longer agrees with the index: a discovered record once
   * the index knows the URI; a known or completed record once the URI's newest crawl in the index
   * is not the one the record was written against (a later crawl was loaded, so the index's
   * schedule takes over).
   */
  public static boolean stale(UrlRecord r, IndexFacts f) {
    if (r.state() == UrlRecord.State.DISCOVERED) {
      return f.known();
    }
    return !Objects.equals(r.basisMillis(), f.newestCrawlMillis());
  }

  /**
   * The records that hold: every record of a queue not {@code indexed}; else those not {@link
   * #stale} by {@code facts} (a key without facts: the index does not know it).
   */
  public static SortedMap<String, UrlRecord> valid(
      QueueState s, boolean indexed, Map<String, IndexFacts> facts) {
    SortedMap<String, UrlRecord> out = new TreeMap<>();
    for (Map.Entry<String, UrlRecord> e : s.records().entrySet()) {
      if (!indexed || !stale(e.getValue(), facts.getOrDefault(e.getKey(), IndexFacts.UNKNOWN))) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  /** The state as it is next written: expired leases and stale records dropped. */
  public static QueueState normalised(
      QueueState s, boolean indexed, Map<String, IndexFacts> facts, long nowMillis) {
    SortedMap<String, Lease> leases = new TreeMap<>();
    s.leases()
        .forEach(
            (k, l) -> {
              if (l.liveAt(nowMillis)) {
                leases.put(k, l);
              }
            });
    return s.withLeases(leases).withRecords(valid(s, indexed, facts));
  }

  /** The number of completed records among {@code records}. */
  public static long completed(Map<String, UrlRecord> records) {
    return records.values().stream().filter(r -> r.state() == UrlRecord.State.COMPLETED).count();
  }

  /**
   * The URLs waiting in {@code queue} (all of them, due or not; completed ones are not waiting), in
   * {@link FrontierEntry#QUEUE_ORDER}: each derived entry unless a valid record of its URI
   * overrides it, and each valid record — a known one due at its due time, a discovered one due at
   * once (0), both with urc 0, both with the client's metadata; a completed one not at all.
   *
   * @param derived the derived entries read of the queue (for an indexed queue; empty otherwise)
   * @param valid the valid records of the queue ({@link #valid})
   */
  public static List<Waiting> waiting(
      String queue, List<Derived> derived, SortedMap<String, UrlRecord> valid) {
    List<Waiting> out = new ArrayList<>(derived.size() + valid.size());
    Set<String> derivedKeys = new HashSet<>();
    for (Derived d : derived) {
      derivedKeys.add(d.entry().uriKey());
      UrlRecord r = valid.get(d.entry().uriKey());
      if (r == null) {
        out.add(new Waiting(d.entry(), d.url(), Map.of()));
      } else if (r.state() == UrlRecord.State.DISCOVERED) {
        out.add(new Waiting(d.entry(), d.url(), r.metadata()));
      }
    }
    for (Map.Entry<String, UrlRecord> e : valid.entrySet()) {
      UrlRecord r = e.getValue();
      boolean derivedToo =
          r.state() == UrlRecord.State.DISCOVERED && derivedKeys.contains(e.getKey());
      if (r.state() == UrlRecord.State.COMPLETED || derivedToo) {
        continue;
      }
      long due = r.state() == UrlRecord.State.KNOWN ? r.dueMillis() : 0;
      out.add(new Waiting(new FrontierEntry(e.getKey(), queue, due, 0), r.url(), r.metadata()));
    }
    out.sort((a, b) -> FrontierEntry.QUEUE_ORDER.compare(a.entry(), b.entry()));
    return out;
  }

  /**
   * A hand-out of an eligible queue: up to {@code max} (0: no limit) of the {@code waiting} URLs
   * due at {@code nowMillis} without a live lease, in order; each gets a lease until {@code
   * nowMillis + leaseMillis} for {@code owner}, the queue's last hand-out becomes {@code nowMillis}
   * and its stamp {@code newStamp}. Empty when no URL is due: nothing to write.
   *
   * @param s the queue's {@link #normalised} state
   */
  public static Optional<Claim> claim(
      QueueState s,
      List<Waiting> waiting,
      int max,
      long nowMillis,
      long leaseMillis,
      String owner,
      String newStamp) {
    List<Waiting> chosen = new ArrayList<>();
    SortedMap<String, Lease> leases = new TreeMap<>(s.leases());
    for (Waiting w : waiting) {
      if (max > 0 && chosen.size() >= max) {
        break;
      }
      if (w.entry().dueMillis() > nowMillis) {
        continue;
      }
      Lease l = leases.get(w.entry().uriKey());
      if (l != null && l.liveAt(nowMillis)) {
        continue;
      }
      chosen.add(w);
      leases.put(w.entry().uriKey(), new Lease(nowMillis + leaseMillis, owner));
    }
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Claim(
            List.copyOf(chosen),
            s.withLeases(leases).withLastHandOut(nowMillis).withStamp(newStamp)));
  }

  /**
   * A put-back of the URL with key {@code key} as {@code record}.
   *
   * <ul>
   *   <li>discovered: skipped when {@code knownToIndex}, or when the queue has a record or a lease
   *       of the URI; else recorded;
   *   <li>known or completed: recorded (replacing any record of the URI), the URI's lease removed.
   * </ul>
   *
   * @param s the queue's {@link #normalised} state
   */
  public static PutOutcome put(
      QueueState s, String key, UrlRecord record, boolean knownToIndex, String newStamp) {
    if (record.state() == UrlRecord.State.DISCOVERED
        && (knownToIndex || s.records().containsKey(key) || s.leases().containsKey(key))) {
      return new PutOutcome(Ack.SKIPPED, null);
    }
    SortedMap<String, UrlRecord> records = new TreeMap<>(s.records());
    records.put(key, record);
    SortedMap<String, Lease> leases = new TreeMap<>(s.leases());
    leases.remove(key);
    return new PutOutcome(Ack.OK, s.withRecords(records).withLeases(leases).withStamp(newStamp));
  }

  /**
   * Put-backs into one queue, one after the other, as {@link #put} answers each on the state the
   * ones before it left (a discovered URL put twice is recorded once, then skipped; a known one
   * after a discovered one of the same URI replaces it): the answers in order, and the state after
   * the last, with stamp {@code newStamp}, when any of them changed it.
   *
   * @param s the queue's {@link #normalised} state
   */
  public static BatchOutcome putAll(QueueState s, List<PutRequest> items, String newStamp) {
    List<Ack> acks = new ArrayList<>(items.size());
    QueueState now = s;
    boolean changed = false;
    for (PutRequest p : items) {
      PutOutcome o = put(now, p.key(), p.record(), p.knownToIndex(), newStamp);
      acks.add(o.ack());
      if (o.next() != null) {
        now = o.next();
        changed = true;
      }
    }
    return new BatchOutcome(acks, changed ? now : null);
  }
}
