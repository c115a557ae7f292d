package io.webindex.core.read;

import io.webindex.core.model.Page;

/** Receives what a reader produces: page versions, and rejects with their reasons. */
public interface PageSink {
  void page(Page page);

  void reject(Reject reject);
}
