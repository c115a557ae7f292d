package io.webindex.fluo;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.webindex.store.metrics.Metrics;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the transactions of one Fluo application in this process did, by the class that ran them
 * (the loader, each observer): transactions committed and attempted, entries read and entries set
 * in all attempts (Fluo's own counters {@code tx_status_*}, {@code tx_entries_read}, {@code
 * tx_entries_set}, which it keeps per class; an attempt that collided is run again, and what it
 * read and set is counted too). An entry set is one cell a transaction writes or deletes — each
 * costs the tablet server a conditional write (its lock) and a commit — so these say where an
 * application's work per page version goes.
 */
record FluoTxFigures(
    String alias, long committed, long attempts, long entriesRead, long entriesSet) {
  private static final String COMMITTED = "tx_status_committed";
  private static final String STATUS = "tx_status_";
  private static final String READ = "tx_entries_read";
  private static final String SET = "tx_entries_set";

  /**
   * The figures of application {@code app} by class, summed over the Fluo environments of this
   * process (an embedded application's worker and client count under one name each).
   */
  static Map<String, FluoTxFigures> of(String app) {
    Map<String, long[]> sums = new TreeMap<>();
    String prefix = "fluo.class." + app + ".";
    for (MetricRegistry r : Metrics.included()) {
      for (Map.Entry<String, Meter> e : r.getMeters().entrySet()) {
        String name = e.getKey();
        if (!name.startsWith(prefix)) {
          continue;
        }
        // fluo.class.<app>.<reporter id>.<figure>.<class>
        String rest = name.substring(prefix.length());
        int figureAt = rest.indexOf('.');
        int aliasAt = figureAt < 0 ? -1 : rest.indexOf('.', figureAt + 1);
        if (aliasAt < 0) {
          continue;
        }
        String figure = rest.substring(figureAt + 1, aliasAt);
        long[] sum = sums.computeIfAbsent(rest.substring(aliasAt + 1), k -> new long[4]);
        long count = e.getValue().getCount();
        if (figure.startsWith(STATUS)) {
          // every attempt ends in one status; a collision's attempt is run again
          sum[1] += count;
          if (figure.equals(COMMITTED)) {
            sum[0] += count;
          }
        } else if (figure.equals(READ)) {
          sum[2] += count;
        } else if (figure.equals(SET)) {
          sum[3] += count;
        }
      }
    }
    Map<String, FluoTxFigures> out = new TreeMap<>();
    sums.forEach((k, v) -> out.put(k, new FluoTxFigures(k, v[0], v[1], v[2], v[3])));
    return out;
  }

  /** One line: this class's figures, and per page version of {@code versions}. */
  String describe(long versions) {
    double per = Math.max(1, versions);
    return String.format(
        Locale.ROOT,
        "%s: %,d transactions committed of %,d attempts, %,d entries read, %,d set (per page"
            + " version: %.2f, %.1f, %.1f)",
        alias,
        committed,
        attempts,
        entriesRead,
        entriesSet,
        committed / per,
        entriesRead / per,
        entriesSet / per);
  }
}
