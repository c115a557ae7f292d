package io.webindex.web;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per client address: {@code perSecond} requests a second, bursts of twice that.
 * Buckets of clients idle for a minute are forgotten, so the map stays small.
 */
final class RateLimiter {
  private static final long NANOS = 1_000_000_000L;
  private static final int SWEEP_SIZE = 10_000;

  private final double perSecond;
  private final double burst;
  private final LongSupplier clock;
  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

  private static final class Bucket {
    double tokens;
    long at;

    Bucket(double tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }
  }

  RateLimiter(int perSecond, LongSupplier nanoClock) {
    this.perSecond = perSecond;
    this.burst = 2.0 * perSecond;
    this.clock = nanoClock;
  }

  /** Takes one token of {@code client}'s bucket; false when it is empty. */
  boolean allow(String client) {
    long now = clock.getAsLong();
    if (buckets.size() > SWEEP_SIZE) {
      buckets.values().removeIf(b -> now - b.at > 60 * NANOS);
    }
    Bucket b = buckets.computeIfAbsent(client, c -> new Bucket(burst, now));
    synchronized (b) {
      b.tokens = Math.min(burst, b.tokens + (now - b.at) * perSecond / NANOS);
      b.at = now;
      if (b.tokens < 1) {
        return false;
      }
      b.tokens -= 1;
      return true;
    }
  }
}
