package io.webindex.check.scan;

import io.webindex.check.engine.Exclusions;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.read.PageSink;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.ReadStats;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import io.webindex.store.RawPageStore;
import io.webindex.store.StoreException;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.client.TableNotFoundException;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.security.Authorizations;

/**
 * What batches newer than a batch run's snapshot may have changed in the Fluo-maintained table, so
 * the check skips it (docs/check.md: differences caused only by newer batches are not
 * inconsistencies). Touched URIs: every page of those batches, every link target of theirs, and
 * every link target of the version the batch run had for those pages (its {@code page:cur}).
 */
public final class SnapshotExclusions {
  private SnapshotExclusions() {}

  public static Exclusions compute(
      Connector conn,
      String batchTable,
      RawPageStore store,
      long snapshot,
      long applied,
      ReadLimits limits)
      throws IOException {
    if (applied <= snapshot) {
      return Exclusions.NONE;
    }
    Set<String> uris = new HashSet<>();
    Set<String> pages = new HashSet<>();
    // the batches the application applied after the snapshot: the loader reads them in order,
    // without gaps, from the snapshot on
    for (RawPageStore.Batch b : store.batchesAfter(snapshot)) {
      if (b.seq() <= applied) {
        store.read(
            b,
            limits,
            new ReadStats(),
            new PageSink() {
              @Override
              public void page(Page p) {
                pages.add(p.key());
                uris.add(p.key());
                for (Link l : p.links()) {
                  uris.add(l.key());
                }
              }

              @Override
              public void reject(Reject r) {}
            });
      }
    }
    try (Scanner s = conn.createScanner(batchTable, Authorizations.EMPTY)) {
      for (String uri : pages) {
        s.setRange(
            Range.exact(QuerySchema.pageRow(uri), QuerySchema.FAM_PAGE, QuerySchema.QUAL_CUR));
        for (Map.Entry<Key, Value> e : s) {
          for (String url : PageJson.outlinkUrls(e.getValue().toString())) {
            try {
              uris.add(WebUrl.parse(url).key());
            } catch (InvalidUrlException ex) {
              // a damaged page:cur: the check reports it
            }
          }
        }
      }
    } catch (TableNotFoundException e) {
      throw new StoreException("no table " + batchTable, e);
    }
    Set<String> domains = new HashSet<>();
    for (String u : uris) {
      try {
        domains.add(Domains.ofKey(u));
      } catch (IllegalArgumentException e) {
        // not a key: nothing of it is in the table
      }
    }
    return new Exclusions(uris, domains);
  }
}
