package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.accumulo.core.client.AccumuloException;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.junit.jupiter.api.Test;

/** The retry of an operation on a table the client does not know yet (no cluster). */
class BulkImportTest {

  @Test
  void anOperationThatMissesTheTableAFewTimesIsTriedAgainUntilItSucceeds() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    BulkImport.onFreshTable(
        () -> {
          if (calls.incrementAndGet() < 4) {
            throw new TableNotFoundException(null, "t", "not yet");
          }
        },
        Duration.ofSeconds(10));
    assertEquals(4, calls.get());
  }

  @Test
  void aTableThatStaysUnknownFailsWithTheLastMissAfterTheWait() {
    AtomicInteger calls = new AtomicInteger();
    long start = System.nanoTime();
    TableNotFoundException e =
        missing(
            () -> {
              throw new TableNotFoundException(null, "t", "miss " + calls.incrementAndGet());
            },
            Duration.ofMillis(350));
    long waitedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(waitedMs >= 350, "waited " + waitedMs + " ms");
    assertTrue(calls.get() >= 4 && calls.get() <= 6, "calls " + calls.get());
    assertTrue(e.getMessage().contains("miss " + calls.get()), e.getMessage());
  }

  @Test
  void otherFailuresAreNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    AccumuloException refused = new AccumuloException("refused");
    AccumuloException e =
        assertThrows(
            AccumuloException.class,
            () ->
                BulkImport.onFreshTable(
                    () -> {
                      calls.incrementAndGet();
                      throw refused;
                    },
                    Duration.ofSeconds(10)));
    assertSame(refused, e);
    assertEquals(1, calls.get());
  }

  @Test
  void anInterruptStopsTheWaitAndStaysSet() {
    Thread.currentThread().interrupt();
    AtomicInteger calls = new AtomicInteger();
    TableNotFoundException e =
        missing(
            () -> {
              calls.incrementAndGet();
              throw new TableNotFoundException(null, "t", "not yet");
            },
            Duration.ofSeconds(10));
    assertTrue(Thread.interrupted(), "the interrupt is kept");
    assertEquals(1, calls.get());
    assertEquals(1, e.getSuppressed().length);
  }

  /** What {@code op}, retried for up to {@code within}, fails with in the end. */
  private static TableNotFoundException missing(
      BulkImport.TableOp<RuntimeException> op, Duration within) {
    return assertThrows(TableNotFoundException.class, () -> BulkImport.onFreshTable(op, within));
  }
}
