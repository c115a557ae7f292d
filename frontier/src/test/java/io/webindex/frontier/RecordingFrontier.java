package io.webindex.frontier;

import io.webindex.core.frontier.service.FrontierUnavailableException;
import io.webindex.core.frontier.service.UrlFrontier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link UrlFrontier} for the protocol mapping's tests: it records every call with its arguments
 * (as one readable line) and answers what the test set. The frontier's semantics are tested where
 * they are implemented; here only what the service passes on and hands back matters.
 */
final class RecordingFrontier implements UrlFrontier {
  final List<String> calls = new ArrayList<>();

  /** What getUrls hands out. */
  List<UrlInfo> toHandOut = List.of();

  /** What the next call throws (then cleared), or null. */
  RuntimeException failure;

  Stats stats = new Stats(0, 0, Map.of(), 0, DEFAULT_CRAWL);
  List<String> queues = List.of();
  List<String> crawls = List.of();
  Optional<UrlStatus> status = Optional.empty();
  List<UrlStatus> listed = List.of();
  long count;
  boolean active = true;

  private synchronized void record(String call) {
    calls.add(call);
    RuntimeException f = failure;
    failure = null;
    if (f != null) {
      throw f;
    }
  }

  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  @Override
  public void getUrls(GetParams p, Consumer<UrlInfo> out) {
    record(
        "getUrls "
            + p.maxUrlsPerQueue()
            + " "
            + p.maxQueues()
            + " ["
            + p.queue()
            + "] "
            + p.leaseSeconds()
            + " "
            + p.crawl());
    toHandOut.forEach(out);
  }

  /** The number of items of each putAll call, in order. */
  final List<Integer> batches = new ArrayList<>();

  /** When set, the first putAll call waits for it (so that the items after it queue up). */
  volatile java.util.concurrent.CountDownLatch holdFirstBatch;

  /** Each batch's size recorded, the first one held when asked; then each item put. */
  @Override
  public List<Ack> putAll(List<PutItem> items) {
    boolean first;
    synchronized (this) {
      first = batches.isEmpty();
      batches.add(items.size());
    }
    java.util.concurrent.CountDownLatch hold = holdFirstBatch;
    if (first && hold != null) {
      try {
        hold.await(30, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return UrlFrontier.super.putAll(items);
  }

  synchronized List<Integer> batches() {
    return List.copyOf(batches);
  }

  /**
   * Puts: a URL without a scheme is refused as invalid, one on host {@code down.example} finds the
   * store unreachable, one on host {@code known.example} is a discovered URL already known.
   */
  @Override
  public Ack put(PutItem item) {
    record(
        "put "
            + (item.discovered() ? "discovered " : "known ")
            + item.info().url()
            + " ["
            + item.info().queue()
            + "] ["
            + item.info().crawl()
            + "] "
            + item.info().metadata()
            + " "
            + item.refetchableFromSeconds());
    String url = item.info().url();
    if (!url.contains("://")) {
      throw new IllegalArgumentException("not a URL: " + url);
    }
    if (url.contains("down.example")) {
      throw new FrontierUnavailableException("Accumulo unreachable", new RuntimeException());
    }
    if (item.discovered() && url.contains("known.example")) {
      return Ack.SKIPPED;
    }
    return Ack.OK;
  }

  @Override
  public List<String> listQueues(String crawl, long start, long size, boolean includeInactive) {
    record("listQueues " + crawl + " " + start + " " + size + " " + includeInactive);
    return queues;
  }

  @Override
  public Stats stats(String crawl, String queue) {
    record("stats " + crawl + " [" + queue + "]");
    return stats;
  }

  @Override
  public long deleteQueue(String crawl, String queue) {
    record("deleteQueue " + crawl + " [" + queue + "]");
    return count;
  }

  @Override
  public void blockQueueUntil(String crawl, String queue, long untilEpochSeconds) {
    record("blockQueueUntil " + crawl + " [" + queue + "] " + untilEpochSeconds);
  }

  @Override
  public void setActive(boolean active) {
    record("setActive " + active);
    this.active = active;
  }

  @Override
  public boolean active() {
    record("active");
    return active;
  }

  @Override
  public void setDelay(String crawl, String queue, int seconds) {
    record("setDelay " + crawl + " [" + queue + "] " + seconds);
  }

  @Override
  public void setCrawlLimit(String crawl, String queue, long limit) {
    record("setCrawlLimit " + crawl + " [" + queue + "] " + limit);
  }

  @Override
  public Optional<UrlStatus> urlStatus(String crawl, String url, String queue) {
    record("urlStatus " + crawl + " " + url + " [" + queue + "]");
    return status;
  }

  @Override
  public void listUrls(UrlSelection s, Consumer<UrlStatus> out) {
    record("listUrls " + selection(s));
    listed.forEach(out);
  }

  @Override
  public long countUrls(UrlSelection s) {
    record("countUrls " + selection(s));
    return count;
  }

  private static String selection(UrlSelection s) {
    return s.crawl()
        + " ["
        + s.queue()
        + "] "
        + s.filter()
        + " "
        + s.ignoreCase()
        + " "
        + s.start()
        + " "
        + s.size();
  }

  @Override
  public List<String> listCrawls() {
    record("listCrawls");
    return crawls;
  }

  @Override
  public long deleteCrawl(String crawl) {
    record("deleteCrawl " + crawl);
    return count;
  }

  @Override
  public void close() {}
}
