package io.webindex.core.frontier.ops;

import io.webindex.core.frontier.FrontierEntry;
import java.util.Comparator;
import java.util.Objects;

/**
 * A queue with something due, by its first URL: what {@code GetURLs} orders queues by ({@link
 * QueuePriority}).
 *
 * @param crawl the crawl id
 * @param queue the queue key
 * @param head the queue's first entry in {@link FrontierEntry#QUEUE_ORDER}
 * @param domainPages the pages the index counts in the domain of the head's URL (0: unknown)
 */
public record QueueHead(String crawl, String queue, FrontierEntry head, long domainPages) {
  /** The default order ({@link QueuePriority#DEFAULT}). */
  public static final Comparator<QueueHead> ORDER = QueuePriority.order(QueuePriority.DEFAULT);

  /** A head whose domain's standing is not known (0). */
  public QueueHead(String crawl, String queue, FrontierEntry head) {
    this(crawl, queue, head, 0);
  }

  public QueueHead {
    Objects.requireNonNull(crawl, "crawl");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(head, "head");
    if (domainPages < 0) {
      throw new IllegalArgumentException("a negative page count " + domainPages);
    }
  }
}
