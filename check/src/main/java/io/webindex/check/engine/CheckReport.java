package io.webindex.check.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The result of a consistency check (see docs/check.md).
 *
 * @param expectedTable the batch run's query table (the truth)
 * @param actualTable the Fluo-maintained query table
 * @param runId the batch run of {@code expectedTable}
 * @param snapshot the batch run's snapshot (highest batch it read)
 * @param fluoApplied the highest batch the Fluo application had applied (-1 when unknown)
 * @param mode {@code scanner} (one process) or {@code mapreduce}
 * @param ranges per row range totals of the table comparison
 * @param invariants violations per table ({@code expected}/{@code actual}) and kind
 * @param fluoSeed the Fluo table against the run's seed (null when not compared)
 * @param samples up to a bounded number of findings of each kind
 * @param live what {@code --served} learned of the live side (null when the caller named the table
 *     and the applied batch)
 */
public record CheckReport(
    String expectedTable,
    String actualTable,
    String runId,
    long snapshot,
    long fluoApplied,
    String mode,
    Instant started,
    Instant finished,
    List<RangeTotals> ranges,
    Map<String, Map<Kind, Long>> invariants,
    SeedComparison fluoSeed,
    List<Finding> samples,
    Live live) {

  /**
   * The live side as a check of the served table found it: the Fluo application that maintains the
   * table, the batch it had applied once idle, the notifications that were in flight when the check
   * began and how long it waited for them to be exported, the newest batch whose cells are skipped
   * ({@code excludedUpTo} ≥ applied: batches the loader may have begun during the comparison), and
   * how many comparisons it took (a batch that arrived during one makes it compare again).
   */
  public record Live(
      String app,
      long applied,
      long pendingAtStart,
      long waitedMillis,
      long excludedUpTo,
      long inFlightViolations,
      int attempts) {}

  /** A report without a live side (the caller named the table and the applied batch). */
  public CheckReport(
      String expectedTable,
      String actualTable,
      String runId,
      long snapshot,
      long fluoApplied,
      String mode,
      Instant started,
      Instant finished,
      List<RangeTotals> ranges,
      Map<String, Map<Kind, Long>> invariants,
      SeedComparison fluoSeed,
      List<Finding> samples) {
    this(
        expectedTable,
        actualTable,
        runId,
        snapshot,
        fluoApplied,
        mode,
        started,
        finished,
        ranges,
        invariants,
        fluoSeed,
        samples,
        null);
  }

  /** This report with the live side it was taken from. */
  public CheckReport withLive(Live l) {
    return new CheckReport(
        expectedTable,
        actualTable,
        runId,
        snapshot,
        fluoApplied,
        mode,
        started,
        finished,
        ranges,
        invariants,
        fluoSeed,
        samples,
        l);
  }

  /** The Fluo table's {@code p:}/{@code um:}/{@code dm:} entries against the run's Fluo seed. */
  public record SeedComparison(
      String seedDir, long compared, long missing, long extra, long different, long skipped) {
    public long differences() {
      return missing + extra + different;
    }
  }

  public CheckReport {
    ranges = List.copyOf(ranges);
    invariants = Map.copyOf(invariants);
    samples = List.copyOf(samples);
  }

  public long differences() {
    return ranges.stream().mapToLong(RangeTotals::differences).sum()
        + (fluoSeed == null ? 0 : fluoSeed.differences());
  }

  public long invariantViolations() {
    return invariants.values().stream()
        .flatMap(m -> m.values().stream())
        .mapToLong(Long::longValue)
        .sum();
  }

  public long compared() {
    return ranges.stream().mapToLong(RangeTotals::compared).sum();
  }

  /** Consistent: no difference and no invariant violation. */
  public boolean consistent() {
    return differences() == 0 && invariantViolations() == 0;
  }

  public long millis() {
    return finished.toEpochMilli() - started.toEpochMilli();
  }
}
