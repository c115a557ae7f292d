package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.store.AccumuloConnections;
import io.webindex.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;
import org.apache.fluo.core.impl.Notification;

/**
 * Whether a Fluo application has finished its work: no notification is left for an observer, so
 * every change loaded so far has gone through the queues and been exported to the query table.
 *
 * <p>The application is idle when two scans of its table in a row, the second begun after the first
 * ended, find no notification. One empty scan is not enough: an observer's commit writes the
 * notifications it causes before it removes the one that triggered it, so at every instant work in
 * flight has a notification, but a scan reads tablet after tablet, and one that passes the row of
 * the new notification before it is written and the row of the old one after it is removed sees
 * neither. That can only happen when the work moves to a row that sorts before the one it leaves.
 * In this application's chain ({@code um:} → {@code dm:} → {@code eq:} → the query table, {@link
 * WebindexObservers}) only the first hop goes backwards ({@code um:} sorts after {@code dm:} and
 * {@code eq:}); every later hop goes forwards, so work that one scan missed is seen by the next,
 * unless it finished. (MiniFluo's own test, an empty scan between two consecutive oracle
 * timestamps, did not hold once in five minutes here with the services and {@code load --watch}
 * running: it is not used.)
 */
public final class Idleness {
  /** Pause between two looks while the application is busy. */
  static final Duration POLL = Duration.ofMillis(200);

  private Idleness() {}

  /**
   * What a wait found: whether the application was idle, the notifications the last look found (0
   * when idle), and how long it waited.
   */
  public record Result(boolean idle, long pending, Duration waited) {}

  /** Waits up to {@code max} until application {@code app} is idle; returns as soon as it is. */
  public static Result await(WebindexConfig cfg, String app, Duration max) {
    Connector conn = AccumuloConnections.connect(cfg);
    String table = WebindexApp.fluoTable(cfg, app);
    Instant t0 = Instant.now();
    Instant until = t0.plus(max);
    int emptyInARow = 0;
    long pending;
    while (true) {
      pending = notifications(conn, table);
      emptyInARow = pending == 0 ? emptyInARow + 1 : 0;
      if (emptyInARow >= 2) {
        return new Result(true, 0, Duration.between(t0, Instant.now()));
      }
      if (!Instant.now().isBefore(until)) {
        return new Result(false, pending, Duration.between(t0, Instant.now()));
      }
      if (pending > 0) {
        try {
          Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return new Result(false, pending, Duration.between(t0, Instant.now()));
        }
      }
    }
  }

  /** The notifications in the Fluo table {@code table} that no observer has processed yet. */
  public static long notifications(Connector conn, String table) {
    try {
      Scanner s = conn.createScanner(table, Authorizations.EMPTY);
      try {
        Notification.configureScanner(s);
        long n = 0;
        for (Map.Entry<Key, Value> ignored : s) {
          n++;
        }
        return n;
      } finally {
        s.close();
      }
    } catch (TableNotFoundException e) {
      throw new StoreException("no Fluo table " + table, e);
    }
  }
}
