package io.webindex.core.history;

import java.util.List;

/**
 * The adaptive refetch schedule (docs/semantics.md): a pure function of a URI's ordered crawl
 * history, so versions arriving late or out of order give the same schedule as in order.
 *
 * <p>The rule, folded over the crawls {@code c[0..n-1]} (times in ms, intervals in whole seconds):
 *
 * <pre>
 * interval = clamp(default);  modified = c[0].time;  next = c[0].time + 1000 * interval
 * for each later crawl c[i]:
 *   changed  = c[i].signature != c[i-1].signature          (live &lt;-&gt; gone is a change)
 *   if changed: interval = Math.round(interval * (1 - decRate)); modified = c[i].time
 *   else:       interval = Math.round(interval * (1 + incRate))
 *   reference = c[i].time
 *   if syncDelta:
 *     delta     = (c[i].time - modified) / 1000             (whole seconds, rounded down)
 *     interval  = max(interval, delta)
 *     reference = c[i].time - 1000 * Math.round(delta * syncDeltaRate)
 *   interval = clamp(interval)                              (to [min, max])
 *   next     = reference + 1000 * interval
 * </pre>
 *
 * <p>{@code Math.round} is applied to Java {@code double} products (IEEE 754, round half up), so
 * every step is exact and reproducible: the interval is a whole number of seconds after each crawl,
 * never a drifting fraction. These are the semantics of Nutch's {@code AdaptiveFetchSchedule} (a
 * change sets the modification time to the crawl, so {@code delta} grows only over unchanged
 * crawls).
 */
public final class Schedules {
  private Schedules() {}

  /** The schedule of a non-empty history ordered by crawl time, one crawl per millisecond. */
  public static Schedule of(List<Crawl> ordered, ScheduleConfig cfg) {
    if (ordered.isEmpty()) {
      throw new IllegalArgumentException("a schedule needs at least one crawl");
    }
    Crawl first = ordered.get(0);
    long interval = clamp(cfg.defaultIntervalSeconds(), cfg);
    long modified = first.crawledMillis();
    long next = first.crawledMillis() + 1000 * interval;
    int changes = 0;
    for (int i = 1; i < ordered.size(); i++) {
      Crawl prev = ordered.get(i - 1);
      Crawl c = ordered.get(i);
      if (c.crawledMillis() <= prev.crawledMillis()) {
        throw new IllegalArgumentException(
            "crawls out of order or twice in one ms: "
                + prev.crawledMillis()
                + ", "
                + c.crawledMillis());
      }
      long t = c.crawledMillis();
      if (!c.signature().equals(prev.signature())) {
        changes++;
        interval = Math.round(interval * (1 - cfg.decRate()));
        modified = t;
      } else {
        interval = Math.round(interval * (1 + cfg.incRate()));
      }
      long reference = t;
      if (cfg.syncDelta()) {
        long delta = (t - modified) / 1000;
        interval = Math.max(interval, delta);
        reference = t - 1000 * Math.round(delta * cfg.syncDeltaRate());
      }
      interval = clamp(interval, cfg);
      next = reference + 1000 * interval;
    }
    Crawl last = ordered.get(ordered.size() - 1);
    return new Schedule(
        first.crawledMillis(),
        last.crawledMillis(),
        ordered.size(),
        changes,
        interval,
        next,
        modified);
  }

  private static long clamp(long interval, ScheduleConfig cfg) {
    return Math.max(cfg.minIntervalSeconds(), Math.min(cfg.maxIntervalSeconds(), interval));
  }
}
