package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Rows and columns as reports print them: the dump's readable form (values hand-checked). */
class DumpFormatReadableTest {
  @Test
  void rankedRowsAndColumnsAreDecoded() {
    // 8 is stored as 7fffffffffffffff - 8 = 7ffffffffffffff7
    assertEquals("t:8:com.site1/a/b0", DumpFormat.readableRow("t:7ffffffffffffff7:com.site1/a/b0"));
    assertEquals(
        "rank:8:com.site1/a/b0", DumpFormat.readableColumn("rank:7ffffffffffffff7:com.site1/a/b0"));
    assertEquals("t:0:com.a", DumpFormat.readableRow("t:7fffffffffffffff:com.a"));
  }

  @Test
  void otherRowsAndColumnsStayAsTheyAre() {
    assertEquals("p:com.a:s/x", DumpFormat.readableRow("p:com.a:s/x"));
    assertEquals("d:a.com", DumpFormat.readableRow("d:a.com"));
    assertEquals("page:incount", DumpFormat.readableColumn("page:incount"));
    assertEquals(
        "inlinks:com.b/7ffffffffffffff7",
        DumpFormat.readableColumn("inlinks:com.b/7ffffffffffffff7"));
    assertEquals(":", DumpFormat.readableColumn(":"));
    assertEquals("no-colon", DumpFormat.readableColumn("no-colon"));
  }

  @Test
  void malformedCountsAreShownAsStored() {
    assertEquals("t:zz:com.a", DumpFormat.readableRow("t:zz:com.a"));
    assertEquals("t:", DumpFormat.readableRow("t:"));
    assertEquals("rank:8:com.a", DumpFormat.readableColumn("rank:8:com.a"));
  }
}
