package io.webindex.core.index;

import io.webindex.core.history.Histories;
import io.webindex.core.history.HistoryEntry;
import io.webindex.core.history.Schedule;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.history.Schedules;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.TimedCell;
import io.webindex.core.schema.TimedCellChange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The pure functions from a URI's crawl history to history-table cells, and from an old to a new
 * history to the changes that turn one into the other: the batch recompute writes {@link #of} for
 * every URI, the Fluo exporter writes {@link #changes} of every update, so both engines agree by
 * construction (as {@link IndexCells} for the query table).
 *
 * <p>A URI's history owns its {@code crawl:} versions (the newest {@code versionsKept} crawls, each
 * at its crawl millisecond) and its {@code sched:} cell. The {@code urc:} series belongs to the
 * batch runs ({@link HistorySchema#urcCell}), not to the history.
 */
public final class HistoryCells {
  private HistoryCells() {}

  /**
   * The cells a URI's full history owns, in table order: the {@code sched:} cell (at {@link
   * HistorySchema#SCHED_BATCH_TIMESTAMP}) and the newest {@code versionsKept} crawls (newest first,
   * as Accumulo returns them); none for an empty history.
   */
  public static List<TimedCell> of(
      String uriKey, List<HistoryEntry> fullHistory, ScheduleConfig cfg, int versionsKept) {
    return of(uriKey, fullHistory, cfg, versionsKept, HistorySchema.SCHED_BATCH_TIMESTAMP);
  }

  private static List<TimedCell> of(
      String uriKey,
      List<HistoryEntry> fullHistory,
      ScheduleConfig cfg,
      int versionsKept,
      long schedTimestamp) {
    if (versionsKept < 1) {
      throw new IllegalArgumentException("versions kept must be at least 1: " + versionsKept);
    }
    if (fullHistory.isEmpty()) {
      return List.of();
    }
    List<TimedCell> cells = new ArrayList<>(Math.min(versionsKept, fullHistory.size()) + 1);
    for (int i = fullHistory.size() - 1; i >= 0 && cells.size() < versionsKept; i--) {
      cells.add(HistorySchema.crawlCell(uriKey, fullHistory.get(i).crawl()));
    }
    cells.add(HistorySchema.scheduleCell(uriKey, schedule(fullHistory, cfg), schedTimestamp));
    cells.sort(TimedCell.ORDER);
    return cells;
  }

  /** The schedule of a non-empty full history. */
  public static Schedule schedule(List<HistoryEntry> fullHistory, ScheduleConfig cfg) {
    return Schedules.of(Histories.crawls(fullHistory), cfg);
  }

  /**
   * The changes that turn the history table's cells of {@code before} into those of {@code after}
   * (either may be empty), for an exporter writing at {@code exportTimestamp}: a put of every crawl
   * version that is new or whose winning version now reads differently (at its crawl millisecond);
   * crawls that fall out of the newest {@code versionsKept} are left to the table's versioning
   * iterator. A changed schedule is a delete of every older {@code sched:} version (at {@code
   * exportTimestamp - 1}) and a put at {@code exportTimestamp}. In table order.
   */
  public static List<TimedCellChange> changes(
      String uriKey,
      List<HistoryEntry> before,
      List<HistoryEntry> after,
      ScheduleConfig cfg,
      int versionsKept,
      long exportTimestamp) {
    if (exportTimestamp < 1) {
      throw new IllegalArgumentException("an export timestamp is positive: " + exportTimestamp);
    }
    List<TimedCellChange> changes = new ArrayList<>();
    if (after.isEmpty()) {
      if (!before.isEmpty()) {
        throw new IllegalArgumentException("a crawl history never shrinks to nothing: " + uriKey);
      }
      return changes;
    }
    Set<TimedCell> old = new HashSet<>();
    String oldSchedule = null;
    for (TimedCell c : of(uriKey, before, cfg, versionsKept, exportTimestamp)) {
      if (c.family().equals(HistorySchema.FAM_SCHED)) {
        oldSchedule = c.value();
      } else {
        old.add(c);
      }
    }
    for (TimedCell c : of(uriKey, after, cfg, versionsKept, exportTimestamp)) {
      if (c.family().equals(HistorySchema.FAM_SCHED)) {
        if (!c.value().equals(oldSchedule)) {
          changes.add(new TimedCellChange.Delete(c.column(), exportTimestamp - 1));
          changes.add(new TimedCellChange.Put(c));
        }
      } else if (!old.contains(c)) {
        changes.add(new TimedCellChange.Put(c));
      }
    }
    return changes;
  }
}
