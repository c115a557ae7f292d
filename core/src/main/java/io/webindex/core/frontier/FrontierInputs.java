package io.webindex.core.frontier;

/**
 * What a URI's frontier entry is derived from ({@link Frontiers#entry(String, FrontierInputs)}):
 * its urc and, once it was crawled, its schedule's next fetch. The Fluo application keeps these per
 * URI (docs/tables.md) because they change in different places: the urc where links change, the
 * next fetch where the URI's own page is crawled.
 *
 * @param urc the number of current pages linking to the URI
 * @param nextFetchMillis its schedule's next fetch, or null when it was never crawled
 */
public record FrontierInputs(long urc, Long nextFetchMillis) {
  /** A URI neither crawled nor linked to. */
  public static final FrontierInputs NONE = new FrontierInputs(0, null);

  public FrontierInputs {
    if (urc < 0) {
      throw new IllegalArgumentException("urc " + urc);
    }
  }

  public boolean crawled() {
    return nextFetchMillis != null;
  }

  public FrontierInputs withUrc(long n) {
    return new FrontierInputs(n, nextFetchMillis);
  }

  public FrontierInputs withNextFetch(Long millis) {
    return new FrontierInputs(urc, millis);
  }
}
