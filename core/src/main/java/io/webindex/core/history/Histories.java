package io.webindex.core.history;

import io.webindex.core.model.Page;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A URI's crawl history: every version of its URL ever read, one crawl per millisecond, ordered by
 * crawl time. Two versions crawled in the same millisecond are one crawl, made by the version that
 * latest-crawl-wins picks (crawl instant, then batch, file, offset). The history is a pure function
 * of the <em>set</em> of versions read: merging in any order, with duplicates and stale versions,
 * gives the same list, so the batch recompute (all versions at once) and the Fluo application (one
 * version at a time) agree.
 */
public final class Histories {
  private Histories() {}

  /** The history entry a page version makes. */
  public static HistoryEntry entryOf(Page page) {
    return new HistoryEntry(crawlOf(page), page.version());
  }

  /** The crawl a page version makes: its crawl millisecond, status, signature and outlinks. */
  public static Crawl crawlOf(Page page) {
    long ms = page.version().crawled().toEpochMilli();
    if (page.deleted()) {
      return new Crawl(ms, CrawlStatus.GONE, "", 0);
    }
    return new Crawl(ms, CrawlStatus.OK, page.signature(), page.links().size());
  }

  /**
   * {@code history} with {@code page} added: a new millisecond adds a crawl; in a millisecond
   * already held, the page replaces the held crawl only when its version is later. The result is
   * ordered by crawl time; {@code history} is not changed.
   */
  public static List<HistoryEntry> add(List<HistoryEntry> history, Page page) {
    return merge(history, List.of(entryOf(page)));
  }

  /**
   * The union of two histories, one crawl per millisecond: the version recorded first wins (the
   * earliest batch, then file, then byte offset — not the crawl instant, which may differ below the
   * millisecond), so that an engine that applies batches in order never replaces a crawl it wrote.
   */
  public static List<HistoryEntry> merge(Collection<HistoryEntry> a, Collection<HistoryEntry> b) {
    Map<Long, HistoryEntry> byMs = new TreeMap<>();
    put(byMs, a);
    put(byMs, b);
    return List.copyOf(byMs.values());
  }

  /** The history of a set of page versions of one URL, in any order. */
  public static List<HistoryEntry> of(Collection<Page> versions) {
    Map<Long, HistoryEntry> byMs = new TreeMap<>();
    for (Page p : versions) {
      put(byMs, List.of(entryOf(p)));
    }
    return List.copyOf(byMs.values());
  }

  /** Where a version was recorded: batch, then file, then byte offset. */
  private static final java.util.Comparator<io.webindex.core.model.PageVersion> RECORDED =
      java.util.Comparator.comparingLong(io.webindex.core.model.PageVersion::batch)
          .thenComparing(io.webindex.core.model.PageVersion::file)
          .thenComparingLong(io.webindex.core.model.PageVersion::offset);

  private static void put(Map<Long, HistoryEntry> byMs, Collection<HistoryEntry> entries) {
    for (HistoryEntry e : entries) {
      byMs.merge(
          e.crawl().crawledMillis(),
          e,
          (held, offered) ->
              RECORDED.compare(offered.version(), held.version()) < 0 ? offered : held);
    }
  }

  /** The crawls of a history, in order. */
  public static List<Crawl> crawls(List<HistoryEntry> history) {
    List<Crawl> crawls = new ArrayList<>(history.size());
    for (HistoryEntry e : history) {
      crawls.add(e.crawl());
    }
    return crawls;
  }
}
