package io.webindex.core.model;

import java.util.Objects;

/** One outgoing link of a page: the normalised target URL, its URI key and the anchor text. */
public record Link(String url, String key, String anchor) {
  public Link {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(anchor, "anchor");
  }
}
