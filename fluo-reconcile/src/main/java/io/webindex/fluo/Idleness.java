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
import org.apache.fluo.api.client.FluoClient;
import org.apache.fluo.api.client.Snapshot;
import org.apache.fluo.core.impl.Notification;

/**
 * Whether a Fluo application has finished its work: no notification is left for an observer, so
 * every change loaded so far has gone through the queues and been exported to the query table.
 *
 * <p>Fluo's own definition, the one MiniFluo waits for, applied to an application whose workers run
 * anywhere: a scan of the application's table finds no notification, and no transaction started
 * between the oracle timestamp taken just before the scan and the one taken just after it (the two
 * are consecutive). The second condition makes the empty scan a true picture of one instant: an
 * observer's commit writes the notifications it causes before it removes the one that triggered it,
 * but a scan reads tablet after tablet, so without it a scan could pass the new notification before
 * it was written and the old one after it was removed.
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

  /**
   * Waits up to {@code max} until application {@code app} (through {@code client}, whose oracle
   * must run) is idle; returns at the first look that finds it idle.
   */
  public static Result await(FluoClient client, WebindexConfig cfg, String app, Duration max) {
    Connector conn = AccumuloConnections.connect(cfg);
    String table = WebindexApp.fluoTable(cfg, app);
    Instant t0 = Instant.now();
    Instant until = t0.plus(max);
    long pending;
    while (true) {
      long before = stamp(client);
      pending = notifications(conn, table);
      long after = stamp(client);
      if (pending == 0 && after == before + 1) {
        return new Result(true, 0, Duration.between(t0, Instant.now()));
      }
      if (!Instant.now().isBefore(until)) {
        return new Result(false, pending, Duration.between(t0, Instant.now()));
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Result(false, pending, Duration.between(t0, Instant.now()));
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

  /** A fresh timestamp from the application's oracle (a snapshot takes one). */
  private static long stamp(FluoClient client) {
    try (Snapshot s = client.newSnapshot()) {
      return s.getStartTimestamp();
    }
  }
}
