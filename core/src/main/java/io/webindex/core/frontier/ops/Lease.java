package io.webindex.core.frontier.ops;

import java.util.Objects;

/**
 * A URL in flight: handed out by {@code owner} (a frontier process) and not to be handed out again
 * before {@code untilMillis} unless it is put back first.
 *
 * @param untilMillis when the lease ends (epoch milliseconds)
 * @param owner the frontier process that handed the URL out (no spaces)
 */
public record Lease(long untilMillis, String owner) {
  public Lease {
    Objects.requireNonNull(owner, "owner");
    if (owner.isEmpty() || owner.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("a lease owner is one word: '" + owner + "'");
    }
    if (untilMillis < 0) {
      throw new IllegalArgumentException("a lease until " + untilMillis);
    }
  }

  /** Whether the lease still holds its URL at {@code nowMillis}. */
  public boolean liveAt(long nowMillis) {
    return untilMillis > nowMillis;
  }
}
