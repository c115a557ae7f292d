package io.webindex.core.read;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** Counters of one or more reads. Not thread-safe. */
public final class ReadStats {
  private final EnumMap<ReadCounter, Long> counters = new EnumMap<>(ReadCounter.class);
  private final EnumMap<RejectReason, Long> rejects = new EnumMap<>(RejectReason.class);

  public void add(ReadCounter c, long n) {
    if (n != 0) {
      counters.merge(c, n, Long::sum);
    }
  }

  public void inc(ReadCounter c) {
    add(c, 1);
  }

  public void reject(RejectReason r) {
    rejects.merge(r, 1L, Long::sum);
    inc(ReadCounter.REJECTED);
  }

  public long get(ReadCounter c) {
    return counters.getOrDefault(c, 0L);
  }

  public long get(RejectReason r) {
    return rejects.getOrDefault(r, 0L);
  }

  public void addAll(ReadStats o) {
    o.counters.forEach(this::add);
    o.rejects.forEach((r, n) -> rejects.merge(r, n, Long::sum));
  }

  /** All non-zero counters, read counters first, then reject reasons as {@code REJECT_<reason>}. */
  public Map<String, Long> asMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    counters.forEach((k, v) -> m.put(k.name(), v));
    rejects.forEach((k, v) -> m.put("REJECT_" + k.name(), v));
    return m;
  }

  @Override
  public String toString() {
    return asMap().toString();
  }
}
