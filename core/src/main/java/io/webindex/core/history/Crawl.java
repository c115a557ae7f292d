package io.webindex.core.history;

import java.util.Objects;

/**
 * One entry of a URI's crawl history: the crawl time truncated to the millisecond, what it found,
 * the content signature of that version ({@link Signatures}; {@code ""} for a deletion) and the
 * number of distinct outlinks of that version (0 for a deletion).
 */
public record Crawl(long crawledMillis, CrawlStatus status, String signature, int outlinks) {
  public Crawl {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(signature, "signature");
    if (outlinks < 0) {
      throw new IllegalArgumentException("negative outlink count: " + outlinks);
    }
    if (status == CrawlStatus.GONE && (!signature.isEmpty() || outlinks != 0)) {
      throw new IllegalArgumentException("a gone crawl has no signature and no outlinks");
    }
    if (status == CrawlStatus.OK && signature.isEmpty()) {
      throw new IllegalArgumentException("a live crawl has a signature");
    }
    if (signature.indexOf(' ') >= 0 || signature.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a signature has no blanks: " + signature);
    }
  }

  public boolean gone() {
    return status == CrawlStatus.GONE;
  }
}
