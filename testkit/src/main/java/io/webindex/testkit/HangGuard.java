package io.webindex.testkit;

import java.time.Duration;

/**
 * How long an IT waits for a child process, a service, a batch or a demo before it takes it for
 * hung. A guard against a hang, not a time limit: alone such a wait ends in seconds, but a full
 * suite run on a slow hour runs every class four to five times slower than alone (90, 120 and 150 s
 * waits failed so; docs/testing.md, Suite time).
 */
public final class HangGuard {
  private HangGuard() {}

  /** The wait for a service to start, a batch to be applied or a demo to serve. */
  public static final Duration SLOW_SUITE = Duration.ofMinutes(5);
}
