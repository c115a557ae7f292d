package io.webindex.check.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.LiveSide;
import java.time.Duration;

/**
 * The check's view of the live side ({@link LiveSide#settle}): the served table, the application
 * that maintains it and the batch it has applied once none of its work is in flight. The check's
 * only other Fluo contact besides {@link SeedCheck}.
 */
public final class LiveProbe {
  private LiveProbe() {}

  /** The live side, settled. */
  public record Settled(
      String table, String app, long applied, long pendingAtStart, Duration waited) {}

  /** Whether a Fluo application maintains the served table ({@link LiveSide#maintained}). */
  public static boolean maintained(WebindexConfig cfg) {
    return LiveSide.maintained(cfg);
  }

  /**
   * Waits up to {@code max} until the served application is idle and has applied batch {@code
   * minApplied} or later.
   *
   * @throws io.webindex.store.StoreException when no table is served, no oracle of the served
   *     application runs, or it did not settle
   */
  public static Settled settle(WebindexConfig cfg, long minApplied, Duration max) {
    LiveSide.Settled s = LiveSide.settle(cfg, minApplied, max);
    return new Settled(s.served().table(), s.app(), s.applied(), s.pendingAtStart(), s.waited());
  }
}
