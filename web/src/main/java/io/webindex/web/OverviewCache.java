package io.webindex.web;

import io.webindex.core.config.WebindexConfig;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.accumulo.core.client.Connector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Health at a glance for {@code /api/v1/health} and the home page's panel: {@link Overview#gather},
 * reused for the cache time.
 */
final class OverviewCache {
  private static final Logger log = LoggerFactory.getLogger(OverviewCache.class);

  private final Connector conn;
  private final WebindexConfig cfg;
  private final FluoProbe fluo;
  private final long cacheNanos;
  private final AtomicReference<Cached> last = new AtomicReference<>();

  /** The last overview gathered, and when (System.nanoTime). */
  private record Cached(long at, Overview overview) {}

  /**
   * @param fluo the Fluo probe (null: the Fluo lag and processes are not reported)
   * @param cacheMillis how long a gathered {@link Overview} is reused
   */
  OverviewCache(Connector conn, WebindexConfig cfg, FluoProbe fluo, long cacheMillis) {
    this.conn = conn;
    this.cfg = cfg;
    this.fluo = fluo;
    this.cacheNanos = TimeUnit.MILLISECONDS.toNanos(cacheMillis);
  }

  /**
   * The overview, gathered at most once per cache time; null (logged) when the run registry cannot
   * be read, so that health and the home page still answer.
   */
  Overview getOrNull() {
    long now = System.nanoTime();
    Cached c = last.get();
    if (c != null && now - c.at() < cacheNanos) {
      return c.overview();
    }
    try {
      Overview o = Overview.gather(conn, cfg, fluo);
      last.set(new Cached(now, o));
      return o;
    } catch (RuntimeException e) {
      log.warn("cannot gather the health overview: {}", e.getMessage());
      return null;
    }
  }
}
