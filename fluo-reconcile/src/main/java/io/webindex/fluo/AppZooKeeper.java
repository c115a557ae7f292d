package io.webindex.fluo;

import io.webindex.store.StoreException;
import java.io.ByteArrayInputStream;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.fluo.accumulo.util.ZookeeperPath;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.core.client.FluoAdminImpl;
import org.apache.fluo.core.util.CuratorUtil;

/**
 * What an application's ZooKeeper state says (initialised, its shared configuration, its oracle and
 * workers), read through one ZooKeeper session: Fluo's application client, connected before it is
 * used. Fluo's admin opens a client per question and each waits for its connection in Curator
 * 2.7.1's loop, which misses the connection event about every third time and then sleeps a whole
 * second: with up to three clients per question, every command paid seconds for these reads.
 */
final class AppZooKeeper implements AutoCloseable {
  private final CuratorFramework curator;

  /**
   * Opens the session and waits until it is connected (at most Fluo's ZooKeeper timeout).
   *
   * @throws StoreException when ZooKeeper does not answer in time
   */
  AppZooKeeper(FluoConfiguration fc) {
    curator = CuratorUtil.newAppCurator(fc);
    curator.start();
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(fc.getZookeeperTimeout());
    try {
      while (!curator.getZookeeperClient().isConnected()) {
        if (System.nanoTime() > until) {
          throw new StoreException(
              "ZooKeeper "
                  + fc.getAppZookeepers()
                  + " did not answer within "
                  + fc.getZookeeperTimeout()
                  + " ms");
        }
        Thread.sleep(2);
      }
    } catch (InterruptedException e) {
      curator.close();
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while connecting to ZooKeeper", e);
    } catch (RuntimeException e) {
      curator.close();
      throw e;
    }
  }

  /** Whether the application's ZooKeeper state exists (Fluo's {@code zookeeperInitialized}). */
  boolean initialized() {
    try {
      return curator.checkExists().forPath("/") != null;
    } catch (Exception e) {
      throw new StoreException("cannot read the application's ZooKeeper state: " + e, e);
    }
  }

  /** One key of the application's shared configuration ({@code def} when it is not set). */
  String sharedConfig(String key, String def) {
    try {
      Properties p = new Properties();
      p.load(new ByteArrayInputStream(curator.getData().forPath(ZookeeperPath.CONFIG_SHARED)));
      return p.getProperty(key, def);
    } catch (Exception e) { // Curator declares Exception; IOException from Properties.load
      throw new StoreException("cannot read the application's shared configuration: " + e, e);
    }
  }

  /** Whether an oracle of the application runs. */
  boolean oracle() {
    return FluoAdminImpl.oracleExists(curator);
  }

  /** The number of the application's running workers. */
  int workers() {
    return FluoAdminImpl.numWorkers(curator);
  }

  @Override
  public void close() {
    curator.close();
  }
}
