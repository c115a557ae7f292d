package io.webindex.check.scan;

import io.webindex.check.engine.CheckAccumulator;
import io.webindex.check.engine.Exclusions;
import io.webindex.core.history.HistorySettings;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.accumulo.core.client.Connector;

/**
 * The comparison of two query tables' companions, their history tables ({@link HistoryScan}) and
 * their frontier tables ({@link FrontierScan}), the two at the same time: the history in a thread
 * of its own, each into a part of the accumulator, added to it in that order (history, then
 * frontier) once both have ended, so that the report is the same as if they had run one after the
 * other.
 *
 * <p>Each of the four tables is read ahead in a thread of its own ({@link TableScans#both}). In the
 * files mode they run while the expected query table's facts are joined ({@link FileCheck}), not
 * while the query tables are read: that keeps both cores of the 2-core machine busy, and the two at
 * once measured no faster (1M pages: 29.1 s against 28.9 s, the median of three runs each, with 5 %
 * more CPU).
 */
public final class CompanionChecks {
  private CompanionChecks() {}

  /**
   * Compares the companions of {@code expected} and {@code actual} through one scanner per table.
   *
   * @param configured the history rule of a history table that records none
   */
  public static void run(
      Connector conn,
      String expected,
      String actual,
      HistorySettings configured,
      Exclusions skip,
      CheckAccumulator acc) {
    run(conn, TableScans.scanners(conn), expected, actual, configured, skip, acc);
  }

  /** As {@link #run(Connector, String, String, HistorySettings, Exclusions, CheckAccumulator)}. */
  static void run(
      Connector conn,
      TableScans.Reader reader,
      String expected,
      String actual,
      HistorySettings configured,
      Exclusions skip,
      CheckAccumulator acc) {
    CheckAccumulator history = acc.part();
    CheckAccumulator frontier = acc.part();
    CompletableFuture<Boolean> h =
        CompletableFuture.supplyAsync(
            () -> HistoryScan.run(conn, reader, expected, actual, configured, skip, history),
            r -> {
              Thread t = new Thread(r, "webindex-check-history");
              t.setDaemon(true);
              t.start();
            });
    RuntimeException failure = null;
    try {
      FrontierScan.run(reader, expected, actual, skip, frontier);
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      h.join(); // also after a failure: the caller may delete what the history is reading
    } catch (CompletionException x) {
      RuntimeException c = FileCheck.cause(x);
      if (failure == null) {
        failure = c;
      } else {
        failure.addSuppressed(c);
      }
    }
    if (failure != null) {
      throw failure;
    }
    acc.merge(history);
    acc.merge(frontier);
  }
}
