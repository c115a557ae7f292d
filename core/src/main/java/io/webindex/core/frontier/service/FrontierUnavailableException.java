package io.webindex.core.frontier.service;

/** The frontier's store cannot be reached or refused an operation; the request may be retried. */
public final class FrontierUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public FrontierUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
