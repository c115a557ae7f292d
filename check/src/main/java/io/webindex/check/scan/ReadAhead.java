package io.webindex.check.scan;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An iterator read ahead in a thread of its own, in batches: what turns a table's entries into
 * cells (reading the files, decoding the cells) runs beside what compares them. What the source
 * throws is thrown by {@link #hasNext} after the elements read before it. {@link #close} stops the
 * reading thread and waits for it to end (the source may then be closed); the source is not closed
 * here.
 */
final class ReadAhead<T> implements Iterator<T>, AutoCloseable {
  static final int BATCH = 1024;
  private static final Object[] END = new Object[0];

  private final BlockingQueue<Object[]> queue;
  private final Thread thread;
  private volatile boolean stop;
  private volatile Throwable failure;
  private Object[] batch = new Object[0];
  private int i;
  private boolean ended;

  /**
   * Starts reading {@code source} in a daemon thread named {@code name}, up to {@code batches}
   * batches ahead.
   */
  ReadAhead(Iterator<T> source, String name, int batches) {
    this.queue = new ArrayBlockingQueue<>(batches);
    this.thread = new Thread(() -> read(source), name);
    thread.setDaemon(true);
    thread.start();
  }

  private void read(Iterator<T> source) {
    Object[] b = new Object[BATCH];
    int n = 0;
    try {
      while (!stop && source.hasNext()) {
        T x = source.next(); // (in b[n++] = next(), n would count an element that failed)
        b[n++] = x;
        if (n == BATCH) {
          put(b);
          b = new Object[BATCH];
          n = 0;
        }
      }
      if (n > 0) {
        put(Arrays.copyOf(b, n));
        n = 0;
      }
    } catch (Throwable e) {
      failure = e;
    } finally {
      try {
        if (n > 0) {
          put(Arrays.copyOf(b, n)); // what was read before a failure too
        }
      } catch (Throwable e) {
        if (failure == null) {
          failure = e;
        }
      } finally {
        try {
          put(END);
        } catch (InterruptedException e) {
          // nobody waits for the end
        }
      }
    }
  }

  /** Puts a batch on the queue, unless closed meanwhile. */
  private void put(Object[] b) throws InterruptedException {
    while (!stop && !queue.offer(b, 100, TimeUnit.MILLISECONDS)) {
      // the comparison is slower: wait for room
    }
  }

  @Override
  public boolean hasNext() {
    while (!ended && i == batch.length) {
      try {
        batch = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
      i = 0;
      if (batch == END) {
        ended = true;
      }
    }
    if (ended) {
      Thrown.rethrow(failure);
      return false;
    }
    return true;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return (T) batch[i++];
  }

  /** Stops the reading thread and waits until it has ended. */
  @Override
  public void close() {
    stop = true;
    boolean interrupted = false;
    while (thread.isAlive()) {
      queue.clear();
      try {
        thread.join(100);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
