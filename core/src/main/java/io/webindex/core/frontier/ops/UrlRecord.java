package io.webindex.core.frontier.ops;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a client put back about one URL of a queue (a {@code PutURLs} item), kept in the queue's
 * operational state.
 *
 * @param state discovered (a new URL, due at once), known (processed, due again at {@code
 *     dueMillis}) or completed (processed, never due again)
 * @param dueMillis for a known URL: when it is due again; for a discovered one: when it was put (it
 *     is served as due at once); for a completed one: 0
 * @param basisMillis the newest crawl of the URI in the served index's history when the record was
 *     written (null: never crawled); the record holds only while the index's newest crawl is still
 *     this one ({@link QueueOps#stale})
 * @param url the URL, as the frontier hands it out
 * @param metadata the client's metadata, handed back with the URL
 */
public record UrlRecord(
    State state, long dueMillis, Long basisMillis, String url, Map<String, List<String>> metadata) {
  /** The states a client can put a URL in. */
  public enum State {
    DISCOVERED("discovered"),
    KNOWN("known"),
    COMPLETED("completed");

    private final String code;

    State(String code) {
      this.code = code;
    }

    /** The word the operational table stores. */
    public String code() {
      return code;
    }

    /** The state of a stored word. */
    public static State ofCode(String code) {
      for (State s : values()) {
        if (s.code.equals(code)) {
          return s;
        }
      }
      throw new IllegalArgumentException("not a URL record state: " + code);
    }
  }

  public UrlRecord {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(url, "url");
    if (url.isEmpty()) {
      throw new IllegalArgumentException("an empty URL");
    }
    if (dueMillis < 0) {
      throw new IllegalArgumentException("a negative due time " + dueMillis);
    }
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    metadata.values().forEach(v -> Objects.requireNonNull(v, "metadata values"));
  }
}
