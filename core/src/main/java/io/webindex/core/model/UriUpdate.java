package io.webindex.core.model;

import java.util.Objects;

/**
 * What one transaction of the loader changes about one URI: the delta of its {@code (urc, crawled)}
 * ({@link UriState.Delta}) and, when the URI's crawl history changed, the new history's next fetch.
 * Updates of one URI combine in the order they were made ({@link #then}): the deltas add up, a
 * later next fetch replaces an earlier one.
 *
 * @param delta the change of the URI's urc and crawled count
 * @param nextFetchMillis the next fetch of the URI's history as the transaction left it, or null
 *     when it did not change the history
 */
public record UriUpdate(UriState.Delta delta, Long nextFetchMillis) {
  public UriUpdate {
    Objects.requireNonNull(delta, "delta");
  }

  /** A delta alone. */
  public static UriUpdate of(UriState.Delta delta) {
    return new UriUpdate(delta, null);
  }

  /** A new next fetch alone. */
  public static UriUpdate nextFetch(long millis) {
    return new UriUpdate(UriState.Delta.ZERO, millis);
  }

  /** This update followed by {@code later}. */
  public UriUpdate then(UriUpdate later) {
    return new UriUpdate(
        delta.plus(later.delta),
        later.nextFetchMillis != null ? later.nextFetchMillis : nextFetchMillis);
  }

  /** Whether it changes nothing. */
  public boolean isEmpty() {
    return delta.isZero() && nextFetchMillis == null;
  }
}
