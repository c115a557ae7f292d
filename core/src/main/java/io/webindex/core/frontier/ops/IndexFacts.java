package io.webindex.core.frontier.ops;

/**
 * What the served index says of one URI, as far as the frontier's records depend on it.
 *
 * @param known whether the index knows the URI (its query table has the URI's page count cell)
 * @param newestCrawlMillis the URI's newest crawl in the history table (null: never crawled)
 */
public record IndexFacts(boolean known, Long newestCrawlMillis) {
  /** A URI the index does not know. */
  public static final IndexFacts UNKNOWN = new IndexFacts(false, null);
}
