package io.webindex.core.model;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where and when one version of a page was seen. Versions of one URL are totally ordered: the later
 * crawl time wins; on a tie the later batch, then the later file of the batch (by name), then the
 * later byte offset in that file. Both engines order versions only with {@link #compareTo}.
 */
public record PageVersion(Instant crawled, long batch, String file, long offset)
    implements Comparable<PageVersion> {

  private static final Comparator<PageVersion> ORDER =
      Comparator.comparing(PageVersion::crawled)
          .thenComparingLong(PageVersion::batch)
          .thenComparing(PageVersion::file)
          .thenComparingLong(PageVersion::offset);

  public PageVersion {
    Objects.requireNonNull(crawled, "crawled");
    Objects.requireNonNull(file, "file");
  }

  @Override
  public int compareTo(PageVersion o) {
    return ORDER.compare(this, o);
  }

  /** True when this version replaces {@code current} (null = nothing known yet). */
  public boolean supersedes(PageVersion current) {
    return current == null || compareTo(current) > 0;
  }
}
