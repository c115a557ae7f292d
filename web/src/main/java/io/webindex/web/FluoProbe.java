package io.webindex.web;

/**
 * What the web application and {@code bin/webindex status} learn from Fluo: how far an application
 * is behind the raw page store, and which of its processes run. The web module reads no Fluo
 * itself; the command line supplies a probe that does (over {@code fluo-reconcile}).
 */
public interface FluoProbe {
  /**
   * How far the Fluo application is behind the raw page store: its resume point (the highest batch
   * it applied) against the newest complete batch.
   *
   * @param app the Fluo application
   * @param applied the highest batch it applied (-1: none recorded), or null when unknown
   * @param newest the newest complete batch of the store (-1: none), or null when unknown
   * @param batchesBehind {@code newest - applied} (0 when caught up), or null when unknown
   * @param secondsBehind how long the oldest batch it has not applied has been waiting (0 when
   *     caught up), or null when unknown
   * @param error why something is unknown, or null
   */
  record Lag(
      String app,
      Long applied,
      Long newest,
      Long batchesBehind,
      Long secondsBehind,
      String error) {}

  /**
   * The processes of a Fluo application, from Fluo's ZooKeeper state.
   *
   * @param app the Fluo application
   * @param oracle whether an oracle of it runs, or null when unknown
   * @param workers how many workers of it run, or null when unknown
   * @param error why they are unknown, or null
   */
  record Processes(String app, Boolean oracle, Integer workers, String error) {}

  /** The lag of application {@code app}. Never throws. */
  Lag lag(String app);

  /** The processes of application {@code app}. Never throws. */
  Processes processes(String app);
}
