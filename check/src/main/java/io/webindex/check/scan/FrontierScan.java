package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.Exclusions;
import io.webindex.check.engine.FrontierCheck;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.store.Cells;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares the frontier tables of two query tables ({@link FrontierCheck}) in this process,
 * whatever mode compared the query tables, through a scanner each or from their files ({@link
 * TableScans.Reader}).
 */
final class FrontierScan {
  private static final Logger log = LoggerFactory.getLogger(FrontierScan.class);

  private FrontierScan() {}

  /**
   * Compares the frontier table of {@code expected} with that of {@code actual}. Without the
   * expected one (a run recomputed before the frontier existed) there is nothing to compare and it
   * returns false; a missing actual one compares as empty.
   *
   * @return whether the frontier tables were compared
   */
  static boolean run(
      TableScans.Reader reader,
      String expected,
      String actual,
      Exclusions skip,
      CheckAccumulator acc) {
    String e = FrontierSchema.frontierTable(expected);
    String a = FrontierSchema.frontierTable(actual);
    if (!reader.exists(e)) {
      log.warn(
          "check: the run's table {} has no frontier table {}: frontiers not compared",
          expected,
          e);
      return false;
    }
    TableScans.both(reader, e, a, Cells::fromEntry, new FrontierCheck(skip, acc)::run);
    return true;
  }
}
