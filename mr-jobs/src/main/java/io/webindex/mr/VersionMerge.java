package io.webindex.mr;

import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.model.Page;
import io.webindex.mr.io.PageWritable;
import java.util.ArrayList;
import java.util.List;

/**
 * What the latest-version job's combiner and reducer make of the versions of one URL: the latest
 * version (latest crawl wins) and the crawl history of all of them, one crawl per millisecond
 * ({@link Histories}), carried beside the latest version as the crawls of its <em>other</em>
 * milliseconds. Merging partial results again gives the same result as merging all versions at
 * once, so the combiner may run any number of times.
 */
final class VersionMerge {
  private VersionMerge() {}

  /**
   * The merge of some versions of one URL.
   *
   * @param latest the version latest-crawl-wins picks
   * @param others the URL's crawls but the latest version's own, ordered by time (the crawl of the
   *     latest's millisecond is among them when a version recorded before it won it)
   * @param versions how many values were merged
   */
  record Result(Page latest, List<HistoryEntry> others, long versions) {
    /** The URL's full history: the other crawls and the latest version's own. */
    List<HistoryEntry> full() {
      return Histories.merge(others, List.of(Histories.entryOf(latest)));
    }
  }

  static Result of(Iterable<PageWritable> values) {
    long versions = 0;
    Page latest = null;
    List<HistoryEntry> entries = new ArrayList<>();
    for (PageWritable w : values) {
      versions++;
      Page p = w.get();
      entries.add(Histories.entryOf(p));
      entries.addAll(w.others());
      if (latest == null || p.version().supersedes(latest.version())) {
        latest = p;
      }
    }
    if (latest == null) {
      throw new IllegalArgumentException("no version to merge");
    }
    if (entries.size() == 1) {
      return new Result(latest, List.of(), versions);
    }
    long latestMs = latest.version().crawled().toEpochMilli();
    List<HistoryEntry> merged = Histories.merge(entries, List.of());
    List<HistoryEntry> others = new ArrayList<>(merged.size() - 1);
    for (HistoryEntry e : merged) {
      // the latest version's own crawl travels with it; another version that won the latest's
      // millisecond (recorded before it) travels as one of the others
      if (e.crawl().crawledMillis() != latestMs || !e.version().equals(latest.version())) {
        others.add(e);
      }
    }
    return new Result(latest, others, versions);
  }
}
