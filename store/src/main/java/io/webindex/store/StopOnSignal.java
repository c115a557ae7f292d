package io.webindex.store;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The one way a webindex process that serves until stopped ({@code dev}, {@code serve}, {@code demo
 * --serve}, {@code load --watch}, the Fluo oracle and workers, their Tools) stops on Ctrl-C or
 * SIGTERM: the JVM's shutdown asks it to stop (the {@code requestStop} it was given) and then waits
 * until it has cleaned up ({@link #close()}: servers, Fluo services and embedded instances closed)
 * or {@value #CLEANUP_WAIT_SECONDS} seconds have passed. Open it once the process has something to
 * clean up, close it after the cleanup:
 *
 * <pre>
 * try (StopOnSignal signal = new StopOnSignal(ctx::requestStop)) {
 *   serveUntilStopped();
 * } // the cleanup inside the try is done before the shutdown goes on
 * </pre>
 *
 * The JVM's exit status stays that of the signal (130 for SIGINT, 143 for SIGTERM).
 */
public final class StopOnSignal implements AutoCloseable {
  /** How long the shutdown waits for the cleanup. */
  public static final long CLEANUP_WAIT_SECONDS = 60;

  private final CountDownLatch cleanedUp = new CountDownLatch(1);
  private final Thread hook;

  /**
   * Installs the shutdown hook.
   *
   * @param requestStop asks the process to stop; it returns at once, the process stops on its own
   *     thread
   * @throws IllegalStateException when the JVM is shutting down already
   */
  public StopOnSignal(Runnable requestStop) {
    hook =
        new Thread(
            () -> {
              requestStop.run();
              try {
                cleanedUp.await(CLEANUP_WAIT_SECONDS, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "webindex-stop-on-signal");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** The process has cleaned up: a shutdown in progress may go on; no hook is left behind. */
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
