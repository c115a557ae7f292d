package io.webindex.core.history;

/**
 * What a URI's crawl history says about refetching it ({@link Schedules#of}).
 *
 * @param firstCrawlMillis the first crawl
 * @param lastCrawlMillis the latest crawl
 * @param crawls the number of crawls (one per millisecond)
 * @param changes the crawls whose signature differs from the crawl before (the first is none)
 * @param intervalSeconds the fetch interval after the latest crawl
 * @param nextFetchMillis when to fetch the URI next
 * @param lastModifiedMillis the latest change, or the first crawl when none
 */
public record Schedule(
    long firstCrawlMillis,
    long lastCrawlMillis,
    int crawls,
    int changes,
    long intervalSeconds,
    long nextFetchMillis,
    long lastModifiedMillis) {

  public Schedule {
    if (crawls < 1 || changes < 0 || changes >= crawls) {
      throw new IllegalArgumentException("crawls=" + crawls + " changes=" + changes);
    }
    if (firstCrawlMillis > lastCrawlMillis
        || lastModifiedMillis < firstCrawlMillis
        || lastModifiedMillis > lastCrawlMillis) {
      throw new IllegalArgumentException(
          "first="
              + firstCrawlMillis
              + " modified="
              + lastModifiedMillis
              + " last="
              + lastCrawlMillis);
    }
    if (intervalSeconds < 1) {
      throw new IllegalArgumentException("interval " + intervalSeconds);
    }
  }
}
