package io.webindex.cli;

/**
 * The exit statuses of {@code bin/webindex} that every command shares. {@link Main} maps failures
 * to them; commands return them. A command may give 1 a meaning of its own (check, demo:
 * inconsistent).
 */
public final class ExitCodes {
  /** Success. */
  public static final int OK = 0;

  /** An unexpected failure, or a command's own failure (a stage of the bench failed). */
  public static final int FAILED = 1;

  /** An error the operator can fix: one line {@code webindex: <message>} on stderr. */
  public static final int USER_ERROR = 2;

  private ExitCodes() {}
}
