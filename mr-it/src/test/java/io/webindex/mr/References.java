package io.webindex.mr;

import io.webindex.core.index.ReferenceIndex;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.store.RawPageStore;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/** The in-memory reference index of every batch <= snapshot of a raw page store. */
final class References {
  private References() {}

  static ReferenceIndex of(String storeRoot, long snapshot) throws IOException {
    ReferenceIndex ref = new ReferenceIndex();
    RawPageStore raw = new RawPageStore(storeRoot, new Configuration());
    PageSink sink =
        new PageSink() {
          @Override
          public void page(Page page) {
            ref.apply(page);
          }

          @Override
          public void reject(Reject reject) {}
        };
    for (RawPageStore.Batch b : raw.batches()) {
      if (b.seq() <= snapshot) {
        raw.read(b, ReadLimits.DEFAULT, new ReadStats(), sink);
      }
    }
    return ref;
  }
}
