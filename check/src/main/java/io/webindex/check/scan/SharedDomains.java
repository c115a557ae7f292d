package io.webindex.check.scan;

import io.webindex.core.url.Domains;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * {@link Domains#ofKey} for the two tables' fact joins of one check (the domains are most of a
 * join's last phase): both joins check the URIs in the same order (by the same hash) at about the
 * same time, so the first to reach a URI leaves its domain here and the other, when it comes later,
 * takes it away instead of computing it again. Neither ever waits for the other: two that reach a
 * URI together both compute it. Keys only one table has stay behind, so the map is emptied when it
 * reaches {@link #LIMIT} entries (the other join then computes those domains itself); the answer is
 * always {@code Domains.ofKey}'s.
 */
final class SharedDomains implements Function<String, String> {
  static final int LIMIT = 1 << 16;

  /** What a malformed key is left as. */
  private static final Object MALFORMED = new Object();

  private final ConcurrentHashMap<String, Object> left = new ConcurrentHashMap<>();

  @Override
  public String apply(String uriKey) {
    Object d = left.remove(uriKey);
    if (d == null) {
      try {
        d = Domains.ofKey(uriKey);
      } catch (IllegalArgumentException e) {
        d = MALFORMED;
      }
      if (left.size() >= LIMIT) {
        left.clear();
      }
      left.put(uriKey, d);
    }
    if (d == MALFORMED) {
      throw new IllegalArgumentException("not a URI key: " + uriKey);
    }
    return (String) d;
  }

  /** The number of domains left for the other join (for tests). */
  int size() {
    return left.size();
  }
}
