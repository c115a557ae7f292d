package io.webindex.check.engine;

import io.webindex.core.schema.Cell;
import io.webindex.core.schema.QuerySchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects what a check finds into report parts: totals per row range, violations per table and
 * kind, and at most {@code samplesPerKind} sampled findings of each kind. Accumulators of parts of
 * a check (map tasks) merge with {@link #merge}.
 */
public final class CheckAccumulator implements CheckListener {
  public static final String EXPECTED = "expected";
  public static final String ACTUAL = "actual";

  private final int samplesPerKind;
  private final Map<String, long[]> ranges =
      new TreeMap<>(); // compared, missing, extra, different, skipped
  private final Map<String, Map<Kind, Long>> invariants = new TreeMap<>();
  private final Map<Kind, List<Finding>> samples = new EnumMap<>(Kind.class);

  /** Violations not counted: in table {@link #inFlightTable}, in cells {@link #inFlight} covers. */
  private String inFlightTable;

  private Exclusions inFlight = Exclusions.NONE;
  private long inFlightViolations;

  public CheckAccumulator(int samplesPerKind) {
    this.samplesPerKind = samplesPerKind;
    for (String r : QuerySchema.ROW_RANGES) {
      ranges.put(r, new long[5]);
    }
  }

  private String lastRange;
  private long[] lastTotals;

  @Override
  public void compared(String range, boolean skipped) {
    long[] t = lastTotals;
    if (!range.equals(lastRange)) {
      t = ranges.computeIfAbsent(range, r -> new long[5]);
      lastRange = range;
      lastTotals = t;
    }
    t[skipped ? 4 : 0]++;
  }

  @Override
  public void difference(Kind kind, Cell expected, Cell actual) {
    Cell where = expected != null ? expected : actual;
    String range = CheckListener.rangeOf(where.row());
    long[] t = ranges.computeIfAbsent(range, r -> new long[5]);
    t[kind == Kind.MISSING ? 1 : kind == Kind.EXTRA ? 2 : 3]++;
    sample(
        new Finding(
            kind,
            "both",
            range,
            where.row(),
            where.family() + ":" + where.qualifier(),
            expected == null ? "" : expected.value(),
            actual == null ? "" : actual.value(),
            ""));
  }

  /**
   * A difference found outside the query tables' row ranges (the history tables: {@link
   * HistoryCheck#RANGE}), counted in {@code range} by its kind and sampled as it is.
   */
  public void difference(String range, Finding f) {
    long[] t = ranges.computeIfAbsent(range, r -> new long[5]);
    t[f.kind() == Kind.MISSING ? 1 : f.kind() == Kind.EXTRA ? 2 : 3]++;
    sample(f);
  }

  /** An empty accumulator with the same sample limit and the same in-flight cells, for a part. */
  public CheckAccumulator part() {
    CheckAccumulator p = new CheckAccumulator(samplesPerKind);
    p.inFlightTable = inFlightTable;
    p.inFlight = inFlight;
    return p;
  }

  /**
   * Does not count the invariant violations of {@code table} in the cells {@code cells} covers:
   * cells that work in flight may be changing while they are read (a loader applying a batch during
   * the comparison). Counted apart: {@link #inFlightViolations()}.
   */
  public void ignoreInFlight(String table, Exclusions cells) {
    this.inFlightTable = table;
    this.inFlight = cells;
  }

  /** The violations not counted because they were in cells of work in flight. */
  public long inFlightViolations() {
    return inFlightViolations;
  }

  @Override
  public void violation(String table, Finding f) {
    if (table.equals(inFlightTable) && inFlight.excludes(f)) {
      inFlightViolations++;
      return;
    }
    invariants
        .computeIfAbsent(table, t -> new EnumMap<>(Kind.class))
        .merge(f.kind(), 1L, Long::sum);
    sample(f);
  }

  private void sample(Finding f) {
    List<Finding> list = samples.computeIfAbsent(f.kind(), k -> new ArrayList<>());
    if (list.size() < samplesPerKind) {
      list.add(f);
    }
  }

  /** Adds totals and samples counted elsewhere (another map task). */
  public void addRange(
      String range, long compared, long missing, long extra, long different, long skipped) {
    long[] t = ranges.computeIfAbsent(range, r -> new long[5]);
    t[0] += compared;
    t[1] += missing;
    t[2] += extra;
    t[3] += different;
    t[4] += skipped;
  }

  public void addViolations(String table, Kind kind, long n) {
    if (n > 0) {
      invariants.computeIfAbsent(table, x -> new EnumMap<>(Kind.class)).merge(kind, n, Long::sum);
    }
  }

  public void addSample(Finding f) {
    sample(f);
  }

  public void merge(CheckAccumulator o) {
    o.ranges.forEach((r, t) -> addRange(r, t[0], t[1], t[2], t[3], t[4]));
    o.invariants.forEach((table, m) -> m.forEach((k, n) -> addViolations(table, k, n)));
    o.samples.values().forEach(l -> l.forEach(this::sample));
    inFlightViolations += o.inFlightViolations;
  }

  public List<RangeTotals> ranges() {
    List<RangeTotals> out = new ArrayList<>();
    ranges.forEach((r, t) -> out.add(new RangeTotals(r, t[0], t[1], t[2], t[3], t[4])));
    // table order: d:, p:, t:, then anything else, then the history and the frontier tables
    out.sort(
        Comparator.comparing((RangeTotals t) -> t.range().equals(FrontierCheck.RANGE))
            .thenComparing(t -> t.range().equals(HistoryCheck.RANGE))
            .thenComparing(t -> t.range().equals(CheckListener.OTHER))
            .thenComparing(RangeTotals::range));
    return out;
  }

  public Map<String, Map<Kind, Long>> invariants() {
    Map<String, Map<Kind, Long>> out = new LinkedHashMap<>();
    invariants.forEach((t, m) -> out.put(t, Map.copyOf(m)));
    return out;
  }

  public List<Finding> samples() {
    List<Finding> out = new ArrayList<>();
    samples.values().forEach(out::addAll);
    return out;
  }
}
