package io.webindex.store;

import io.webindex.store.frontier.FrontierOpsCases;
import io.webindex.testkit.AccumuloITBase;
import io.webindex.testkit.SharedCluster;
import java.nio.file.Path;
import java.util.Map;
import org.apache.accumulo.core.client.Connector;
import org.junit.jupiter.api.Nested;

/**
 * The frontier service's operational state on the class's cluster ({@link FrontierOpsCases}, nested
 * so that the cases start no cluster of their own): leases, politeness across two frontier
 * processes, a restart, priorities, discovered URLs, crawl limits and put-backs over a served run.
 */
@SharedCluster
class FrontierOpsIT extends AccumuloITBase {
  /** The frontier's operational state over the served run ({@link FrontierOpsCases}). */
  @Nested
  class FrontierOps extends FrontierOpsCases {
    @Override
    protected Connector connector() {
      return FrontierOpsIT.connector();
    }

    @Override
    protected Connector newConnector() {
      return connectorAs(ROOT_USER, ROOT_PASSWORD);
    }

    @Override
    protected Path writeWebindexConf(Path dir, String prefix, String... extra) {
      return FrontierOpsIT.writeWebindexConf(dir, prefix, extra);
    }

    @Override
    protected Map<String, String> readTableAsMap(String table) {
      return FrontierOpsIT.readTableAsMap(table);
    }
  }
}
