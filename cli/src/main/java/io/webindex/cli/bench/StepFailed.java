package io.webindex.cli.bench;

/** A command the bench ran failed: the bench fails, and the figures so far are written. */
final class StepFailed extends Exception {
  private static final long serialVersionUID = 1L;

  StepFailed(String m) {
    super(m);
  }
}
