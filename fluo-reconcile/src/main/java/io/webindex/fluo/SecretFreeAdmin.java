package io.webindex.fluo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import java.util.Properties;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.fluo.accumulo.util.ZookeeperPath;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.exceptions.FluoException;
import org.apache.fluo.core.client.FluoAdminImpl;
import org.apache.fluo.core.observer.ObserverUtil;
import org.apache.fluo.core.util.CuratorUtil;

/**
 * Fluo 1.2's admin, except that the application's shared configuration, which Fluo stores in the
 * world-readable ZooKeeper node {@code /<app>/config/shared.config} for every worker to read, never
 * holds the Accumulo password: Fluo writes every non-connection property there, the password
 * included. Every process that runs or talks to the application sets the password in its own local
 * configuration instead ({@link WebindexApp#connection}), and ZooKeeper's copy merges over it
 * without replacing it.
 *
 * <p>{@link FluoAdminImpl#initialize} writes the shared configuration through {@link
 * #updateSharedConfig()}, so overriding it covers initialisation too.
 */
final class SecretFreeAdmin extends FluoAdminImpl {
  /** Properties never written to ZooKeeper. */
  static final Set<String> SECRET_KEYS =
      Set.of(
          FluoConfiguration.ACCUMULO_PASSWORD_PROP,
          FluoConfiguration.CLIENT_ACCUMULO_PASSWORD_PROP);

  private final FluoConfiguration config;

  SecretFreeAdmin(FluoConfiguration config) {
    super(config);
    this.config = config;
  }

  @Override
  public void updateSharedConfig() {
    if (!config.hasRequiredAdminProps()) {
      throw new IllegalArgumentException("Admin configuration is missing required properties");
    }
    Properties shared = new Properties();
    for (Iterator<String> keys = config.getKeys(); keys.hasNext(); ) {
      String k = keys.next();
      if (!k.startsWith(FluoConfiguration.CONNECTION_PREFIX) && !SECRET_KEYS.contains(k)) {
        shared.setProperty(k, config.getRawString(k));
      }
    }
    try (CuratorFramework curator = CuratorUtil.newAppCurator(config)) {
      curator.start();
      ObserverUtil.initialize(curator, config);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      shared.store(out, "Shared java props");
      CuratorUtil.putData(
          curator,
          ZookeeperPath.CONFIG_SHARED,
          out.toByteArray(),
          CuratorUtil.NodeExistsPolicy.OVERWRITE);
    } catch (IOException e) {
      throw new FluoException("Failed to update shared configuration in Zookeeper", e);
    } catch (Exception e) {
      throw new FluoException("Failed to update shared configuration in Zookeeper", e);
    }
  }
}
