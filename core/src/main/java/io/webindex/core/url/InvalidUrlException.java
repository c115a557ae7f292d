package io.webindex.core.url;

/** A URL that cannot be indexed; {@link #reason()} names why, in a form fit for counters. */
public final class InvalidUrlException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why a URL was refused. */
  public enum Reason {
    EMPTY,
    UNSUPPORTED_SCHEME,
    BAD_HOST,
    BAD_PORT,
    TOO_LONG,
    BAD_KEY
  }

  private final Reason reason;

  public InvalidUrlException(Reason reason, String detail) {
    super(reason + ": " + detail);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
