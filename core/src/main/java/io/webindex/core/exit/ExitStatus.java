package io.webindex.core.exit;

/**
 * The exit statuses of every webindex process: {@code bin/webindex} and the Hadoop Tools run by
 * {@code hadoop jar}. One definition, so a scheduler reads them the same everywhere:
 *
 * <ul>
 *   <li>{@link #OK} and {@link #INCONSISTENT} are outcomes: success, or the consistency check's
 *       (and the demo's) verdict INCONSISTENT. A failure never gives 0 or 1.
 *   <li>{@link #USAGE}: the command line or the configuration must be corrected, or the step was
 *       refused before it changed anything; running it again unchanged gives the same.
 *   <li>{@link #TRANSIENT}: something the step needs is unavailable for now (Accumulo, ZooKeeper,
 *       HDFS unreachable, a time-out, services not yet running); the same command later may
 *       succeed.
 *   <li>{@link #INTERNAL}: anything else: a job that failed, a bug, an unexpected error (logged
 *       with its stack trace).
 * </ul>
 */
public final class ExitStatus {
  /** Success (a check: CONSISTENT). */
  public static final int OK = 0;

  /** The verdict INCONSISTENT of a check or the demo; never a failure. */
  public static final int INCONSISTENT = 1;

  /** A usage or configuration error, or refused before anything changed: fix, then run again. */
  public static final int USAGE = 2;

  /** Unavailable for now (a service down or unreachable, a time-out): run the same again later. */
  public static final int TRANSIENT = 3;

  /** A failed job, a bug, anything unexpected: read the log before running again. */
  public static final int INTERNAL = 4;

  private ExitStatus() {}

  /** One word for a status, for messages ({@code usage}, {@code transient}, …). */
  public static String name(int status) {
    return switch (status) {
      case OK -> "ok";
      case INCONSISTENT -> "inconsistent";
      case USAGE -> "usage";
      case TRANSIENT -> "transient";
      case INTERNAL -> "internal";
      default -> "status " + status;
    };
  }
}
