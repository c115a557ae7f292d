package io.webindex.store;

/**
 * Accumulo, ZooKeeper or a file system did not answer in time, or a service the step waits for is
 * not there yet: a failure worth retrying unchanged later (exit status {@link
 * io.webindex.core.exit.ExitStatus#TRANSIENT}).
 */
public class StoreUnavailableException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message) {
    super(message);
  }

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
