package io.webindex.mr;

/**
 * An error of the recompute an operator can fix (input missing, table exists, …): exit status 2.
 */
final class UserError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UserError(String m) {
    super(m);
  }
}
