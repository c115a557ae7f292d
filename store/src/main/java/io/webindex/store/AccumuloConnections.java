package io.webindex.store;

import io.webindex.core.config.SecurityConfig;
import io.webindex.core.config.WebindexConfig;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
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
 * (docs/security.md).
 */
public final class AccumuloConnections {
  private AccumuloConnections() {}

  /**
   * Connects as the configured user: the Kerberos principal with SASL, else {@code
   * webindex.accumulo.user} with its password.
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
    ClientConfiguration cc = clientConfiguration(cfg);
    if (cfg.security().saslEnabled()) {
      KerberosLogin.login(cfg.security(), null);
      KerberosToken token = KerberosLogin.token();
      return connect(cc, token.getPrincipal(), token);
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
    return connect(cc, cfg.accumuloUser(), new PasswordToken(cfg.accumuloPassword().value()));
  }

  /**
   * Connects to an instance as a user with a password that came from elsewhere than the
   * configuration (the exporter's process): no SASL, no SSL.
   *
   * @throws StoreException with a message fit for an operator when Accumulo refuses
   */
  public static Connector connect(
      String instance, String zookeepers, String user, PasswordToken password) {
    return connect(
        ClientConfiguration.create().withInstance(instance).withZkHosts(zookeepers),
        user,
        password);
  }

  /**
   * Connects with a client configuration and any token (a password, a Kerberos token, a delegation
   * token): the one place that opens an Accumulo connection.
   *
   * @throws StoreException with a message fit for an operator when Accumulo refuses
   */
  public static Connector connect(
      ClientConfiguration cc, String principal, AuthenticationToken token) {
    String instance = cc.get(ClientConfiguration.ClientProperty.INSTANCE_NAME);
    String zookeepers = cc.get(ClientConfiguration.ClientProperty.INSTANCE_ZK_HOST);
    try {
      return new ZooKeeperInstance(cc).getConnector(principal, token);
    } catch (AccumuloException | AccumuloSecurityException | RuntimeException e) {
      throw new StoreException(
          "cannot connect to Accumulo instance '"
              + instance
              + "' at "
              + zookeepers
              + " as "
              + principal
              + ": "
              + e.getMessage(),
          e);
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
}
