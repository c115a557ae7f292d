package io.webindex.check.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Reading ahead gives the source's elements in order, its failure after them, and stops when
 * closed.
 */
class ReadAheadTest {
  /** The numbers 0 … n-1, failing after {@code failAt} of them when it is not negative. */
  static Iterator<Integer> numbers(int n, int failAt) {
    return new Iterator<>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < n;
      }

      @Override
      public Integer next() {
        if (i == failAt) {
          throw new IllegalStateException("failed at " + i);
        }
        return i++;
      }
    };
  }

  @Test
  void theElementsInOrderAcrossBatches() {
    for (int n : List.of(0, 1, ReadAhead.BATCH - 1, ReadAhead.BATCH, 5 * ReadAhead.BATCH + 3)) {
      List<Integer> got = new ArrayList<>();
      try (ReadAhead<Integer> r = new ReadAhead<>(numbers(n, -1), "webindex-check-read-test", 2)) {
        r.forEachRemaining(got::add);
        assertFalse(r.hasNext());
      }
      assertEquals(IntStream.range(0, n).boxed().toList(), got);
    }
  }

  @Test
  void aFailureComesAfterTheElementsReadBeforeIt() {
    for (int failAt : List.of(0, 5, ReadAhead.BATCH, 3 * ReadAhead.BATCH + 7)) {
      List<Integer> got = new ArrayList<>();
      try (ReadAhead<Integer> r =
          new ReadAhead<>(numbers(10 * ReadAhead.BATCH, failAt), "webindex-check-read-test", 2)) {
        IllegalStateException e =
            assertThrows(IllegalStateException.class, () -> r.forEachRemaining(got::add));
        assertEquals("failed at " + failAt, e.getMessage());
      }
      assertEquals(IntStream.range(0, failAt).boxed().toList(), got);
    }
  }

  /** Closed early, while the source would go on for ever and the queue is full: the thread ends. */
  @Test
  void closingStopsTheReadingThread() throws Exception {
    AtomicLong produced = new AtomicLong();
    Iterator<Long> endless =
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            return true;
          }

          @Override
          public Long next() {
            return produced.getAndIncrement();
          }
        };
    ReadAhead<Long> r = new ReadAhead<>(endless, "webindex-check-read-test", 2);
    assertEquals(0L, r.next());
    assertEquals(1L, r.next());
    long until = System.nanoTime() + 5_000_000_000L;
    while (produced.get() < 3L * ReadAhead.BATCH && System.nanoTime() < until) {
      Thread.sleep(5); // the queue fills up
    }
    r.close();
    long after = produced.get();
    Thread.sleep(200);
    assertEquals(after, produced.get(), "nothing is read after close");
    assertTrue(
        Thread.getAllStackTraces().keySet().stream()
            .noneMatch(t -> t.isAlive() && t.getName().equals("webindex-check-read-test")));
  }
}
