package io.webindex.check;

import io.webindex.check.engine.CheckReport;
import io.webindex.core.config.WebindexConfig;
import io.webindex.store.RunRecord;
import io.webindex.store.ServedState;
import io.webindex.store.StoreException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceLoader;
import org.apache.accumulo.core.client.Connector;
import org.apache.hadoop.conf.Configuration;

/**
 * What the check learns from the Fluo application that maintains the served table: its live side
 * (the batch it has applied once none of its work is in flight) and its own table against a run's
 * seed. The check knows no Fluo: module {@code fluo-jobs} beside the Fluo engine ({@code
 * io.webindex.fluo.check}) implements this and registers it for {@link ServiceLoader}, so a check
 * run from a class path without it (the recompute's job jar) compares tables only and says what it
 * needs for more.
 */
public interface FluoSide {
  /** The live side, settled: the served table, its application, the batch it applied. */
  record Settled(String table, String app, long applied, long pendingAtStart, Duration waited) {}

  /**
   * Whether application {@code app} (the one that maintains the served table) is initialised: a
   * table no application maintains is not live, nothing changes it.
   */
  boolean initialized(WebindexConfig cfg, String app);

  /**
   * Waits up to {@code max} until the application that maintains the served table is idle and has
   * applied batch {@code minApplied} or later, reading the meta table over {@code conn}.
   *
   * @throws StoreException when no table is served, no oracle of the served application runs, or it
   *     did not settle
   */
  Settled settle(WebindexConfig cfg, Connector conn, long minApplied, Duration max);

  /**
   * The Fluo table of the application that maintains the served table against run {@code run}'s
   * seed, with {@code applied} the batch it applied; {@code embedded}: its oracle and workers run
   * in this process, else an oracle must run elsewhere.
   */
  CheckReport.SeedComparison seed(
      WebindexConfig cfg,
      Connector conn,
      Configuration conf,
      RunRecord run,
      long applied,
      boolean embedded)
      throws Exception;

  /** The Fluo side on the class path, if any. */
  static Optional<FluoSide> find() {
    Iterator<FluoSide> it = ServiceLoader.load(FluoSide.class).iterator();
    return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
  }

  /**
   * The Fluo side on the class path.
   *
   * @throws IllegalArgumentException naming what needs it and where it is, when it is absent
   */
  static FluoSide require(String what) {
    return find()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    what
                        + " needs the Fluo engine, which is not on this class path (the recompute's"
                        + " job jar has none): run the check from"
                        + " webindex-fluo-jobs-<version>-job.jar or with bin/webindex, or"
                        + " give --applied A to compare the tables only"));
  }

  /**
   * Whether a Fluo application maintains the served table: one is named by the served pointer (or,
   * for a table served without a name, the configured one) and is initialised. Without the Fluo
   * side on the class path, a served table whose pointer names an application counts as maintained
   * (the check then says what it needs).
   */
  static boolean maintained(WebindexConfig cfg, ServedState served) {
    if (served.served().isEmpty()) {
      return false;
    }
    Optional<FluoSide> side = find();
    if (side.isPresent()) {
      return side.get().initialized(cfg, served.app());
    }
    return served.namesApp();
  }
}
