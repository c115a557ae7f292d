package io.webindex.core.frontier.ops;

import io.webindex.core.frontier.FrontierEntry;
import java.util.Comparator;
import java.util.Objects;

/**
 * A queue with something due, by its first URL: the order {@code GetURLs} visits queues in.
 *
 * @param crawl the crawl id
 * @param queue the queue key
 * @param head the queue's first entry in {@link FrontierEntry#QUEUE_ORDER}
 */
public record QueueHead(String crawl, String queue, FrontierEntry head) {
  /**
   * The best queue first: by its head in {@link FrontierEntry#QUEUE_ORDER} (the most overdue, then
   * the most referenced), then by queue key, then by crawl id. One comparator, so that a further
   * criterion (a domain's standing) has one place to go.
   */
  public static final Comparator<QueueHead> ORDER =
      Comparator.comparing(QueueHead::head, FrontierEntry.QUEUE_ORDER)
          .thenComparing(QueueHead::queue)
          .thenComparing(QueueHead::crawl);

  public QueueHead {
    Objects.requireNonNull(crawl, "crawl");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(head, "head");
  }
}
