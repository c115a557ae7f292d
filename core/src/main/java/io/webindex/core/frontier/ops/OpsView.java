package io.webindex.core.frontier.ops;

import java.util.Map;
import java.util.Objects;

/**
 * What the frontier service holds back of the index's own frontier (the {@code DEFAULT} crawl) at
 * an instant, as a listing of the next URLs due shows it: the URLs in flight (handed out, their
 * lease not ended) and the queues that hand out nothing (blocked until a later instant, or every
 * queue while the frontier is inactive).
 *
 * @param active whether the frontier hands out URLs ({@code SetActive})
 * @param queues the state of each queue that has one, by queue key (host)
 */
public record OpsView(boolean active, Map<String, QueueState> queues) {
  /** No operational state: nothing ever handed out, blocked or switched off. */
  public static final OpsView NONE = new OpsView(true, Map.of());

  public OpsView {
    queues = Map.copyOf(Objects.requireNonNull(queues, "queues"));
  }

  /** Whether the queue hands out nothing at {@code atMillis}: inactive frontier, or blocked. */
  public boolean held(String queue, long atMillis) {
    QueueState s = queues.getOrDefault(queue, QueueState.EMPTY);
    // delay and completed count 0: a listing shows what is due, not how soon a queue may be asked
    return QueueOps.eligibility(s, active, 0, 0, atMillis) != QueueOps.Eligibility.ELIGIBLE;
  }

  /** Whether the URI of the queue is in flight at {@code atMillis}. */
  public boolean inFlight(String queue, String uriKey, long atMillis) {
    QueueState s = queues.get(queue);
    Lease l = s == null ? null : s.leases().get(uriKey);
    return l != null && l.liveAt(atMillis);
  }

  /** The URLs in flight at {@code atMillis}, in every queue. */
  public long inFlight(long atMillis) {
    long n = 0;
    for (QueueState s : queues.values()) {
      n += s.leases().values().stream().filter(l -> l.liveAt(atMillis)).count();
    }
    return n;
  }

  /** The queues blocked at {@code atMillis} (a block lifts itself at its instant). */
  public long blockedQueues(long atMillis) {
    return queues.values().stream()
        .filter(s -> s.blockedUntilSeconds() != null && s.blockedUntilSeconds() * 1000 > atMillis)
        .count();
  }
}
