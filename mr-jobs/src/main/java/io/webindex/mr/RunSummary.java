package io.webindex.mr;

import io.webindex.store.RunRecord;
import java.io.PrintStream;
import java.util.Map;

/** What {@code recompute} prints of a run that succeeded: its inputs, its counts, its times. */
final class RunSummary {
  private RunSummary() {}

  static void print(PrintStream out, RunRecord r) {
    Map<String, Long> c = r.counters();
    out.printf(
        "run %s SUCCEEDED: table %s, snapshot %d (%d batches)%n",
        r.runId(), r.table(), r.snapshot(), r.inputs().size());
    out.printf(
        "  read: %d records, %d page versions (%d deletions), %d rejected; %d links kept%n",
        c.getOrDefault("read.RECORDS", 0L),
        c.getOrDefault("read.PAGES", 0L),
        c.getOrDefault("read.DELETIONS", 0L),
        c.getOrDefault("read.REJECTED", 0L),
        c.getOrDefault("read.LINKS", 0L));
    out.printf(
        "  index: %d current pages, %d seen URIs, %d inlinks, %d query cells, %d Fluo seed entries%n",
        c.getOrDefault("latest.CURRENT_PAGES", 0L),
        c.getOrDefault("uris.SEEN_URIS", 0L),
        c.getOrDefault("uris.INLINKS", 0L),
        c.getOrDefault("write.QUERY_CELLS", 0L),
        c.getOrDefault("write.FLUO_SEED_ENTRIES", 0L));
    out.printf(
        "  time: %d ms (latest %d, uris %d, write %d, import %d)%n",
        c.getOrDefault("time.total.ms", 0L),
        c.getOrDefault("time.latest.ms", 0L),
        c.getOrDefault("time.uris.ms", 0L),
        c.getOrDefault("time.write.ms", 0L),
        c.getOrDefault("time.import.ms", 0L));
    out.printf("  Fluo seed: %s%n", r.seedDir());
    out.printf(
        "  written by webindex %s%n", r.version().isEmpty() ? "(not recorded)" : r.version());
  }
}
