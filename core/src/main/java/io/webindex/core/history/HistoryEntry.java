package io.webindex.core.history;

import io.webindex.core.model.PageVersion;
import java.util.Objects;

/**
 * One crawl of a URI's full history together with the page version that made it: of all versions of
 * the URL crawled in the same millisecond, the one latest-crawl-wins picks ({@link
 * PageVersion#compareTo}). Keeping the version lets a same-millisecond version that arrives later
 * be resolved exactly as a batch recompute that saw every version at once resolves it.
 */
public record HistoryEntry(Crawl crawl, PageVersion version) {
  public HistoryEntry {
    Objects.requireNonNull(crawl, "crawl");
    Objects.requireNonNull(version, "version");
    if (version.crawled().toEpochMilli() != crawl.crawledMillis()) {
      throw new IllegalArgumentException(
          "crawl at " + crawl.crawledMillis() + " ms made by a version of " + version.crawled());
    }
  }
}
