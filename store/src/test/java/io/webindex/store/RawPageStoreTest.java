package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawPageStoreTest {
  @TempDir Path root;

  /** Writes the files of batch {@code seq} (names relative to it), without its marker. */
  private Path unmarked(String seq, String... files) throws IOException {
    Path dir = Files.createDirectories(root.resolve("batches").resolve(seq));
    for (String f : files) {
      Path p = dir.resolve(f);
      Files.createDirectories(p.getParent());
      Files.writeString(p, "{}\n");
    }
    return dir;
  }

  /** Writes batch {@code seq} as the spec lays it out: its files, then the _SUCCESS marker. */
  private Path batch(String seq, String... files) throws IOException {
    Path dir = unmarked(seq, files);
    Files.writeString(dir.resolve("_SUCCESS"), "");
    return dir;
  }

  private RawPageStore store() throws IOException {
    return new RawPageStore(root.toUri().toString(), new Configuration(false));
  }

  /** A directory under batches/ as the store names it (qualified; "" for batches/ itself). */
  private String dirOf(String name) {
    return "file:" + root.resolve("batches").resolve(name).toAbsolutePath();
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
    RawPageStore store = store();

    assertEquals(List.of(0L), seqs(store.batches()));
    assertEquals(List.of(2L, 3L), seqs(store.batchesAfter(1)));
    assertEquals(List.of(3L), seqs(store.batchesAfter(2)));
    assertEquals(List.of(), seqs(store.batchesAfter(3)));
    assertEquals(List.of(), seqs(store.batchesAfter(7)));
    RawPageStore.Waiting w = store.pending(3).waiting();
    assertEquals(4, w.seq());
    assertEquals(RawPageStore.Reason.IN_PROGRESS, w.reason());
    assertEquals(
        "batch 4 is still being written: "
            + dirOf("00004")
            + "/e.jsonl.tmp is a file in progress (its name ends in .tmp); it waits, and the 1"
            + " batch after it",
        w.message());
    assertNull(store.pending(5).waiting(), "nothing after batch 5");
  }

  /**
   * A directory with page files but no _SUCCESS is not a batch yet: {@code hdfs dfs -put} makes the
   * directory before its files, a job's committer moves files in before it writes the marker. It
   * waits, and every batch after it with it, until the marker is there; then it is read whole.
   */
  @Test
  void aBatchWithoutItsMarkerWaitsWithEveryBatchAfterIt() throws Exception {
    batch("00000", "a.jsonl");
    Path put = unmarked("00001"); // `hdfs dfs -put dir batches/00001` has made the directory only
    Path job = unmarked("00002", "part-r-00000.jsonl", "_temporary/0/task_1/part-r-00001.jsonl");
    batch("00003", "d.jsonl");
    RawPageStore store = store();

    assertEquals(List.of(0L), seqs(store.batches()));
    assertEquals(List.of(), seqs(store.batchesAfter(0)));
    RawPageStore.Waiting w = store.pending(0).waiting();
    assertEquals(1, w.seq());
    assertEquals(RawPageStore.Reason.UNMARKED, w.reason());
    assertEquals(
        "batch 1 is not complete yet: "
            + dirOf("00001")
            + " has no _SUCCESS marker (its writer writes it after every file: `hdfs dfs -touchz "
            + dirOf("00001")
            + "/_SUCCESS` after a copy, a job's output committer by itself); it waits, and the 2"
            + " batches after it",
        w.message());

    Files.writeString(put.resolve("b.jsonl"), "{}\n");
    Files.writeString(put.resolve("_SUCCESS"), "");
    assertEquals(List.of(0L, 1L), seqs(store.batches()));
    RawPageStore.Waiting job2 = store.pending(1).waiting();
    assertEquals(2, job2.seq());
    assertEquals(RawPageStore.Reason.UNMARKED, job2.reason());

    // the job commits: its temporary files go, then the committer writes _SUCCESS
    Files.move(
        job.resolve("_temporary/0/task_1/part-r-00001.jsonl"), job.resolve("part-r-00001.jsonl"));
    Files.writeString(job.resolve("_SUCCESS"), "");
    assertEquals(List.of(2L, 3L), seqs(store.batchesAfter(1)));
    assertEquals(
        List.of(
            "file:" + job.toAbsolutePath() + "/part-r-00000.jsonl",
            "file:" + job.toAbsolutePath() + "/part-r-00001.jsonl"),
        store.files(store.batchesAfter(1).get(0)).stream().map(Object::toString).toList());
    assertNull(store.pending(-1).waiting());
  }

  /**
   * An empty directory (made by a writer that has not started copying) is not a batch read empty.
   */
  @Test
  void anEmptyDirectoryIsNotAnEmptyBatch() throws Exception {
    batch("00000", "a.jsonl");
    unmarked("00001");
    assertEquals(List.of(0L), seqs(store().batches()));
    assertEquals(RawPageStore.Reason.UNMARKED, store().pending(0).waiting().reason());
  }

  /**
   * Batch 3 renamed into place before batch 2: batch 3 waits for 2 (read it first and the resume
   * point would pass 2 for ever). An empty batch with its marker is how a number is skipped.
   */
  @Test
  void aGapInTheNumbersStopsAtTheMissingBatch() throws Exception {
    batch("00000", "a.jsonl");
    batch("00001", "b.jsonl");
    batch("00003", "d.jsonl");
    batch("00004", "e.jsonl");
    RawPageStore store = store();

    assertEquals(List.of(0L, 1L), seqs(store.batches()));
    assertEquals(List.of(), seqs(store.batchesAfter(1)));
    RawPageStore.Waiting w = store.pending(1).waiting();
    assertEquals(2, w.seq());
    assertEquals(RawPageStore.Reason.MISSING, w.reason());
    assertEquals(
        "batch 2 is missing: batches are read in order of their numbers, from 0 and without gaps,"
            + " and "
            + dirOf("")
            + " holds batch 3 (and 1 after it) but no batch 2, so they wait for it (to skip the"
            + " number, write batch 00002 as an empty batch with its _SUCCESS marker)",
        w.message());
    // after batch 3 (applied by whatever means), batch 4 follows
    assertEquals(List.of(4L), seqs(store.batchesAfter(3)));

    batch("00002"); // an operator skips the number: an empty batch with its marker
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), seqs(store.batches()));
    assertEquals(List.of(), store.files(store.batches().get(2)));
  }

  /** Numbering starts at 0: a store whose first batch is 1 has batch 0 missing. */
  @Test
  void theFirstBatchIsZero() throws Exception {
    batch("00001", "b.jsonl");
    batch("00002", "c.jsonl");
    RawPageStore store = store();

    assertEquals(List.of(), seqs(store.batches()));
    RawPageStore.Waiting w = store.pending(-1).waiting();
    assertEquals(0, w.seq());
    assertEquals(RawPageStore.Reason.MISSING, w.reason());
    // a resume point of 0 (the seed of a snapshot-0 run) goes on with batch 1
    assertEquals(List.of(1L, 2L), seqs(store.batchesAfter(0)));
  }
}
