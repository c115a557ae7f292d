package io.webindex.core.frontier;

import io.webindex.core.history.Schedule;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.util.Optional;

/**
 * The crawl frontier derived from the index (docs/semantics.md): every seen URI waits in the queue
 * of its host, due
 *
 * <ul>
 *   <li>at once (due 0) when it was never crawled and current pages link to it (urc &gt; 0);
 *   <li>at its schedule's next fetch when it was crawled — also when its newest crawl found it
 *       gone: a gone page is checked again at its next fetch like any page, and each further crawl
 *       that finds it gone is unchanged, so the schedule lengthens its interval up to the maximum;
 * </ul>
 *
 * with its urc as its priority. A URI neither crawled nor linked to is not in the frontier.
 */
public final class Frontiers {
  private Frontiers() {}

  /**
   * The frontier entry of a URI with {@code urc} and {@code schedule} (null: never crawled), if it
   * is in the frontier. A next fetch before 1970 is due at 0.
   *
   * @throws IllegalArgumentException when {@code uriKey} is not a URI key
   */
  public static Optional<FrontierEntry> entry(String uriKey, long urc, Schedule schedule) {
    return entry(
        uriKey, new FrontierInputs(urc, schedule == null ? null : schedule.nextFetchMillis()));
  }

  /** The frontier entry of a URI with {@code inputs}, if it is in the frontier. */
  public static Optional<FrontierEntry> entry(String uriKey, FrontierInputs inputs) {
    if (!inputs.crawled() && inputs.urc() <= 0) {
      return Optional.empty();
    }
    long due = inputs.crawled() ? Math.max(0, inputs.nextFetchMillis()) : 0;
    return Optional.of(new FrontierEntry(uriKey, queueOf(uriKey), due, Math.max(0, inputs.urc())));
  }

  /**
   * The queue of a URI: its URL's host (a lower-case name, a dotted IPv4 address or a bracketed
   * IPv6 address), without scheme or port, so that one host's http and https URLs and its ports
   * share one queue and one politeness delay.
   *
   * @throws IllegalArgumentException when {@code uriKey} is not a URI key
   */
  public static String queueOf(String uriKey) {
    try {
      return WebUrl.fromKey(uriKey).host();
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException("not a URI key: " + uriKey, e);
    }
  }

  /** The URL of a URI key, as the frontier hands it out. */
  public static String urlOf(String uriKey) {
    try {
      return WebUrl.fromKey(uriKey).toString();
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException("not a URI key: " + uriKey, e);
    }
  }
}
