package io.webindex.check.scan;

/** What another thread of the check threw, thrown again in the thread that waits for it. */
final class Thrown {
  private Thrown() {}

  /**
   * Throws {@code f} as it was thrown when it is unchecked (a {@link RuntimeException} such as a
   * {@code StoreException}, or an {@link Error}), any other in an {@link IllegalStateException};
   * nothing for null.
   */
  static void rethrow(Throwable f) {
    if (f instanceof RuntimeException r) {
      throw r;
    }
    if (f instanceof Error err) {
      throw err;
    }
    if (f != null) {
      throw new IllegalStateException(f);
    }
  }
}
