package io.webindex.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.TestData;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.DumpFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * the worked example of docs/tables.md, from JSON lines to the full dump, against a hand-written
 * golden file.
 */
class WorkedExampleTest {
  @Test
  void fullDumpEqualsGoldenFile() {
    TestData.Read read =
        TestData.read(
            TestData.resource("/io/webindex/core/worked-example.jsonl"), "part-0.jsonl", 0);
    assertTrue(read.rejects().isEmpty(), read.rejects().toString());
    ReferenceIndex index = new ReferenceIndex();
    index.applyAll(read.pages());
    List<String> dump = DumpFormat.lines(index.cells());
    List<String> golden =
        TestData.resourceText("/io/webindex/core/worked-example.tsv").lines().toList();
    assertEquals(String.join("\n", golden), String.join("\n", dump));
  }

  /** The encoded layout of a few cells, pinned: the dump decodes exactly these. */
  @Test
  void encodedLayoutIsPinned() {
    TestData.Read read =
        TestData.read(TestData.resource("/io/webindex/core/worked-example.jsonl"), "f", 0);
    ReferenceIndex index = new ReferenceIndex();
    index.applyAll(read.pages());
    List<Cell> cells = index.cells();
    assertTrue(cells.contains(new Cell("t:7ffffffffffffffc:com.c", "", "", "3")));
    assertTrue(cells.contains(new Cell("d:com.c", "rank", "7ffffffffffffffe:com.c/page1", "1")));
    assertTrue(cells.contains(new Cell("p:com.c", "inlinks", "com.d", "C from D")));
    assertEquals("t:7fffffffffffffff:com.d", cells.get(cells.size() - 1).row());
    for (Cell c : cells) {
      assertEquals(c, DumpFormat.parse(DumpFormat.line(c)), "dump line round trip");
    }
  }
}
