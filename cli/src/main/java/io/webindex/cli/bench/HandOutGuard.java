package io.webindex.cli.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The frontier stage's guard: no URL is handed out twice. A URL handed out is leased (the lease
 * below); the client puts it back as known, refetchable a day later. So a URL may come back only
 * when its lease expired and its put-back was not stored; handed out again while its lease still
 * ran, or after its put-back was stored (acknowledged OK), it is a duplicate. Safe for concurrent
 * use.
 */
final class HandOutGuard {
  /** How many duplicate URLs are kept as examples. */
  static final int EXAMPLES = 5;

  private record Last(long atNanos, boolean putBack) {}

  private final long leaseNanos;
  private final Map<String, Last> last = new HashMap<>();
  private final List<String> examples = new ArrayList<>();
  private long handedOut;
  private long duplicates;
  private long reissued;

  /**
   * @param leaseNanos how long a URL handed out stays leased
   */
  HandOutGuard(long leaseNanos) {
    this.leaseNanos = leaseNanos;
  }

  /** URL {@code url} was handed out at {@code atNanos}; returns false when that is a duplicate. */
  synchronized boolean handedOut(String url, long atNanos) {
    handedOut++;
    Last before = last.put(url, new Last(atNanos, false));
    if (before == null) {
      return true;
    }
    if (before.putBack() || atNanos - before.atNanos() < leaseNanos) {
      duplicates++;
      if (examples.size() < EXAMPLES) {
        examples.add(url);
      }
      return false;
    }
    reissued++;
    return true;
  }

  /** The put-back of {@code url} was acknowledged: stored ({@code ok}) or not. */
  synchronized void putBack(String url, boolean ok) {
    Last l = last.get(url);
    if (l != null && ok) {
      last.put(url, new Last(l.atNanos(), true));
    }
  }

  /** URLs handed out, repeats included. */
  synchronized long handedOut() {
    return handedOut;
  }

  /** Distinct URLs handed out. */
  synchronized long distinct() {
    return last.size();
  }

  /** URLs handed out again while leased or after their put-back was stored. */
  synchronized long duplicates() {
    return duplicates;
  }

  /** URLs handed out again after their lease expired with their put-back not stored (allowed). */
  synchronized long reissued() {
    return reissued;
  }

  /** A few of the duplicates. */
  synchronized List<String> examples() {
    return List.copyOf(examples);
  }
}
