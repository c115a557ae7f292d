package io.webindex.core.frontier.ops;

/**
 * The frontier service's configuration ({@code webindex.frontier.*}).
 *
 * @param delaySeconds the politeness delay of a queue that has none of its own when no default was
 *     set with {@code SetDelay} ({@code webindex.frontier.delay}, default 1)
 * @param refreshSeconds how often the frontier re-reads which run is served and the heads of its
 *     queues ({@code webindex.frontier.refresh}, default 5)
 */
public record FrontierSettings(int delaySeconds, int refreshSeconds) {
  public static final FrontierSettings DEFAULT = new FrontierSettings(1, 5);

  public FrontierSettings {
    if (delaySeconds < 0) {
      throw new IllegalArgumentException("a negative frontier delay " + delaySeconds);
    }
    if (refreshSeconds < 1) {
      throw new IllegalArgumentException("a frontier refresh below 1 s: " + refreshSeconds);
    }
  }
}
