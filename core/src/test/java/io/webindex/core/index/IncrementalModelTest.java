package io.webindex.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.synth.RandomWeb;
import io.webindex.core.url.Domains;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The incremental algorithm the Fluo application runs, done in memory with the same pure functions:
 * after every batch, applied in any order, the table built from cell changes equals the reference
 * recompute.
 */
class IncrementalModelTest {

  /** Applies page versions one by one through old→new changes, like the Fluo observers. */
  static final class IncrementalTable {
    final Map<String, Page> current = new HashMap<>();
    final Map<String, UriState> uris = new HashMap<>();
    final Map<String, Long> domains = new HashMap<>();
    final TreeMap<Cell.Column, String> table = new TreeMap<>();
    int linkWork;

    void apply(Page v) {
      Page old = current.get(v.key());
      if (old != null && !v.version().supersedes(old.version())) {
        return; // stale: latest crawl wins
      }
      current.put(v.key(), v);
      apply(IndexCells.pageChanges(old, v));
      Map<String, UriState.Delta> deltas = IndexCells.uriDeltas(old, v);
      for (Map.Entry<String, UriState.Delta> e : deltas.entrySet()) {
        linkWork++;
        UriState before = uris.getOrDefault(e.getKey(), UriState.NONE);
        UriState after = before.apply(e.getValue());
        uris.put(e.getKey(), after);
        apply(IndexCells.uriChanges(e.getKey(), before, after));
        if (before.seen() != after.seen()) {
          String d = Domains.ofKey(e.getKey());
          long b = domains.getOrDefault(d, 0L);
          long a = b + (after.seen() ? 1 : -1);
          domains.put(d, a);
          apply(IndexCells.domainChanges(d, b, a));
        }
      }
    }

    void apply(List<CellChange> changes) {
      for (CellChange c : changes) {
        if (c instanceof CellChange.Put p) {
          table.put(p.column(), p.cell().value());
        } else {
          assertTrue(table.remove(c.column()) != null, "delete of a missing cell " + c);
        }
      }
    }

    List<String> dump() {
      List<String> out = new ArrayList<>();
      table.forEach((k, v) -> out.add(DumpFormat.line(k.row(), k.family(), k.qualifier(), v)));
      return out;
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void incrementalEqualsReferenceAfterEveryBatch(long seed) {
    RandomWeb web = new RandomWeb(seed, 120);
    ReferenceIndex ref = new ReferenceIndex();
    IncrementalTable inc = new IncrementalTable();
    Random rnd = new Random(seed);
    for (int b = 0; b < 8; b++) {
      List<Page> batch = new ArrayList<>(web.batch(b, 150));
      ref.applyAll(batch);
      Collections.shuffle(batch, rnd); // order inside a batch does not matter
      batch.forEach(inc::apply);
      assertEquals(DumpFormat.lines(ref.cells()), inc.dump(), "seed " + seed + " batch " + b);
    }
  }

  @Test
  void batchesAppliedOutOfOrderConverge() {
    RandomWeb web = new RandomWeb(99, 80);
    List<List<Page>> batches = new ArrayList<>();
    ReferenceIndex ref = new ReferenceIndex();
    for (int b = 0; b < 6; b++) {
      batches.add(web.batch(b, 100));
      ref.applyAll(batches.get(b));
    }
    IncrementalTable inc = new IncrementalTable();
    for (int b : new int[] {3, 0, 5, 1, 4, 2, 3}) { // out of order and one replay
      batches.get(b).forEach(inc::apply);
    }
    assertEquals(DumpFormat.lines(ref.cells()), inc.dump());
  }

  @Test
  void recrawlWithSameLinksDoesNoLinkWork() {
    RandomWeb web = new RandomWeb(5, 50);
    IncrementalTable inc = new IncrementalTable();
    List<Page> batch = web.batch(0, 100);
    batch.forEach(inc::apply);
    Page live =
        batch.stream()
            .filter(p -> !p.deleted() && !p.links().isEmpty() && inc.current.get(p.key()) == p)
            .findFirst()
            .orElseThrow();
    Page recrawl =
        new Page(
            live.url(),
            live.key(),
            new io.webindex.core.model.PageVersion(
                live.version().crawled().plusSeconds(1_000_000), 1, "x", 0),
            live.title(),
            live.links(),
            false);
    List<CellChange> changes = IndexCells.pageChanges(live, recrawl);
    assertEquals(1, changes.size(), "only page:cur changes: " + changes);
    assertTrue(IndexCells.uriDeltas(live, recrawl).isEmpty());
    int before = inc.linkWork;
    inc.apply(recrawl);
    assertEquals(before, inc.linkWork);
  }
}
