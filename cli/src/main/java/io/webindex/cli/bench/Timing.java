package io.webindex.cli.bench;

/** The bench's clock and how it rounds its figures. */
final class Timing {
  private Timing() {}

  /** Seconds since {@code startNanos} (a {@link System#nanoTime()}). */
  static double secs(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** To one decimal, as the figures are written. */
  static double round(double d) {
    return Math.round(d * 10) / 10.0;
  }
}
