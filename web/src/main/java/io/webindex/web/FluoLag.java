package io.webindex.web;

/**
 * How far the Fluo application that maintains the served table is behind the raw page store: its
 * resume point (the highest batch it applied) against the newest complete batch. The web module
 * reads no Fluo itself; {@code bin/webindex serve} supplies a probe that does.
 */
@FunctionalInterface
public interface FluoLag {
  /**
   * What the probe found.
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

  /** Probes the application named by the served pointer ({@code app}). Never throws. */
  Lag probe(String app);
}
