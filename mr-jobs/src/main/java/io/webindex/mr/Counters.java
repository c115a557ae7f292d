package io.webindex.mr;

/** Counter groups of the recompute jobs (the reader's own counters are in {@link #READ}). */
public final class Counters {
  /** Reader counters ({@code ReadCounter}) and rejects ({@code REJECT_<reason>}). */
  public static final String READ = "webindex.read";

  /** Counters of the latest-version job. */
  public enum Latest {
    URLS,
    CURRENT_PAGES,
    CURRENT_DELETIONS,
    SUPERSEDED_VERSIONS,
    /** Crawls in the URLs' histories (one per URL and millisecond). */
    CRAWLS,
    REJECTS_SAMPLED
  }

  /** Counters of the per-URI job. */
  public enum Uris {
    URIS,
    SEEN_URIS,
    CRAWLED_URIS,
    INLINKS
  }

  /** Counters of the sort-and-write job. */
  public enum Write {
    QUERY_CELLS,
    FLUO_SEED_ENTRIES,
    FLUO_KEY_VALUES,
    /** Cells of the history table (crawl versions, schedules, urc points). */
    HISTORY_CELLS,
    /** Urc points carried from the previous successful run's history table. */
    URC_POINTS_CARRIED,
    /** Cells of the frontier table: one per URI in the frontier. */
    FRONTIER_CELLS
  }

  private Counters() {}
}
