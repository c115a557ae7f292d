package io.webindex.cli;

import java.util.concurrent.RejectedExecutionException;
import org.apache.log4j.spi.Filter;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.log4j.spi.ThrowableInformation;

/**
 * A log filter for the one ERROR a Fluo 1.2 worker logs as it stops, which is not an error: its
 * partition manager deletes its own ephemeral node in ZooKeeper and then closes its Curator {@code
 * PathChildrenCache} and its scheduler, and the node's deletion reaches the cache's watcher a
 * moment later, whose task the closed executor refuses. Curator 2.7.1 logs that at ERROR with a
 * {@link RejectedExecutionException} and its stack trace, on the console of every {@code demo},
 * {@code load --embedded} and worker that stops. Events of that logger with that exception are
 * dropped; every other event, of that logger too, passes.
 *
 * <p>The shipped log4j configurations put it on their appenders: {@code
 * log4j.appender.<name>.filter.fluoShutdown=io.webindex.cli.FluoShutdownRaceFilter}.
 */
public final class FluoShutdownRaceFilter extends Filter {
  /** The logger of Curator's cache. */
  static final String CACHE_LOGGER = "org.apache.curator.framework.recipes.cache.PathChildrenCache";

  @Override
  public int decide(LoggingEvent event) {
    ThrowableInformation thrown = event.getThrowableInformation();
    if (thrown != null
        && CACHE_LOGGER.equals(event.getLoggerName())
        && thrown.getThrowable() instanceof RejectedExecutionException) {
      return DENY;
    }
    return NEUTRAL;
  }
}
