package io.webindex.core.frontier;

import java.util.Comparator;
import java.util.Objects;

/**
 * A URI's place in the crawl frontier ({@link Frontiers#entry}): its queue (the host), when it is
 * due and its priority (its urc).
 *
 * @param uriKey the URI key
 * @param queue the queue it waits in: the URL's host, as URLFrontier keys queues by default
 * @param dueMillis when it is due (epoch milliseconds; 0: as soon as possible)
 * @param urc its priority: the number of current pages linking to it
 */
public record FrontierEntry(String uriKey, String queue, long dueMillis, long urc) {
  /**
   * The order within one queue: the most overdue first; among equal due times (every URI never
   * crawled is due at 0) the higher urc first; then by URI key.
   */
  public static final Comparator<FrontierEntry> QUEUE_ORDER =
      Comparator.comparingLong(FrontierEntry::dueMillis)
          .thenComparing(Comparator.comparingLong(FrontierEntry::urc).reversed())
          .thenComparing(FrontierEntry::uriKey);

  public FrontierEntry {
    Objects.requireNonNull(uriKey, "uriKey");
    Objects.requireNonNull(queue, "queue");
    if (uriKey.isEmpty() || queue.isEmpty()) {
      throw new IllegalArgumentException("an empty URI key or queue");
    }
    if (dueMillis < 0 || urc < 0) {
      throw new IllegalArgumentException("due " + dueMillis + ", urc " + urc);
    }
  }
}
