package io.webindex.cli;

import io.webindex.core.exit.ExitStatus;

/**
 * The exit statuses of {@code bin/webindex}: those of every webindex process ({@link ExitStatus}),
 * named as the commands use them. {@link Main} maps failures to them; commands return them.
 */
public final class ExitCodes {
  /** Success. */
  public static final int OK = ExitStatus.OK;

  /** The verdict INCONSISTENT (check, demo): never a failure. */
  public static final int INCONSISTENT = ExitStatus.INCONSISTENT;

  /** An error the operator can fix: one line {@code webindex: <message>} on stderr. */
  public static final int USER_ERROR = ExitStatus.USAGE;

  /** Unavailable for now (Accumulo, ZooKeeper, a service, a time-out): run it again later. */
  public static final int TRANSIENT = ExitStatus.TRANSIENT;

  /** An unexpected failure, or a command's own failure (a stage of the bench failed). */
  public static final int FAILED = ExitStatus.INTERNAL;

  private ExitCodes() {}
}
