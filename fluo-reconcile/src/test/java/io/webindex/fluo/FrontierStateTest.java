package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.core.frontier.FrontierInputs;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frontier-table changes of the Fluo application when a URI's sum changes, against hand-written
 * goldens (due 2026-01-01T00:00:00Z is 1767225600000 ms, hex 0000019b76daa800; urc 2 and 3 encode
 * as the hex of Long.MAX_VALUE minus them, 7ffffffffffffffd and 7ffffffffffffffc).
 */
class FrontierStateTest {
  private static final String KEY = "com.example.a/x";
  private static final String ROW = "q:a.example.com";
  private static final String URL = "http://a.example.com/x";
  private static final long JAN_1 = 1767225600000L;

  private static CellChange put(String qualifier) {
    return CellChange.put(new Cell(ROW, "due", qualifier, URL));
  }

  private static CellChange delete(String qualifier) {
    return CellChange.delete(ROW, "due", qualifier);
  }

  /** Linked to, crawled, linked more, unlinked: the entry moves column by column. */
  @Test
  void eachChangeMovesTheEntryByADeleteAndAPut() {
    FrontierInputs linked = FrontierInputs.NONE.withUrc(2);
    assertEquals(
        List.of(put("0000000000000000:7ffffffffffffffd:" + KEY)),
        FrontierState.changes(KEY, FrontierInputs.NONE, linked),
        "linked to, never crawled: due at once");

    FrontierInputs crawled = linked.withNextFetch(JAN_1);
    assertEquals(
        List.of(
            delete("0000000000000000:7ffffffffffffffd:" + KEY),
            put("0000019b76daa800:7ffffffffffffffd:" + KEY)),
        FrontierState.changes(KEY, linked, crawled),
        "crawled: due at its next fetch");

    assertEquals(
        List.of(
            delete("0000019b76daa800:7ffffffffffffffd:" + KEY),
            put("0000019b76daa800:7ffffffffffffffc:" + KEY)),
        FrontierState.changes(KEY, crawled, crawled.withUrc(3)),
        "one more link: a higher priority");

    assertEquals(
        List.of(
            delete("0000019b76daa800:7ffffffffffffffd:" + KEY),
            put("0000019b76daa800:7fffffffffffffff:" + KEY)),
        FrontierState.changes(KEY, crawled, crawled.withUrc(0)),
        "a crawled URI nobody links to stays in the frontier");

    assertEquals(
        List.of(delete("0000000000000000:7ffffffffffffffd:" + KEY)),
        FrontierState.changes(KEY, linked, FrontierInputs.NONE),
        "never crawled and no longer linked to: out of the frontier");

    assertEquals(List.of(), FrontierState.changes(KEY, crawled, crawled), "no change");
  }
}
