package io.webindex.cli;

import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;
import org.apache.log4j.spi.Filter;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.log4j.spi.ThrowableInformation;

/**
 * A log filter for the ERRORs Fluo 1.2 clients log as they stop, which are not errors. A worker's
 * partition manager deletes its own ephemeral node in ZooKeeper and then closes its Curator {@code
 * PathChildrenCache} and its scheduler, and the node's deletion reaches the cache's watcher a
 * moment later, whose task the closed executor refuses with a {@link RejectedExecutionException}.
 * Which thread meets the refusal decides who logs it, both at ERROR with the stack trace, on the
 * console of every {@code demo}, {@code load --embedded} and worker that stops: Curator 2.7.1's
 * cache when its own operation is refused, ZooKeeper's {@code ClientCnxn} ("Error while calling
 * watcher") when the cache's watcher is refused on ZooKeeper's event thread. And a client's oracle
 * listener (the cache's listener on the oracle's leader) that is asking ZooKeeper for the leader
 * when the client closes is interrupted: logged at ERROR with an {@link InterruptedException}, by a
 * loader each time it follows a cut-over and closes the old application's client. When that
 * listener ({@code OracleClient$TimestampRetriever.childEvent}) is called a moment later still, it
 * meets the client's closed Curator ({@link IllegalStateException}: "instance must be started
 * before calling this method") or the leader selector the close let go ({@link
 * NullPointerException}), logged by the cache at ERROR as well. And when an oracle stops (a
 * cut-over's oracle moving to the new application, or an oracle stopped by its operator), the
 * clients' oracle listeners are told that its leader node went, list the leader's candidates and
 * ask ZooKeeper for each one's data: a node deleted between the two answers {@code NoNode}, which
 * the listener throws and the cache logs at ERROR too; the client waits for an oracle as it would
 * anyway ("Waiting for timestamp from Oracle").
 *
 * <p>Dropped: events of the cache's logger with a refused task or an interruption, or with one of
 * those two exceptions or ZooKeeper's {@code NoNode} thrown from the oracle listener; and events of
 * ZooKeeper's client logger with a refused task whose stack passes through the cache. Every other
 * event, of those loggers too, passes.
 *
 * <p>The shipped log4j configurations put it on their appenders: {@code
 * log4j.appender.<name>.filter.fluoShutdown=io.webindex.cli.FluoShutdownRaceFilter}.
 */
public final class FluoShutdownRaceFilter extends Filter {
  /** The logger of Curator's cache, and its class. */
  static final String CACHE_LOGGER = "org.apache.curator.framework.recipes.cache.PathChildrenCache";

  /** The logger of ZooKeeper's client connection, which logs a watcher's exception. */
  static final String ZOOKEEPER_CLIENT_LOGGER = "org.apache.zookeeper.ClientCnxn";

  /** The cache listener of a Fluo client's oracle client, and its method. */
  static final String ORACLE_LISTENER =
      "org.apache.fluo.core.oracle.OracleClient$TimestampRetriever";

  static final String ORACLE_LISTENER_METHOD = "childEvent";

  /** ZooKeeper's answer for a node that is not there (by name: the filter needs no ZooKeeper). */
  static final String NO_NODE = "org.apache.zookeeper.KeeperException$NoNodeException";

  @Override
  public int decide(LoggingEvent event) {
    ThrowableInformation info = event.getThrowableInformation();
    if (info == null) {
      return NEUTRAL;
    }
    Throwable thrown = info.getThrowable();
    String logger = event.getLoggerName();
    if (CACHE_LOGGER.equals(logger)
        && (thrown instanceof RejectedExecutionException
            || thrown instanceof InterruptedException
            || ((thrown instanceof IllegalStateException
                    || thrown instanceof NullPointerException
                    || thrown.getClass().getName().equals(NO_NODE))
                && fromTheOracleListener(thrown)))) {
      return DENY;
    }
    if (ZOOKEEPER_CLIENT_LOGGER.equals(logger)
        && thrown instanceof RejectedExecutionException
        && throughCache(thrown)) {
      return DENY;
    }
    return NEUTRAL;
  }

  private static boolean fromTheOracleListener(Throwable thrown) {
    return anyFrame(
        thrown,
        f ->
            f.getClassName().equals(ORACLE_LISTENER)
                && f.getMethodName().equals(ORACLE_LISTENER_METHOD));
  }

  /** Through the cache's class or one of its inner classes (its watcher is PathChildrenCache$1). */
  private static boolean throughCache(Throwable thrown) {
    return anyFrame(
        thrown,
        f ->
            f.getClassName().equals(CACHE_LOGGER)
                || f.getClassName().startsWith(CACHE_LOGGER + "$"));
  }

  private static boolean anyFrame(Throwable thrown, Predicate<StackTraceElement> frame) {
    for (StackTraceElement f : thrown.getStackTrace()) {
      if (frame.test(f)) {
        return true;
      }
    }
    return false;
  }
}
