package io.webindex.fluo;

import io.webindex.core.config.WebindexConfig;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.store.StoreException;
import org.apache.fluo.api.config.FluoConfiguration;
import org.apache.fluo.api.config.SimpleConfiguration;

/**
 * The crawl-history settings of an application: how many versions its history table keeps and the
 * schedule's constants. Stored in the application's configuration ({@code fluo.app.*}, in
 * ZooKeeper) when it is initialised, from the configuration of that moment — the one the batch run
 * it starts from is recomputed with, as a rule — and read from there by every loader, so the
 * exported {@code sched:} cells follow one rule for the application's whole life whatever the
 * loaders' own configuration files say.
 */
record HistorySettings(int versions, ScheduleConfig schedule) {
  static final String VERSIONS = "webindex.history.versions";
  static final String DEFAULT = "webindex.schedule.interval.default.seconds";
  static final String MIN = "webindex.schedule.interval.min.seconds";
  static final String MAX = "webindex.schedule.interval.max.seconds";
  static final String INC = "webindex.schedule.inc.rate";
  static final String DEC = "webindex.schedule.dec.rate";
  static final String SYNC = "webindex.schedule.sync.delta";
  static final String SYNC_RATE = "webindex.schedule.sync.delta.rate";

  static HistorySettings of(WebindexConfig cfg) {
    return new HistorySettings(cfg.historyVersions(), cfg.schedule());
  }

  /** Writes the settings into the application configuration {@code fc} will initialise. */
  void save(FluoConfiguration fc) {
    SimpleConfiguration app = fc.getAppConfiguration();
    app.setProperty(VERSIONS, Integer.toString(versions));
    app.setProperty(DEFAULT, Long.toString(schedule.defaultIntervalSeconds()));
    app.setProperty(MIN, Long.toString(schedule.minIntervalSeconds()));
    app.setProperty(MAX, Long.toString(schedule.maxIntervalSeconds()));
    app.setProperty(INC, Double.toString(schedule.incRate()));
    app.setProperty(DEC, Double.toString(schedule.decRate()));
    app.setProperty(SYNC, Boolean.toString(schedule.syncDelta()));
    app.setProperty(SYNC_RATE, Double.toString(schedule.syncDeltaRate()));
  }

  /**
   * The settings an application was initialised with.
   *
   * @throws StoreException when it holds none (initialised by a webindex without crawl history)
   */
  static HistorySettings load(SimpleConfiguration app) {
    if (!app.containsKey(VERSIONS)) {
      throw new StoreException(
          "the Fluo application holds no crawl-history settings (initialised by an older"
              + " webindex): re-initialise it with fluo-init or reconcile");
    }
    try {
      return new HistorySettings(
          Integer.parseInt(app.getString(VERSIONS)),
          new ScheduleConfig(
              Long.parseLong(app.getString(DEFAULT)),
              Long.parseLong(app.getString(MIN)),
              Long.parseLong(app.getString(MAX)),
              Double.parseDouble(app.getString(INC)),
              Double.parseDouble(app.getString(DEC)),
              Boolean.parseBoolean(app.getString(SYNC)),
              Double.parseDouble(app.getString(SYNC_RATE))));
    } catch (IllegalArgumentException e) {
      throw new StoreException(
          "the Fluo application's crawl-history settings are damaged: " + e.getMessage(), e);
    }
  }
}
