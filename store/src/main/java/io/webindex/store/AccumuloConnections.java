package io.webindex.store;

import io.webindex.core.config.SecurityConfig;
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
import org.apache.accumulo.core.client.security.tokens.AuthenticationToken;
import org.apache.accumulo.core.client.security.tokens.KerberosToken;
import org.apache.accumulo.core.client.security.tokens.PasswordToken;

/**
 * Opens Accumulo connections from the configuration. Everything in webindex that talks to Accumulo
 * goes through this module, so a move to another Accumulo line touches one place. With {@code
 * webindex.accumulo.sasl.enabled} the client authenticates with Kerberos (SASL) as the logged-in
 * principal ({@link KerberosLogin}); with {@code webindex.accumulo.ssl.enabled} it talks SSL
 * (docs/security.md). Every connection waits at most {@code webindex.accumulo.connect.timeout}
 * (Accumulo's client retries an unreachable ZooKeeper or absent tablet servers for ever).
 */
public final class AccumuloConnections {
  private AccumuloConnections() {}

  /** How long a connection waits for ZooKeeper and the tablet servers unless configured. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  /**
   * Connects as the configured user: the Kerberos principal with SASL, else {@code
   * webindex.accumulo.user} with its password.
   *
   * @throws StoreException with a message fit for an operator when the configuration is incomplete
   *     or Accumulo refuses
   * @throws StoreUnavailableException when Accumulo does not answer in time
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
    ClientConfiguration cc = clientConfiguration(cfg);
    Duration timeout = Duration.ofSeconds(cfg.connectTimeoutSeconds());
    if (cfg.security().saslEnabled()) {
      KerberosLogin.login(cfg.security(), null);
      KerberosToken token = KerberosLogin.token();
      return connect(cc, token.getPrincipal(), token, timeout);
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
        cc, cfg.accumuloUser(), new PasswordToken(cfg.accumuloPassword().value()), timeout);
  }

  /**
   * Connects to an instance as a user with a password that came from elsewhere than the
   * configuration (the exporter's process): no SASL, no SSL, the default timeout.
   *
   * @throws StoreException with a message fit for an operator when Accumulo refuses
   */
  public static Connector connect(
      String instance, String zookeepers, String user, PasswordToken password) {
    return connect(
        ClientConfiguration.create().withInstance(instance).withZkHosts(zookeepers),
        user,
        password,
        DEFAULT_TIMEOUT);
  }

  /** As {@link #connect(ClientConfiguration, String, AuthenticationToken, Duration)}, 60 s. */
  public static Connector connect(
      ClientConfiguration cc, String principal, AuthenticationToken token) {
    return connect(cc, principal, token, DEFAULT_TIMEOUT);
  }

  /**
   * Connects with a client configuration and any token (a password, a Kerberos token, a delegation
   * token), waiting at most {@code timeout}: the one place that opens an Accumulo connection.
   *
   * @throws StoreException with a message fit for an operator when Accumulo refuses
   * @throws StoreUnavailableException when Accumulo does not answer within {@code timeout}
   */
  public static Connector connect(
      ClientConfiguration cc, String principal, AuthenticationToken token, Duration timeout) {
    String instance = cc.get(ClientConfiguration.ClientProperty.INSTANCE_NAME);
    String zookeepers = cc.get(ClientConfiguration.ClientProperty.INSTANCE_ZK_HOST);
    String what = "Accumulo instance '" + instance + "' at " + zookeepers + " as " + principal;
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
    FutureTask<Connector> connecting =
        new FutureTask<>(() -> new ZooKeeperInstance(cc).getConnector(principal, token));
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
   * The Accumulo client configuration of {@code cfg}: instance, ZooKeepers, SASL (with the servers'
   * Kerberos primary and the quality of protection) and SSL (trust store, and key store for client
   * authentication). It holds the SSL store passwords: never log or store it.
   */
  public static ClientConfiguration clientConfiguration(WebindexConfig cfg) {
    ClientConfiguration cc =
        ClientConfiguration.create()
            .withInstance(cfg.accumuloInstance())
            .withZkHosts(cfg.zookeepers());
    SecurityConfig s = cfg.security();
    if (s.saslEnabled()) {
      cc =
          cc.withSasl(true, s.saslServerPrimary())
              .with(ClientConfiguration.ClientProperty.RPC_SASL_QOP, s.saslQop());
    }
    SecurityConfig.Ssl ssl = s.ssl();
    if (ssl.enabled()) {
      cc = cc.withSsl(true);
      if (!ssl.truststore().isEmpty()) {
        cc =
            cc.withTruststore(
                ssl.truststore(), ssl.truststorePassword().value(), ssl.truststoreType());
      }
      if (ssl.clientAuth()) {
        cc =
            cc.with(ClientConfiguration.ClientProperty.INSTANCE_RPC_SSL_CLIENT_AUTH, "true")
                .withKeystore(ssl.keystore(), ssl.keystorePassword().value(), ssl.keystoreType());
      }
    }
    return cc;
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
