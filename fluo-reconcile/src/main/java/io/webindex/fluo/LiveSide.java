package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.RunRegistry;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import io.webindex.store.StoreUnavailableException;
import java.time.Duration;
import java.time.Instant;
import org.apache.accumulo.core.client.Connector;

/**
 * The live side as a check of the served table needs it: which table is served, which Fluo
 * application maintains it, which batch that application has applied, with no work of it in flight.
 * {@link #settle} waits, up to a bound, until the application is idle (every applied change
 * exported: {@link Idleness}) and has applied at least the batch the check needs; what it then
 * reads is the state the served table holds, so that nothing still on its way through the queues is
 * counted as a difference.
 */
public final class LiveSide {
  private LiveSide() {}

  /**
   * The settled live side: the served pointer, the application that maintains the table, the batch
   * it has applied, the notifications in flight when the wait began, and how long it waited.
   */
  public record Settled(
      RunRegistry.Served served, String app, long applied, long pendingAtStart, Duration waited) {}

  /**
   * The live side did not settle within the bound, or a cut-over changed the served table: nothing
   * can be compared yet, the same check later may (transient).
   */
  public static final class NotSettled extends StoreUnavailableException {
    private static final long serialVersionUID = 1L;

    NotSettled(String message) {
      super(message);
    }
  }

  /**
   * Waits up to {@code max} until the application that maintains the served table is idle and has
   * applied batch {@code minApplied} or later.
   *
   * @throws NotSettled when no table is served
   * @throws FluoSession.NotRunning when no oracle of the served application runs within {@code max}
   *     (right after a cut-over the services that follow the served pointer take a moment to serve
   *     the new application: the wait for them is part of the settling)
   * @throws NotSettled when it is still busy, or behind, after {@code max}
   */
  /** The running application {@code app}, waiting until {@code until} for an oracle of it. */
  private static FluoSession openWithin(WebindexConfig cfg, String app, Instant until) {
    boolean told = false;
    while (true) {
      try {
        return FluoSession.running(cfg, app);
      } catch (FluoSession.NotRunning e) {
        if (!Instant.now().isBefore(until)) {
          throw e;
        }
        if (!told) {
          log.warn(
              "no oracle of Fluo application {} runs yet: waiting up to {} s for one (services"
                  + " that follow the served pointer take a moment after a cut-over)",
              app,
              Math.max(1, Duration.between(Instant.now(), until).toSeconds()));
          told = true;
        }
        try {
          Thread.sleep(ORACLE_POLL.toMillis());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new NotSettled("interrupted while waiting for an oracle of " + app);
        }
      }
    }
  }

  /** How often the check looks for an oracle of the served application while it waits. */
  private static final Duration ORACLE_POLL = Duration.ofSeconds(1);

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LiveSide.class);

  public static Settled settle(WebindexConfig cfg, Connector conn, long minApplied, Duration max) {
    RunRegistry registry = new RunRegistry(conn, cfg.metaTable());
    ServedState state = ServedState.read(registry, cfg);
    RunRegistry.Served served =
        state.served().orElseThrow(() -> new StoreException("no table is served yet"));
    String app = state.app();
    Instant t0 = Instant.now();
    Instant until = t0.plus(max);
    try (FluoSession fluo = openWithin(cfg, app, until)) {
      long pendingAtStart = Idleness.notifications(conn, WebindexApp.fluoTable(cfg, app));
      while (true) {
        Duration left = Duration.between(Instant.now(), until);
        Idleness.Result idle = fluo.awaitIdle(left.isNegative() ? Duration.ZERO : left);
        // the served state again, with the batch its application (this session's) has applied
        ServedState now =
            ServedState.read(registry, cfg).withApplied(a -> WebindexApp.applied(fluo.client()));
        long applied = now.applied().getAsLong();
        boolean current = now.served().map(s -> s.equals(served)).orElse(false);
        if (!current) {
          throw new NotSettled(
              "the served table changed while the check waited for the live side (a cut-over):"
                  + " run the check again");
        }
        if (idle.idle() && applied >= minApplied) {
          return new Settled(
              served, app, applied, pendingAtStart, Duration.between(t0, Instant.now()));
        }
        if (!Instant.now().isBefore(until)) {
          throw new NotSettled(
              String.format(
                  "the live side did not settle within %d s: Fluo application %s %s; nothing was"
                      + " compared. Run the check again later, or with a longer --settle",
                  max.toSeconds(),
                  app,
                  !idle.idle()
                      ? "still had "
                          + idle.pending()
                          + " notifications in flight (its workers are busy or none runs)"
                      : "has applied batches up to "
                          + applied
                          + " only and the check needs "
                          + minApplied
                          + " (is the loader running?)"));
        }
        try {
          Thread.sleep(Idleness.POLL.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new NotSettled("interrupted while waiting for the live side to settle");
        }
      }
    }
  }
}
