package io.webindex.core.model;

/**
 * What the index knows of one URI: {@code urc}, the number of distinct current pages that link to
 * it, and whether it is itself a current (crawled, not deleted) page. Combining two states adds
 * them component-wise; this is the one merge used by the batch reducers and by the Fluo combine
 * queue.
 */
public record UriState(long urc, long crawled) {
  public static final UriState NONE = new UriState(0, 0);

  /** A state of a URI, with crawled as a 0/1 count so that deltas can be summed. */
  public UriState {
    if (urc < 0 || crawled < 0 || crawled > 1) {
      throw new IllegalArgumentException("invalid URI state urc=" + urc + " crawled=" + crawled);
    }
  }

  /** A delta that may be negative; only sums of deltas must be valid states. */
  public record Delta(long urc, long crawled) {
    public static final Delta ZERO = new Delta(0, 0);

    public Delta plus(Delta o) {
      return new Delta(urc + o.urc, crawled + o.crawled);
    }

    public boolean isZero() {
      return urc == 0 && crawled == 0;
    }
  }

  public boolean isCrawled() {
    return crawled == 1;
  }

  /** Seen = a current page, or referenced by at least one. Only seen URIs appear in the table. */
  public boolean seen() {
    return crawled == 1 || urc > 0;
  }

  public UriState apply(Delta d) {
    return new UriState(urc + d.urc(), crawled + d.crawled());
  }

  public static UriState of(long urc, boolean crawled) {
    return new UriState(urc, crawled ? 1 : 0);
  }
}
