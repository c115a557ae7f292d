package io.webindex.fluo;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * The back-off of {@code load --watch}, a service that must outlive a brief outage of the raw page
 * store's file system, of Accumulo or of the application's oracle: after a round has succeeded, a
 * round that fails is tried again after {@link #FIRST}, then twice as long each time up to {@link
 * #MAX}, with one line on stderr per failure naming its cause and the delay; a round that succeeds
 * again starts the delays over. An {@link IllegalArgumentException} (bad input or configuration) is
 * not retried, and neither is a failure before the first round succeeded (a wrong store root, an
 * application that does not exist), except that no oracle of the application runs yet: a watch
 * started beside the Fluo services waits for them.
 */
final class WatchBackoff {
  /** The delay after the first failure. */
  static final Duration FIRST = Duration.ofSeconds(1);

  /** The longest delay. */
  static final Duration MAX = Duration.ofSeconds(60);

  private final PrintWriter err;
  private Duration next = FIRST;
  private int roundsAtLastFailure = -1;

  WatchBackoff(PrintWriter err) {
    this.err = err;
  }

  /** Whether a failure of this kind is tried again (after a first round succeeded). */
  static boolean retries(Exception e) {
    return !(e instanceof IllegalArgumentException) && !(e instanceof InterruptedException);
  }

  /**
   * Records a failed round, says so, and returns how long to wait before the next attempt.
   *
   * @param rounds the rounds that succeeded so far: when one succeeded since the last failure, the
   *     delays start over
   */
  Duration failed(Exception e, int rounds) {
    if (rounds != roundsAtLastFailure) {
      next = FIRST;
    }
    roundsAtLastFailure = rounds;
    Duration delay = next;
    next = next.multipliedBy(2).compareTo(MAX) > 0 ? MAX : next.multipliedBy(2);
    err.printf("load: a round failed: %s; next attempt in %d s%n", describe(e), delay.toSeconds());
    err.flush();
    return delay;
  }

  /** One line: the exception's message and those of its causes that it does not repeat. */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder(text(e));
    Throwable c = e.getCause();
    for (int depth = 0; c != null && depth < 8; depth++, c = c.getCause()) {
      String t = text(c);
      if (sb.indexOf(t) < 0) {
        sb.append(": ").append(t);
      }
    }
    return sb.toString().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }

  private static String text(Throwable e) {
    return e.getMessage() == null || e.getMessage().isBlank()
        ? e.getClass().getName()
        : e.getMessage();
  }
}
