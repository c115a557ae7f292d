package io.webindex.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure index functions on small, hand-checked cases. */
class IndexCellsTest {
  static final PageVersion V1 = new PageVersion(Instant.parse("2026-11-20T10:00:00Z"), 0, "f", 0);
  static final PageVersion V2 = new PageVersion(Instant.parse("2026-11-21T10:00:00Z"), 1, "f", 0);

  static Page page(PageVersion v, String... targets) {
    return Page.of(
        "http://a.com/",
        "com.a",
        v,
        "A",
        java.util.Arrays.stream(targets)
            .map(t -> new Link("http://" + t + "/", t, "to " + t))
            .toList());
  }

  static UriState.Delta d(long urc, long crawled) {
    return new UriState.Delta(urc, crawled);
  }

  @Test
  void aNewPageCountsItselfCrawledAndEachTargetOnce() {
    assertEquals(
        Map.of("com.a", d(0, 1), "com.b", d(1, 0), "com.c", d(1, 0)),
        IndexCells.uriDeltas(null, page(V1, "com.b", "com.c")));
  }

  @Test
  void aDeletionUncountsThePagesLinks() {
    assertEquals(
        Map.of("com.a", d(0, -1), "com.b", d(-1, 0), "com.c", d(-1, 0)),
        IndexCells.uriDeltas(
            page(V1, "com.b", "com.c"), Page.deletion("http://a.com/", "com.a", V2)));
    assertEquals(
        Map.of(),
        IndexCells.uriDeltas(
            Page.deletion("http://a.com/", "com.a", V1),
            Page.deletion("http://a.com/", "com.a", V2)));
    assertEquals(Map.of(), IndexCells.uriDeltas(null, null));
  }

  @Test
  void aRecrawlChangesOnlyTheLinksThatChanged() {
    assertEquals(
        Map.of(), IndexCells.uriDeltas(page(V1, "com.b", "com.c"), page(V2, "com.c", "com.b")));
    assertEquals(
        Map.of("com.b", d(-1, 0), "com.d", d(1, 0)),
        IndexCells.uriDeltas(page(V1, "com.b", "com.c"), page(V2, "com.c", "com.d")));
  }

  @Test
  void aDomainWithoutSeenUrisHasNoCells() {
    assertEquals(List.of(), IndexCells.domain("com.a", 0));
    List<Cell> one = IndexCells.domain("com.a", 1);
    assertEquals(1, one.size());
    assertEquals(
        List.of("d:com.a", "domain", "pagecount"),
        List.of(one.get(0).row(), one.get(0).family(), one.get(0).qualifier()));
    assertEquals(List.of(), IndexCells.domainChanges("com.a", 2, 2));
    assertEquals(
        List.of(new CellChange.Delete(new Cell.Column("d:com.a", "domain", "pagecount"))),
        IndexCells.domainChanges("com.a", 1, 0));
  }

  /** Changes come sorted by column, whatever the order of the cells. */
  @Test
  void diffIsSortedByColumn() {
    Cell a = new Cell("p:com.a", "page", "incount", "1");
    Cell b = new Cell("p:com.b", "page", "incount", "1");
    Cell c = new Cell("p:com.c", "page", "incount", "1");
    Cell b2 = new Cell("p:com.b", "page", "incount", "2");
    List<CellChange> changes = IndexCells.diff(List.of(c, a, b), List.of(b2, a));
    assertEquals(List.of(CellChange.put(b2), new CellChange.Delete(c.column())), changes);
  }
}
