package io.webindex.testkit;

import io.webindex.core.history.HistorySettings;
import io.webindex.core.history.ScheduleConfig;
import io.webindex.core.schema.TimedCell;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Value;

/**
 * A hand-checked crawl history of the worked example's pages (docs/tables.md), written cell by cell
 * as the history table holds it, for the readers' tests (the history command, the web API and the
 * page view). Every value is written out literally here, not built by the codec under test.
 *
 * <p>The history table is meant to keep {@link #VERSIONS} versions, so {@code http://d.com/}'s
 * oldest crawl is no longer kept. By hand, with the shipped schedule constants (default interval 30
 * d = 2592000 s, inc 0.4, dec 0.2, sync delta on at 0.3):
 *
 * <pre>
 * d.com  2026-10-01T10:02Z ok  S1 1   first                  interval 2592000
 *        2026-10-11T10:02Z ok  S1 1   unchanged: 2592000*1.4 = 3628800 (delta 10 d is smaller)
 *        2026-10-21T10:02Z gone       changed:   3628800*0.8 = 2903040, modified = this crawl
 *        2026-11-20T10:02Z ok  S2 1   changed:   2903040*0.8 = 2322432, modified = this crawl
 *        next = 2026-11-20T10:02Z + 2322432 s (26 d 21 h 7 min 12 s) = 2026-12-17T07:09:12Z
 * b.com  2026-11-20T10:01Z ok  S3 2   first; next = + 30 d = 2026-12-20T10:01:00Z
 * c.com  only linked to: no crawl, no schedule; urc 1, 2, 3 at the three runs
 * </pre>
 *
 * The urc series: runs started {@link #RUN1}, {@link #RUN2}, {@link #RUN3}; d.com was gone at the
 * second run, so it has no point there.
 */
public final class HistoryFixture {
  /** The versions the history table keeps in this fixture. */
  public static final int VERSIONS = 3;

  /** The rule this fixture's history table is kept by: {@link #VERSIONS}, the shipped schedule. */
  public static final HistorySettings SETTINGS =
      new HistorySettings(VERSIONS, ScheduleConfig.DEFAULT);

  public static final String S1 = "sha1:2WE5WN7RJ2XWNPMCZJBPQEPKWDYO7FKW";
  public static final String S2 = "sha1:Q3OG3UBCBNXGFQRQD5ZKQNGYKTAWCIVP";
  public static final String S3 = "idx:LJ4SLPPQKXHNUB6J6Z7RLYAZVJPZFAOM";

  public static final String RUN1 = "2026-10-15T00:00:00Z";
  public static final String RUN2 = "2026-11-01T00:00:00Z";
  public static final String RUN3 = "2026-11-21T00:00:00Z";

  public static final String D_SCHEDULE =
      "first=2026-10-01T10:02:00.000Z last=2026-11-20T10:02:00.000Z crawls=4 changes=2"
          + " interval=2322432 next=2026-12-17T07:09:12.000Z modified=2026-11-20T10:02:00.000Z";
  public static final String B_SCHEDULE =
      "first=2026-11-20T10:01:00.000Z last=2026-11-20T10:01:00.000Z crawls=1 changes=0"
          + " interval=2592000 next=2026-12-20T10:01:00.000Z modified=2026-11-20T10:01:00.000Z";

  private HistoryFixture() {}

  /** The cells, in no particular order. */
  public static List<TimedCell> cells() {
    return List.of(
        cell("com.d", "crawl", "2026-10-01T10:02:00Z", "ok " + S1 + " 1"),
        cell("com.d", "crawl", "2026-10-11T10:02:00Z", "ok " + S1 + " 1"),
        cell("com.d", "crawl", "2026-10-21T10:02:00Z", "gone - 0"),
        cell("com.d", "crawl", "2026-11-20T10:02:00Z", "ok " + S2 + " 1"),
        new TimedCell("com.d", "sched", "", 0L, D_SCHEDULE),
        cell("com.d", "urc", RUN1, "0"),
        cell("com.d", "urc", RUN3, "0"),
        cell("com.b", "crawl", "2026-11-20T10:01:00Z", "ok " + S3 + " 2"),
        new TimedCell("com.b", "sched", "", 0L, B_SCHEDULE),
        cell("com.b", "urc", RUN3, "1"),
        cell("com.c", "urc", RUN1, "1"),
        cell("com.c", "urc", RUN2, "2"),
        cell("com.c", "urc", RUN3, "3"));
  }

  private static TimedCell cell(String row, String family, String instant, String value) {
    return new TimedCell(row, family, "", Instant.parse(instant).toEpochMilli(), value);
  }

  /** Writes {@code cells} into {@code table}, each at its own timestamp. */
  public static void write(Connector connector, String table, List<TimedCell> cells)
      throws Exception {
    try (BatchWriter w = connector.createBatchWriter(table, new BatchWriterConfig())) {
      for (TimedCell c : cells) {
        Mutation m = new Mutation(c.row());
        m.put(
            c.family(),
            c.qualifier(),
            c.timestamp(),
            new Value(c.value().getBytes(StandardCharsets.UTF_8)));
        w.addMutation(m);
      }
    }
  }
}
