package io.webindex.check.engine;

/**
 * The kind of every finding of a consistency check. Differences compare two tables that should be
 * equal (the expected one, a batch run, and the actual one, the Fluo-maintained table); invariant
 * violations are found inside one table.
 */
public enum Kind {
  /** A cell of the expected table is not in the actual one. */
  MISSING(true),
  /** A cell of the actual table is not in the expected one. */
  EXTRA(true),
  /** A cell is in both with different values. */
  DIFFERENT(true),
  /** {@code domain:pagecount} is not the number of {@code rank} columns of its row. */
  PAGECOUNT_MISMATCH(false),
  /** {@code page:incount} is not the number of {@code inlinks} columns of its row. */
  INCOUNT_MISMATCH(false),
  /** A row of {@code inlinks} or {@code page:cur} without {@code page:incount}. */
  INCOUNT_MISSING(false),
  /** A seen URI (it has {@code page:incount}) without its {@code t:} row. */
  TOTAL_MISSING(false),
  /** A {@code t:} row whose count is not the URI's {@code incount}, or a URI with two. */
  TOTAL_MISMATCH(false),
  /** A seen URI without its {@code rank} column in its domain's row. */
  RANK_MISSING(false),
  /**
   * A {@code rank} column whose count is not the URI's {@code incount}, a URI with two, or one in
   * the wrong domain's row.
   */
  RANK_MISMATCH(false),
  /** A {@code t:} row or {@code rank} column of a URI that has no {@code page:incount}. */
  ORPHAN(false),
  /**
   * History table: a URI's {@code sched:} says another number of crawls than the {@code crawl:}
   * versions kept (while under the limit), or, when every crawl is kept, another first crawl,
   * number of changes or last change than they show.
   */
  HISTORY_CRAWLS_MISMATCH(false),
  /** History table: the schedule's last crawl is not the newest {@code crawl:} version. */
  HISTORY_LAST_MISMATCH(false),
  /**
   * History table: the schedule breaks its rule: an interval outside [min, max] (or not the default
   * after one crawl, or shorter than the time since the last change with sync delta), or a next
   * fetch other than the reference time plus the interval.
   */
  SCHEDULE_MISMATCH(false),
  /** History table: {@code crawl:} versions without a {@code sched:} cell, or the reverse. */
  SCHEDULE_MISSING(false),
  /** Frontier table: a URI with more than one cell (it has one due time and one priority). */
  FRONTIER_DUPLICATE(false),
  /** A cell whose row, column or value the schema codec cannot parse. */
  MALFORMED(false);

  private final boolean difference;

  Kind(boolean difference) {
    this.difference = difference;
  }

  /** True for a difference between two tables, false for an invariant of one table. */
  public boolean isDifference() {
    return difference;
  }
}
