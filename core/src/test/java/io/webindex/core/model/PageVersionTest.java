package io.webindex.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Latest crawl wins (docs/semantics.md): the later crawl time, then the later batch, the later file
 * (by name), the later offset. The expected winners are written by hand.
 */
class PageVersionTest {
  static final Instant T = Instant.parse("2026-11-20T10:00:00Z");

  static PageVersion v(Instant t, long batch, String file, long offset) {
    return new PageVersion(t, batch, file, offset);
  }

  @Test
  void laterCrawlWinsWhateverTheBatch() {
    PageVersion older = v(T, 5, "part-9", 900);
    PageVersion newer = v(T.plusSeconds(1), 0, "part-0", 0);
    assertTrue(newer.supersedes(older));
    assertFalse(older.supersedes(newer));
  }

  @Test
  void tiesGoToTheLaterBatchThenFileThenOffset() {
    assertTrue(v(T, 2, "a", 0).supersedes(v(T, 1, "z", 99)));
    assertFalse(v(T, 1, "z", 99).supersedes(v(T, 2, "a", 0)));
    assertTrue(v(T, 1, "part-1", 0).supersedes(v(T, 1, "part-0", 99)));
    assertFalse(v(T, 1, "part-0", 99).supersedes(v(T, 1, "part-1", 0)));
    assertTrue(v(T, 1, "part-0", 100).supersedes(v(T, 1, "part-0", 99)));
    assertFalse(v(T, 1, "part-0", 99).supersedes(v(T, 1, "part-0", 100)));
  }

  @Test
  void aVersionDoesNotSupersedeItselfAndAnythingSupersedesNothing() {
    PageVersion a = v(T, 1, "part-0", 7);
    assertFalse(a.supersedes(a));
    assertFalse(a.supersedes(v(T, 1, "part-0", 7)));
    assertTrue(a.supersedes(null));
  }

  /** Offered in any order, the winner is the same hand-picked version. */
  @Test
  void anyOrderGivesTheSameWinner() {
    PageVersion winner = v(T.plusSeconds(60), 0, "part-0", 0);
    List<PageVersion> all =
        new ArrayList<>(
            List.of(
                v(T, 3, "part-1", 500),
                v(T.plusSeconds(59), 9, "part-9", 999),
                winner,
                v(T.minusSeconds(3600), 10, "part-0", 0)));
    Random rnd = new Random(3);
    for (int i = 0; i < 20; i++) {
      Collections.shuffle(all, rnd);
      PageVersion held = null;
      for (PageVersion p : all) {
        if (p.supersedes(held)) {
          held = p;
        }
      }
      assertEquals(winner, held);
    }
  }
}
