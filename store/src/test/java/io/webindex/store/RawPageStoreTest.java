package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawPageStoreTest {
  @TempDir Path root;

  /** Writes batch {@code seq} as the spec lays it out, with one file named {@code file}. */
  private void batch(String seq, String file) throws IOException {
    Path dir = Files.createDirectories(root.resolve("batches").resolve(seq));
    Files.writeString(dir.resolve(file), "{}\n");
  }

  private static List<Long> seqs(List<RawPageStore.Batch> batches) {
    return batches.stream().map(RawPageStore.Batch::seq).toList();
  }

  @Test
  void batchesAfterSkipsTheAppliedOnesAndStopsAtTheFirstIncompleteAfterThem() throws Exception {
    batch("00000", "a.jsonl");
    batch("00001", "b.jsonl._COPYING_"); // still being copied, but already applied below
    batch("00002", "c.jsonl");
    batch("00003", "d.jsonl");
    batch("00004", "e.jsonl.tmp"); // being copied: it and everything after wait
    batch("00005", "f.jsonl");
    RawPageStore store = new RawPageStore(root.toUri().toString(), new Configuration(false));

    assertEquals(List.of(0L), seqs(store.batches()));
    assertEquals(List.of(2L, 3L), seqs(store.batchesAfter(1)));
    assertEquals(List.of(3L), seqs(store.batchesAfter(2)));
    assertEquals(List.of(), seqs(store.batchesAfter(3)));
    assertEquals(List.of(), seqs(store.batchesAfter(7)));
  }
}
