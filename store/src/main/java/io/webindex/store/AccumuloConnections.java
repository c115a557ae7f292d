package io.webindex.store;

import io.webindex.core.config.WebindexConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.accumulo.core.client.ClientConfiguration;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.ZooKeeperInstance;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;

/**
 * Opens Accumulo connections from the configuration. Everything in webindex that talks to Accumulo
 * goes through this module, so a move to another Accumulo line touches one place.
 */
public final class AccumuloConnections {
  private AccumuloConnections() {}

  /**
   * Connects as the configured user.
   *
   * @throws StoreException with a message fit for an operator when the configuration is incomplete
   *     or Accumulo refuses
   */
  public static Connector connect(WebindexConfig cfg) {
    if (cfg.accumuloInstance().isEmpty() || cfg.zookeepers().isEmpty()) {
      throw new StoreException(
          "no Accumulo instance configured: set "
              + WebindexConfig.INSTANCE
              + " and "
              + WebindexConfig.ZOOKEEPERS
              + " (or start an embedded one with `bin/webindex dev`)");
    }
    if (!cfg.accumuloPassword().isPresent()) {
      throw new StoreException(
          "no Accumulo password: set "
              + WebindexConfig.PASSWORD
              + ", "
              + WebindexConfig.PASSWORD_FILE
              + " or the environment variable "
              + WebindexConfig.PASSWORD_ENV);
    }
    return connect(
        cfg.accumuloInstance(),
        cfg.zookeepers(),
        cfg.accumuloUser(),
        new PasswordToken(cfg.accumuloPassword().value()),
        Duration.ofSeconds(cfg.connectTimeoutSeconds()));
  }

  /**
   * Connects to an instance as a user with a password that came from elsewhere than the
   * configuration (a job's credentials, the exporter's process): the one place that opens an
   * Accumulo connection.
   *
   * @throws StoreException with a message fit for an operator when Accumulo refuses
   */
  public static Connector connect(
      String instance, String zookeepers, String user, PasswordToken password) {
    return connect(instance, zookeepers, user, password, DEFAULT_TIMEOUT);
  }

  /** How long a connection waits for ZooKeeper and the tablet servers unless configured. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  /**
   * As {@link #connect(String, String, String, PasswordToken)}, waiting at most {@code timeout}:
   * Accumulo's client retries an unreachable ZooKeeper or absent tablet servers for ever.
   *
   * @throws StoreUnavailableException when Accumulo does not answer within {@code timeout}
   */
  public static Connector connect(
      String instance, String zookeepers, String user, PasswordToken password, Duration timeout) {
    String what = "Accumulo instance '" + instance + "' at " + zookeepers + " as " + user;
    // Accumulo's ZooKeeper session for a host that does not answer retries for ever inside a
    // JVM-wide lock (every later connection would wait behind it): ask the hosts first
    String unreachable = unreachableZooKeepers(zookeepers, timeout);
    if (unreachable != null) {
      throw new StoreUnavailableException(
          what
              + ": no ZooKeeper answers ("
              + unreachable
              + "; "
              + WebindexConfig.CONNECT_TIMEOUT
              + " sets the wait)");
    }
    ClientConfiguration cc =
        ClientConfiguration.create().withInstance(instance).withZkHosts(zookeepers);
    FutureTask<Connector> connecting =
        new FutureTask<>(() -> new ZooKeeperInstance(cc).getConnector(user, password));
    Thread t = new Thread(connecting, "accumulo-connect");
    t.setDaemon(true);
    t.start();
    try {
      return connecting.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      connecting.cancel(true);
      throw new StoreUnavailableException(
          what
              + " did not answer within "
              + timeout.toSeconds()
              + " s (ZooKeeper unreachable, or no tablet server up; "
              + WebindexConfig.CONNECT_TIMEOUT
              + " sets the wait)",
          e);
    } catch (InterruptedException e) {
      connecting.cancel(true);
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while connecting to " + what, e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      String m = "cannot connect to " + what + ": " + c.getMessage();
      throw Failures.isTransient(c)
          ? new StoreUnavailableException(m, c)
          : new StoreException(m, c);
    }
  }

  /**
   * Null when one of the ZooKeeper hosts of {@code zookeepers} ({@code host:port,…[/chroot]}, port
   * 2181 when none is given) accepts a TCP connection within {@code timeout}, else why not.
   */
  static String unreachableZooKeepers(String zookeepers, Duration timeout) {
    String hosts =
        zookeepers.contains("/") ? zookeepers.substring(0, zookeepers.indexOf('/')) : zookeepers;
    List<String> why = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    long each = Math.max(100, timeout.toMillis() / Math.max(1, hosts.split(",").length));
    for (String h : hosts.split(",")) {
      String hp = h.strip();
      if (hp.isEmpty()) {
        continue;
      }
      int colon = hp.lastIndexOf(':');
      String host = colon < 0 ? hp : hp.substring(0, colon);
      int port;
      try {
        port = colon < 0 ? 2181 : Integer.parseInt(hp.substring(colon + 1));
      } catch (NumberFormatException e) {
        return null; // not ours to judge: Accumulo's client says what it makes of it
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(host, port), (int) Math.min(each, Integer.MAX_VALUE));
        return null;
      } catch (java.net.UnknownHostException e) {
        unknown.add(host);
        why.add(hp + ": unknown host");
      } catch (IOException e) {
        why.add(hp + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      }
    }
    if (!why.isEmpty() && unknown.size() == why.size()) {
      // no host name resolves: a configuration error more likely than an outage
      throw new StoreException(
          "unknown ZooKeeper host"
              + (unknown.size() > 1 ? "s " : " ")
              + String.join(", ", unknown)
              + " in "
              + WebindexConfig.ZOOKEEPERS
              + "="
              + zookeepers);
    }
    return why.isEmpty() ? null : String.join(", ", why);
  }
}
