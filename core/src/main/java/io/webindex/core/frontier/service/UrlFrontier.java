package io.webindex.core.frontier.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The crawl frontier's operations as the URLFrontier protocol (version 2.5) names them, in plain
 * Java types: what the gRPC service answers with, and what the CLI and the demo call directly.
 *
 * <p>Crawl ids are namespaces; {@link #normaliseCrawl} turns an empty id into {@link
 * #DEFAULT_CRAWL}. The {@code DEFAULT} crawl is the one the index derives (its queues are hosts);
 * other crawls hold only what clients put into them. Every operation acts on the state shared by
 * all frontier processes of one index (there is no node-local state: the protocol's {@code local}
 * flags change nothing).
 *
 * <p>Implementations are safe for concurrent use. An operation that cannot reach its store throws
 * {@link FrontierUnavailableException}; a request that breaks the protocol's rules throws {@link
 * IllegalArgumentException} with a one-line message; an operation the frontier does not do for a
 * crawl (deleting the queues the index derives) throws {@link UnsupportedOperationException} saying
 * what to do instead.
 */
public interface UrlFrontier extends AutoCloseable {
  /** The crawl id of the index's own frontier, and of every request that names none. */
  String DEFAULT_CRAWL = "DEFAULT";

  /** How long a URL handed out stays in flight when the client does not say (seconds). */
  int DEFAULT_LEASE_SECONDS = 30;

  /** {@link #DEFAULT_CRAWL} for an empty (or blank) crawl id, the id itself otherwise. */
  static String normaliseCrawl(String crawl) {
    return crawl == null || crawl.isBlank() ? DEFAULT_CRAWL : crawl;
  }

  /**
   * A URL as the protocol carries it.
   *
   * @param url the URL
   * @param queue the queue key (empty: the service derives it, the URL's host)
   * @param crawl the crawl id (empty: {@link #DEFAULT_CRAWL})
   * @param metadata the client's metadata, kept with the URL and handed back with it
   */
  record UrlInfo(String url, String queue, String crawl, Map<String, List<String>> metadata) {
    public UrlInfo {
      Objects.requireNonNull(url, "url");
      queue = queue == null ? "" : queue;
      crawl = crawl == null ? "" : crawl;
      metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }
  }

  /**
   * A {@code GetURLs} request.
   *
   * @param maxUrlsPerQueue at most this many URLs of one queue (0: no limit)
   * @param maxQueues URLs from at most this many queues (0: no limit)
   * @param queue only this queue (empty: any queue)
   * @param leaseSeconds how long each URL handed out stays in flight unless put back (0: {@link
   *     #DEFAULT_LEASE_SECONDS})
   * @param crawl only this crawl (null: any crawl; empty: {@link #DEFAULT_CRAWL})
   */
  record GetParams(
      int maxUrlsPerQueue, int maxQueues, String queue, int leaseSeconds, String crawl) {
    public GetParams {
      queue = queue == null ? "" : queue;
      if (maxUrlsPerQueue < 0 || maxQueues < 0 || leaseSeconds < 0) {
        throw new IllegalArgumentException(
            "negative bounds: max URLs per queue "
                + maxUrlsPerQueue
                + ", max queues "
                + maxQueues
                + ", delay requestable "
                + leaseSeconds);
      }
    }
  }

  /** The answer to one item put: the protocol's acknowledgement statuses. */
  enum Ack {
    /** Stored. */
    OK,
    /** Not stored and not to be sent again: invalid, or a discovered URL already known. */
    SKIPPED,
    /** Not stored; may be sent again. */
    FAIL
  }

  /**
   * One item of a {@code PutURLs} stream.
   *
   * @param info the URL
   * @param discovered true for a discovered URL (added only if unknown, due at once), false for a
   *     known URL the client has processed
   * @param refetchableFromSeconds for a known URL: when it may be handed out again (epoch seconds;
   *     0: never — the URL is completed)
   */
  record PutItem(UrlInfo info, boolean discovered, long refetchableFromSeconds) {
    public PutItem {
      Objects.requireNonNull(info, "info");
      if (refetchableFromSeconds < 0) {
        throw new IllegalArgumentException("a negative refetch date " + refetchableFromSeconds);
      }
    }
  }

  /**
   * What {@code GetStats} reports of a crawl or of one queue.
   *
   * @param size URLs waiting (scheduled, in flight included; completed ones excluded)
   * @param inProcess URLs in flight (handed out, lease not expired, not yet put back)
   * @param counts further counters: {@code completed} and {@code active_queues} at least
   * @param queues the queues of the crawl
   * @param crawl the crawl id reported on
   */
  record Stats(long size, long inProcess, Map<String, Long> counts, long queues, String crawl) {
    public Stats {
      counts = Map.copyOf(counts);
    }
  }

  /**
   * A URL's state as {@code GetURLStatus} and {@code ListURLs} report it.
   *
   * @param info the URL, its queue and crawl, the metadata stored with it
   * @param refetchableFromSeconds when it is due (epoch seconds; 0 for a completed URL)
   */
  record UrlStatus(UrlInfo info, long refetchableFromSeconds) {
    /**
     * A URL waiting to be handed out, due at {@code dueMillis}. A URL due at once (never crawled:
     * due at 0) reports 1, 1970-01-01T00:00:01Z, since 0 says the URL is completed.
     */
    public static UrlStatus waiting(UrlInfo info, long dueMillis) {
      return new UrlStatus(info, Math.max(1, dueMillis / 1000));
    }
  }

  /**
   * A {@code ListURLs} or {@code CountURLs} selection.
   *
   * @param crawl the crawl (empty: {@link #DEFAULT_CRAWL})
   * @param queue one queue (empty: all queues of the crawl)
   * @param filter only URLs containing this text (null: all)
   * @param ignoreCase whether the filter ignores case
   * @param start how many matching URLs to skip (listing only)
   * @param size at most this many URLs (listing only; 0: the protocol's default, 100)
   */
  record UrlSelection(
      String crawl, String queue, String filter, boolean ignoreCase, long start, long size) {
    public UrlSelection {
      crawl = crawl == null ? "" : crawl;
      queue = queue == null ? "" : queue;
      if (start < 0 || size < 0) {
        throw new IllegalArgumentException("negative start " + start + " or size " + size);
      }
    }
  }

  /**
   * {@code GetURLs}: one pass over the queues; each URL handed out goes to {@code out} and is in
   * flight (not handed out again) until it is put back or its lease ends. No queue hands out URLs
   * within its delay of its last hand-out, while it is blocked, or once its crawl limit is reached;
   * nothing is handed out while the frontier is inactive.
   */
  void getUrls(GetParams params, Consumer<UrlInfo> out);

  /** {@code PutURLs}, one item: stores it and answers how. */
  Ack put(PutItem item);

  /**
   * {@code PutURLs}, the items that arrived together: stores each as {@link #put} would, one after
   * the other in effect (an item sees what the ones before it stored), and answers each, in order.
   * An item that breaks the protocol's rules is {@link Ack#SKIPPED}, one the store could not take
   * {@link Ack#FAIL}; never throws for one item. Implementations may store the items of one queue
   * with one write.
   */
  default List<Ack> putAll(List<PutItem> items) {
    List<Ack> acks = new ArrayList<>(items.size());
    for (PutItem item : items) {
      Ack a;
      try {
        a = put(item);
      } catch (IllegalArgumentException e) {
        a = Ack.SKIPPED;
      } catch (FrontierUnavailableException e) {
        a = Ack.FAIL;
      }
      acks.add(a);
    }
    return acks;
  }

  /**
   * {@code ListQueues}: the queue keys of a crawl, {@code start} skipped, at most {@code size};
   * unless {@code includeInactive}, only queues with URLs waiting that are not blocked.
   */
  List<String> listQueues(String crawl, long start, long size, boolean includeInactive);

  /** {@code GetStats} of a crawl ({@code queue} empty) or of one of its queues. */
  Stats stats(String crawl, String queue);

  /** {@code DeleteQueue}: removes a queue and its URLs; answers how many URLs went. */
  long deleteQueue(String crawl, String queue);

  /** {@code BlockQueueUntil}: no URL of the queue is handed out before then (0: unblock). */
  void blockQueueUntil(String crawl, String queue, long untilEpochSeconds);

  /** {@code SetActive}: while inactive, {@code GetURLs} hands out nothing; puts still work. */
  void setActive(boolean active);

  /** {@code GetActive}. */
  boolean active();

  /**
   * {@code SetDelay}: seconds between two hand-outs of one queue ({@code queue} empty: the default
   * of every queue without its own).
   */
  void setDelay(String crawl, String queue, int seconds);

  /**
   * {@code SetCrawlLimit}: the queue hands out nothing once this many of its URLs are completed (0:
   * no limit).
   */
  void setCrawlLimit(String crawl, String queue, long limit);

  /** {@code GetURLStatus}: the URL's state, empty when the frontier does not know it. */
  Optional<UrlStatus> urlStatus(String crawl, String url, String queue);

  /** {@code ListURLs}. */
  void listUrls(UrlSelection selection, Consumer<UrlStatus> out);

  /** {@code CountURLs}. */
  long countUrls(UrlSelection selection);

  /** {@code ListCrawls}: the crawl ids that have queues. */
  List<String> listCrawls();

  /** {@code DeleteCrawl}: removes every queue of a crawl; answers how many URLs went. */
  long deleteCrawl(String crawl);

  /** Releases the store's resources; the frontier's state stays in the store. */
  @Override
  void close();
}
