package io.webindex.core.frontier.ops;

import java.util.List;

/**
 * The frontier service's configuration ({@code webindex.frontier.*}).
 *
 * @param delaySeconds the politeness delay of a queue that has none of its own when no default was
 *     set with {@code SetDelay} ({@code webindex.frontier.delay}, default 1)
 * @param refreshSeconds how often the frontier re-reads which run is served and the heads of its
 *     queues ({@code webindex.frontier.refresh}, default 5)
 * @param priority the order {@code GetURLs} visits queues in ({@code webindex.frontier.priority},
 *     default {@code due,urc,domain})
 */
public record FrontierSettings(int delaySeconds, int refreshSeconds, List<QueuePriority> priority) {
  public static final FrontierSettings DEFAULT = new FrontierSettings(1, 5);

  /** The settings with the default priority. */
  public FrontierSettings(int delaySeconds, int refreshSeconds) {
    this(delaySeconds, refreshSeconds, QueuePriority.DEFAULT);
  }

  public FrontierSettings {
    priority = List.copyOf(priority);
    if (priority.isEmpty()) {
      throw new IllegalArgumentException("a frontier priority without criteria");
    }
    if (delaySeconds < 0) {
      throw new IllegalArgumentException("a negative frontier delay " + delaySeconds);
    }
    if (refreshSeconds < 1) {
      throw new IllegalArgumentException("a frontier refresh below 1 s: " + refreshSeconds);
    }
  }
}
