package io.webindex.core.history;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The rule a crawl history is kept by: how many versions of each cell are kept and the schedule's
 * constants. A history is written by one rule for its whole life, so the rule travels with it as
 * properties (the history table's {@code table.custom.*} properties, a Fluo application's
 * configuration) and whoever reads or checks that history uses the rule recorded there, not its own
 * configuration's.
 *
 * <p>The properties, intervals in whole seconds: {@value #VERSIONS}, {@value #INTERVAL_DEFAULT},
 * {@value #INTERVAL_MIN}, {@value #INTERVAL_MAX}, {@value #INC_RATE}, {@value #DEC_RATE}, {@value
 * #SYNC_DELTA}, {@value #SYNC_DELTA_RATE}.
 *
 * @param versions the versions kept of each cell (at least 1)
 * @param schedule the schedule's constants
 */
public record HistorySettings(int versions, ScheduleConfig schedule) {
  public static final String VERSIONS = "webindex.history.versions";
  public static final String INTERVAL_DEFAULT = "webindex.schedule.interval.default.seconds";
  public static final String INTERVAL_MIN = "webindex.schedule.interval.min.seconds";
  public static final String INTERVAL_MAX = "webindex.schedule.interval.max.seconds";
  public static final String INC_RATE = "webindex.schedule.inc.rate";
  public static final String DEC_RATE = "webindex.schedule.dec.rate";
  public static final String SYNC_DELTA = "webindex.schedule.sync.delta";
  public static final String SYNC_DELTA_RATE = "webindex.schedule.sync.delta.rate";

  public HistorySettings {
    if (versions < 1) {
      throw new IllegalArgumentException("keep at least one version, not " + versions);
    }
    Objects.requireNonNull(schedule, "schedule");
  }

  /** The settings as properties, in key order. */
  public Map<String, String> properties() {
    Map<String, String> p = new TreeMap<>();
    p.put(VERSIONS, Integer.toString(versions));
    p.put(INTERVAL_DEFAULT, Long.toString(schedule.defaultIntervalSeconds()));
    p.put(INTERVAL_MIN, Long.toString(schedule.minIntervalSeconds()));
    p.put(INTERVAL_MAX, Long.toString(schedule.maxIntervalSeconds()));
    p.put(INC_RATE, Double.toString(schedule.incRate()));
    p.put(DEC_RATE, Double.toString(schedule.decRate()));
    p.put(SYNC_DELTA, Boolean.toString(schedule.syncDelta()));
    p.put(SYNC_DELTA_RATE, Double.toString(schedule.syncDeltaRate()));
    return p;
  }

  /**
   * Whether {@code p} records settings at all (a history written before they were recorded not).
   */
  public static boolean recordedIn(Map<String, String> p) {
    return p.containsKey(VERSIONS);
  }

  /**
   * The settings {@code p} records, as {@link #properties()} writes them.
   *
   * @throws IllegalArgumentException naming the property that is missing or unreadable
   */
  public static HistorySettings fromProperties(Map<String, String> p) {
    return new HistorySettings(
        versions(p),
        new ScheduleConfig(
            number(p, INTERVAL_DEFAULT),
            number(p, INTERVAL_MIN),
            number(p, INTERVAL_MAX),
            rate(p, INC_RATE),
            rate(p, DEC_RATE),
            bool(p, SYNC_DELTA),
            rate(p, SYNC_DELTA_RATE)));
  }

  private static String value(Map<String, String> p, String key) {
    String v = p.get(key);
    if (v == null) {
      throw new IllegalArgumentException("no property " + key);
    }
    return v.trim();
  }

  private static int versions(Map<String, String> p) {
    long n = number(p, VERSIONS);
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(VERSIONS + " is too large: " + n);
    }
    return (int) n;
  }

  private static long number(Map<String, String> p, String key) {
    String v = value(p, key);
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is not a whole number: " + v, e);
    }
  }

  private static double rate(Map<String, String> p, String key) {
    String v = value(p, key);
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is not a number: " + v, e);
    }
  }

  private static boolean bool(Map<String, String> p, String key) {
    String v = value(p, key);
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(key + " is neither true nor false: " + v);
    }
    return Boolean.parseBoolean(v);
  }
}
