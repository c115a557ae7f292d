package io.webindex.core.history;

/**
 * The constants of the adaptive refetch schedule ({@link Schedules}), from the configuration
 * ({@code webindex.schedule.*}). Intervals are whole seconds.
 *
 * @param defaultIntervalSeconds the interval after a URI's first crawl (default 30 days)
 * @param minIntervalSeconds the shortest interval (default 60 s)
 * @param maxIntervalSeconds the longest interval (default 365 days)
 * @param incRate the factor {@code 1 + incRate} applied when a crawl found no change (0.4)
 * @param decRate the factor {@code 1 - decRate} applied when a crawl found a change (0.2)
 * @param syncDelta whether the interval is at least the time since the last change and the next
 *     fetch is pulled back by a part of that time (on)
 * @param syncDeltaRate that part (0.3)
 */
public record ScheduleConfig(
    long defaultIntervalSeconds,
    long minIntervalSeconds,
    long maxIntervalSeconds,
    double incRate,
    double decRate,
    boolean syncDelta,
    double syncDeltaRate) {

  public static final long DAY = 86_400L;

  /** The shipped constants: those of Nutch's adaptive fetch schedule. */
  public static final ScheduleConfig DEFAULT =
      new ScheduleConfig(30 * DAY, 60, 365 * DAY, 0.4, 0.2, true, 0.3);

  public ScheduleConfig {
    if (minIntervalSeconds < 1) {
      throw new IllegalArgumentException(
          "the minimum interval must be at least 1 second: " + minIntervalSeconds);
    }
    if (minIntervalSeconds > defaultIntervalSeconds
        || defaultIntervalSeconds > maxIntervalSeconds) {
      throw new IllegalArgumentException(
          "the intervals must satisfy min <= default <= max: min="
              + minIntervalSeconds
              + " default="
              + defaultIntervalSeconds
              + " max="
              + maxIntervalSeconds);
    }
    if (maxIntervalSeconds > 100L * 365 * DAY) {
      throw new IllegalArgumentException(
          "the maximum interval must be at most 100 years: " + maxIntervalSeconds);
    }
    checkRate("inc rate", incRate);
    checkRate("dec rate", decRate);
    checkRate("sync delta rate", syncDeltaRate);
  }

  private static void checkRate(String name, double rate) {
    if (!(rate >= 0 && rate < 1)) {
      throw new IllegalArgumentException("the " + name + " must be >= 0 and < 1: " + rate);
    }
  }
}
