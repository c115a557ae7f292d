package io.webindex.cli;

/**
 * A command line the operator has to correct (unknown option, missing argument, missing
 * configuration). {@link Main} prints its message on one line and exits with status 2.
 */
public class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
