package io.webindex.web;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.webindex.store.FrontierQuery.FrontierAnswer;
import io.webindex.store.QueryService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The frontier's answers of {@code /frontier} and {@code /api/v1/frontier}, computed at most once
 * per {@link #WINDOW_MILLIS} for one question: one answer scans the whole frontier table (seconds
 * on a large index), so a public endpoint must not do it per request (docs/web.md). A question
 * without an instant is answered as of the start of the current window (at most {@value
 * #WINDOW_MILLIS} ms ago); one with an instant as of that instant. Concurrent requests for one
 * question wait for one scan.
 */
final class FrontierAnswers {
  static final long WINDOW_MILLIS = 10_000;

  private record Question(String table, long atMillis, int limit, int perHost) {}

  private final Cache<Question, FrontierAnswer> answers =
      CacheBuilder.newBuilder()
          .maximumSize(64)
          .expireAfterWrite(WINDOW_MILLIS, TimeUnit.MILLISECONDS)
          .build();
  private final LongSupplier clock;

  FrontierAnswers(LongSupplier clock) {
    this.clock = clock;
  }

  /** The answer for {@code atMillis} (null: now, as of the current window's start). */
  FrontierAnswer answer(QueryService q, String opsTable, Long atMillis, int limit, int perHost) {
    long at = atMillis != null ? atMillis : clock.getAsLong() / WINDOW_MILLIS * WINDOW_MILLIS;
    try {
      return answers.get(
          new Question(q.table(), at, limit, perHost),
          () -> q.frontier(at, limit, perHost, opsTable));
    } catch (ExecutionException | UncheckedExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
