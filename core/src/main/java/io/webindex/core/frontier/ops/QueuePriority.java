package io.webindex.core.frontier.ops;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What puts one queue before another in a {@code GetURLs} pass ({@code webindex.frontier.priority},
 * docs/frontier.md): the criteria in the configured order, each comparing the queues' heads (their
 * first URL due). Every queue visited has its head due; ties left by every criterion go by queue
 * key, then crawl id.
 */
public enum QueuePriority {
  /** The most overdue head first (a URL never crawled is due since 1970). */
  DUE(Comparator.comparingLong(h -> h.head().dueMillis())),
  /** The head referenced by the most current pages (its urc) first. */
  URC(Comparator.comparingLong((QueueHead h) -> h.head().urc()).reversed()),
  /** The queue whose domain has the most pages in the index first (the domain's standing). */
  DOMAIN(Comparator.comparingLong(QueueHead::domainPages).reversed());

  /** The default order: overdue first, then by urc, then by the domain's standing. */
  public static final List<QueuePriority> DEFAULT = List.of(DUE, URC, DOMAIN);

  private final Comparator<QueueHead> order;

  QueuePriority(Comparator<QueueHead> order) {
    this.order = order;
  }

  /** The order of queues by {@code criteria}, then queue key, then crawl id. */
  public static Comparator<QueueHead> order(List<QueuePriority> criteria) {
    Comparator<QueueHead> c = (a, b) -> 0;
    for (QueuePriority p : criteria) {
      c = c.thenComparing(p.order);
    }
    return c.thenComparing(QueueHead::queue).thenComparing(QueueHead::crawl);
  }

  /**
   * Parses a comma-separated list of criteria ({@code due}, {@code urc}, {@code domain}), each at
   * most once, at least one.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static List<QueuePriority> parse(String text) {
    List<QueuePriority> out = new ArrayList<>();
    Set<QueuePriority> seen = EnumSet.noneOf(QueuePriority.class);
    for (String part : text.split(",", -1)) {
      String name = part.strip().toUpperCase(Locale.ROOT);
      QueuePriority p;
      try {
        p = valueOf(name);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "'" + part.strip() + "' is not a criterion (due, urc, domain): " + text);
      }
      if (!seen.add(p)) {
        throw new IllegalArgumentException("'" + part.strip() + "' twice: " + text);
      }
      out.add(p);
    }
    return List.copyOf(out);
  }

  /** The criteria as {@link #parse} reads them. */
  public static String format(List<QueuePriority> criteria) {
    StringBuilder sb = new StringBuilder();
    for (QueuePriority p : criteria) {
      sb.append(sb.length() == 0 ? "" : ",").append(p.name().toLowerCase(Locale.ROOT));
    }
    return sb.toString();
  }
}
