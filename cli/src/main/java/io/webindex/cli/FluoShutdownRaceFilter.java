package io.webindex.cli;

import java.util.concurrent.RejectedExecutionException;
import org.apache.log4j.spi.Filter;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.log4j.spi.ThrowableInformation;

/**
 * A log filter for the two ERRORs Fluo 1.2 clients log as they stop, which are not errors. A
 * worker's partition manager deletes its own ephemeral node in ZooKeeper and then closes its
 * Curator {@code PathChildrenCache} and its scheduler, and the node's deletion reaches the cache's
 * watcher a moment later, whose task the closed executor refuses: Curator 2.7.1 logs that at ERROR
 * with a {@link RejectedExecutionException} and its stack trace, on the console of every {@code
 * demo}, {@code load --embedded} and worker that stops. And a client's oracle listener (the cache's
 * listener on the oracle's leader) that is asking ZooKeeper for the leader when the client closes
 * is interrupted: logged at ERROR with an {@link InterruptedException}, by a loader each time it
 * follows a cut-over and closes the old application's client. Events of that logger with either
 * exception are dropped; every other event, of that logger too, passes.
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
        && (thrown.getThrowable() instanceof RejectedExecutionException
            || thrown.getThrowable() instanceof InterruptedException)) {
      return DENY;
    }
    return NEUTRAL;
  }
}
