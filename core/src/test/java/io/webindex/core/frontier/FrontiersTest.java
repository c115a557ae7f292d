package io.webindex.core.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.history.Schedule;
import io.webindex.core.index.FrontierCells;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.FrontierSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The derived frontier and its codec, on the worked example by hand and on random entries. */
class FrontiersTest {
  static long ms(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  /** A schedule after one crawl at {@code iso}: the default 30 days, next = crawl + 30 d. */
  static Schedule once(String iso) {
    long t = ms(iso);
    return new Schedule(t, t, 1, 0, 2_592_000, t + 2_592_000_000L, t);
  }

  /**
   * The worked example (docs/semantics.md): a.com/page1, b.com and d.com crawled once on 2026-11-20
   * at 10:00, 10:01 and 10:02 (due 30 days later), c.com and c.com/page1 never crawled and linked
   * to (due at once); urc 0, 1, 0, 3, 1. The golden file is written by hand.
   */
  @Test
  void theWorkedExamplesFrontierTable() throws IOException {
    List<Cell> cells = new ArrayList<>();
    Frontiers.entry("com.a/page1", 0, once("2026-11-20T10:00:00Z"))
        .ifPresent(e -> cells.add(FrontierSchema.cell(e)));
    Frontiers.entry("com.b", 1, once("2026-11-20T10:01:00Z"))
        .ifPresent(e -> cells.add(FrontierSchema.cell(e)));
    Frontiers.entry("com.c", 3, null).ifPresent(e -> cells.add(FrontierSchema.cell(e)));
    Frontiers.entry("com.c/page1", 1, null).ifPresent(e -> cells.add(FrontierSchema.cell(e)));
    Frontiers.entry("com.d", 0, once("2026-11-20T10:02:00Z"))
        .ifPresent(e -> cells.add(FrontierSchema.cell(e)));
    cells.sort(Cell.ORDER);
    assertEquals(golden("worked-example-frontier.tsv"), DumpFormat.lines(cells));
    for (Cell c : cells) {
      assertEquals(c, FrontierSchema.cell(FrontierSchema.decode(c)));
    }
  }

  @Test
  void whoIsInTheFrontierAndWhen() {
    // neither crawled nor linked to: not in it
    assertEquals(Optional.empty(), Frontiers.entry("com.a/x", 0, null));
    // linked to, never crawled: due at once, in its host's queue (scheme and port do not count)
    assertEquals(
        Optional.of(new FrontierEntry("com.a:8443s/x", "a.com", 0, 2)),
        Frontiers.entry("com.a:8443s/x", 2, null));
    assertEquals("www.a.com", Frontiers.queueOf("com.a.www:s"));
    assertEquals("1.2.3.4", Frontiers.queueOf("1.2.3.4:8080/x"));
    assertEquals("[2001:db8::1]", Frontiers.queueOf("[2001:db8::1]:8080"));
    assertEquals("https://a.com:8443/x", Frontiers.urlOf("com.a:8443s/x"));
    // crawled (also gone, also no longer linked to): due at its next fetch
    Schedule s = once("2026-01-01T00:00:00Z");
    assertEquals(
        ms("2026-01-31T00:00:00Z"), Frontiers.entry("com.a/x", 0, s).orElseThrow().dueMillis());
    assertThrows(IllegalArgumentException.class, () -> Frontiers.queueOf("no key"));
  }

  @Test
  void aChangedEntryMovesItsCell() {
    Optional<FrontierEntry> linked = Frontiers.entry("com.c", 3, null);
    Optional<FrontierEntry> more = Frontiers.entry("com.c", 4, null);
    assertEquals(List.of(), FrontierCells.changes(linked, linked));
    List<CellChange> moved = FrontierCells.changes(linked, more);
    assertEquals(
        List.of(
            CellChange.delete("q:c.com", "due", "0000000000000000:7ffffffffffffffc:com.c"),
            CellChange.put(
                new Cell(
                    "q:c.com", "due", "0000000000000000:7ffffffffffffffb:com.c", "http://c.com/"))),
        moved);
    assertEquals(1, FrontierCells.changes(linked, Optional.empty()).size());
    assertEquals(1, FrontierCells.changes(Optional.empty(), more).size());
  }

  /** Byte order of a queue's qualifiers is the queue order, on random entries of one host. */
  @Test
  void aQueueRowScansInQueueOrder() {
    Random r = new Random(7);
    List<FrontierEntry> entries = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      long due = r.nextInt(4) == 0 ? 0 : (r.nextLong() >>> 1) % 4_000_000_000_000L;
      long urc = r.nextInt(3) == 0 ? r.nextInt(3) : r.nextLong() >>> 1;
      String key = "com.a/" + Integer.toString(r.nextInt(500), 36) + (r.nextBoolean() ? ":x" : "");
      entries.add(new FrontierEntry(key, "a.com", due, urc));
    }
    List<FrontierEntry> byOrder = new ArrayList<>(entries);
    byOrder.sort(FrontierEntry.QUEUE_ORDER);
    List<FrontierEntry> byBytes = new ArrayList<>(entries);
    byBytes.sort(Comparator.comparing(e -> FrontierSchema.cell(e), Cell.ORDER));
    assertEquals(byOrder, byBytes);
  }

  @Test
  void aCellTheCodecDidNotWriteIsRefused() {
    Cell good = FrontierSchema.cell(Frontiers.entry("com.c", 3, null).orElseThrow());
    List<Cell> bad =
        List.of(
            new Cell("q:b.com", good.family(), good.qualifier(), good.value()),
            new Cell(good.row(), "other", good.qualifier(), good.value()),
            new Cell(good.row(), good.family(), good.qualifier(), "http://b.com/"),
            new Cell(good.row(), good.family(), "0:1:com.c", good.value()),
            new Cell(good.row(), good.family(), good.qualifier().toUpperCase(), good.value()),
            new Cell("x:c.com", good.family(), good.qualifier(), good.value()));
    for (Cell c : bad) {
      assertThrows(IllegalArgumentException.class, () -> FrontierSchema.decode(c), c.toString());
    }
    assertTrue(FrontierSchema.decode(good).urc() == 3);
  }

  private static List<String> golden(String name) throws IOException {
    try (InputStream in =
        FrontiersTest.class.getResourceAsStream("/io/webindex/core/frontier/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  @Test
  void theEntryOfTheFluoApplicationsInputs() {
    assertEquals(
        Frontiers.entry("com.c", 3, null), Frontiers.entry("com.c", new FrontierInputs(3, null)));
    assertEquals(Optional.empty(), Frontiers.entry("com.c", FrontierInputs.NONE));
  }
}
