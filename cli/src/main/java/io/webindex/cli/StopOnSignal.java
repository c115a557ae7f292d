package io.webindex.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Turns Ctrl-C (SIGINT, SIGTERM) into {@link Cli#requestStop()} for a command that serves until
 * stopped, and holds the JVM's shutdown until the command has cleaned up (closed its server and
 * embedded instance) or a minute has passed.
 */
final class StopOnSignal implements AutoCloseable {
  private final CountDownLatch cleanedUp = new CountDownLatch(1);
  private final Thread hook;

  StopOnSignal(Cli ctx) {
    hook =
        new Thread(
            () -> {
              ctx.requestStop();
              try {
                cleanedUp.await(60, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "webindex-stop-on-signal");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** The command has cleaned up: a shutdown in progress may go on; no hook is left behind. */
  @Override
  public void close() {
    cleanedUp.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // shutting down already: the hook returns now that the latch is open
    }
  }
}
