package io.webindex.check.engine;

/**
 * Totals of one row range ({@code d:}, {@code p:}, {@code t:}, or {@code other}) of a comparison:
 * cells compared (present in either table), missing, extra, different, and skipped because they
 * belong to URIs changed by batches newer than the batch run's snapshot.
 */
public record RangeTotals(
    String range, long compared, long missing, long extra, long different, long skipped) {
  public long differences() {
    return missing + extra + different;
  }

  public RangeTotals plus(RangeTotals o) {
    return new RangeTotals(
        range,
        compared + o.compared,
        missing + o.missing,
        extra + o.extra,
        different + o.different,
        skipped + o.skipped);
  }
}
