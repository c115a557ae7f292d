package io.webindex.check.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CheckReportConsoleTest {
  @Test
  void inconsistentSummary() {
    assertEquals(
        """
        check INCONSISTENT: 16 differences, 3 invariant violations
          tables       webindex_20261121030000 (run 20261121030000, snapshot 41) vs webindex \
        (Fluo applied 43)
          compared     11,234,567 cells in 4 row ranges, 1,614 skipped
          differences  16: missing 4, extra 3, different 9 (Fluo seed: 3 of 3,456,789)
          invariants   3: actual PAGECOUNT_MISMATCH 2, actual TOTAL_MISMATCH 1
          time         12 min 03 s, 15,529 cells/s (mapreduce)
          samples      5 of 19 (all in the report files)
            MISSING             both      p:org.wikipedia.en/wiki/Accumulo  inlinks:com.example.www  \
        expected Accumulo  actual (none)
            MISSING             both      p:com.example.shop  inlinks:com.example.www  \
        expected Shop <new>  actual (none)
            MISSING             both      t:18:org.wikipedia.en/wiki/Accumulo  :  expected 18  \
        actual (none)
            EXTRA               both      t:17:org.wikipedia.en/wiki/Accumulo  :  expected (none)  \
        actual 17
            EXTRA               both      p:com.example.shop/cart?id=9  page:incount  \
        expected (none)  actual 0""",
        CheckReportConsole.summary(CheckReportFixtures.inconsistent()));
  }

  @Test
  void consistentSummary() {
    assertEquals(
        """
        check CONSISTENT
          tables       webindex_20261121040000 (run 20261121040000, snapshot 7) vs webindex \
        (Fluo applied 7)
          compared     38 cells in 3 row ranges, 0 skipped
          differences  0
          invariants   0
          time         2.5 s, 15.2 cells/s (scanner)""",
        CheckReportConsole.summary(CheckReportFixtures.consistent()));
  }

  @Test
  void durations() {
    assertEquals("0 ms", ReportFormat.duration(0));
    assertEquals("999 ms", ReportFormat.duration(999));
    assertEquals("1.0 s", ReportFormat.duration(1000));
    assertEquals("42 s", ReportFormat.duration(42_999));
    assertEquals("1 min 00 s", ReportFormat.duration(60_000));
    assertEquals("1 h 02 min 05 s", ReportFormat.duration(3_725_000));
  }
}
