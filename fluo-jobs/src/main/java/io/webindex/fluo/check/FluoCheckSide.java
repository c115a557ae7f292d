package io.webindex.fluo.check;

import io.webindex.check.FluoSide;
import io.webindex.check.engine.CheckReport;
import io.webindex.core.config.WebindexConfig;
import io.webindex.fluo.LiveSide;
import io.webindex.fluo.WebindexApp;
import io.webindex.store.RunRecord;
import java.time.Duration;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.conf.Configuration;

/**
 * The check's Fluo side ({@link FluoSide}), registered for {@link java.util.ServiceLoader} in
 * {@code META-INF/services}: the live side through {@link LiveSide}, the seed comparison through
 * {@link SeedCheck}.
 */
public final class FluoCheckSide implements FluoSide {
  @Override
  public boolean initialized(WebindexConfig cfg, String app) {
    return WebindexApp.exists(cfg, app);
  }

  @Override
  public Settled settle(WebindexConfig cfg, Connector conn, long minApplied, Duration max) {
    LiveSide.Settled s = LiveSide.settle(cfg, conn, minApplied, max);
    return new Settled(s.served().table(), s.app(), s.applied(), s.pendingAtStart(), s.waited());
  }

  @Override
  public CheckReport.SeedComparison seed(
      WebindexConfig cfg,
      Connector conn,
      Configuration conf,
      RunRecord run,
      long applied,
      boolean embedded)
      throws Exception {
    return SeedCheck.ofServedApp(cfg, conn, conf, run, applied, embedded);
  }
}
