package io.webindex.store;

import io.webindex.core.config.WebindexConfig;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.AccumuloSecurityException;
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
        new PasswordToken(cfg.accumuloPassword().value()));
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
    ClientConfiguration cc =
        ClientConfiguration.create().withInstance(instance).withZkHosts(zookeepers);
    try {
      return new ZooKeeperInstance(cc).getConnector(user, password);
    } catch (AccumuloException | AccumuloSecurityException | RuntimeException e) {
      throw new StoreException(
          "cannot connect to Accumulo instance '"
              + instance
              + "' at "
              + zookeepers
              + " as "
              + user
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
