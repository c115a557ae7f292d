package io.webindex.core.synth;

import io.webindex.core.json.PageJson;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.url.WebUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A randomized web for differential tests and demos: page versions over a small URL space with a
 * power-law choice of link targets (hot URIs), re-crawls with and without link changes, stale
 * versions (also arriving in a later batch than a newer version of their URL), deletions (also of
 * pages never crawled), and, in the written input ({@link #batchFiles}), duplicate links with other
 * anchors and self links, left for the readers to drop.
 */
public final class RandomWeb {
  private final Random rnd;
  private final List<String> urls = new ArrayList<>();
  private long clock;

  /** The newest crawl time generated so far per URL. */
  private final Map<String, Long> newest = new HashMap<>();

  private boolean subMillisecond;

  public RandomWeb(long seed, int urlCount) {
    this.rnd = new Random(seed);
    String[] hosts = {
      "a.com",
      "www.a.com",
      "b.co.uk",
      "blog.b.co.uk",
      "c.org",
      "1.2.3.4",
      "d.net:8080",
      "https://e.io"
    };
    for (int i = 0; i < urlCount; i++) {
      String host = hosts[rnd.nextInt(hosts.length)];
      String scheme = host.startsWith("https://") ? "" : "http://";
      urls.add(scheme + host + (i % 5 == 0 ? "/" : "/p" + i));
    }
  }

  /**
   * Crawl instants with a sub-millisecond part from now on: each version's second gets 0, 0.4 or
   * 0.8 ms and some nanoseconds, so versions of one URL crawled in the same second also fall into
   * the same millisecond at different instants (one crawl per millisecond for the history, the
   * later instant winning) besides the exact ties. Off by default (crawl times in whole seconds).
   */
  public RandomWeb subMillisecondCrawls() {
    this.subMillisecond = true;
    return this;
  }

  private String hotUrl() {
    // power law: low indexes are picked far more often
    double u = rnd.nextDouble();
    int i = (int) Math.floor(Math.pow(u, 3) * urls.size());
    return urls.get(Math.min(i, urls.size() - 1));
  }

  /**
   * The next batch as JSON-lines input files: the batch's versions spread over {@code files} files.
   * Reading them back gives the versions with their real file names and offsets.
   */
  public Map<String, String> batchFiles(long batchNo, int pages, int files) {
    Map<String, StringBuilder> out = new TreeMap<>();
    int i = 0;
    for (Raw r : rawBatch(batchNo, pages)) {
      Page p = r.page();
      String line =
          p.deleted()
              ? PageJson.toInputLine(p)
              : PageJson.toInputLine(p.url(), p.version().crawled(), p.title(), r.rawLinks());
      out.computeIfAbsent(String.format("part-%05d.jsonl", i++ % files), k -> new StringBuilder())
          .append(line)
          .append('\n');
    }
    Map<String, String> result = new TreeMap<>();
    out.forEach((k, v) -> result.put(k, v.toString()));
    return result;
  }

  /**
   * A version as generated: the page (links deduplicated, self links dropped, as a reader yields
   * it) and the links as written to the input, duplicates and self links included.
   */
  private record Raw(Page page, List<Link> rawLinks) {}

  /** The next batch of page versions (some stale, some deletions). */
  public List<Page> batch(long batchNo, int pages) {
    return rawBatch(batchNo, pages).stream().map(Raw::page).toList();
  }

  private List<Raw> rawBatch(long batchNo, int pages) {
    List<Raw> out = new ArrayList<>();
    // URLs whose newest version so far came in an earlier batch, by that version's time
    List<String> earlier = new ArrayList<>(newest.keySet());
    Map<String, Long> newestBefore = new HashMap<>(newest);
    for (int i = 0; i < pages; i++) {
      String url;
      long t;
      if (!earlier.isEmpty() && rnd.nextInt(12) == 0) {
        // a version arriving in a later batch than a newer version of its URL: stale there
        url = earlier.get(rnd.nextInt(earlier.size()));
        t = newestBefore.get(url) - 1 - rnd.nextInt(20);
      } else {
        url = urls.get(rnd.nextInt(urls.size()));
        // some versions older than the clock (stale, or ties with an exact time), most new
        t = rnd.nextInt(5) == 0 ? Math.max(0, clock - rnd.nextInt(100)) : clock++;
      }
      newest.merge(url, t, Math::max);
      Instant when = Instant.ofEpochSecond(1_700_000_000L + t);
      if (subMillisecond && rnd.nextBoolean()) {
        when = when.plusNanos(rnd.nextInt(3) * 400_000L + rnd.nextInt(2) * 1_000L);
      }
      PageVersion v = new PageVersion(when, batchNo, "part-" + (i % 2), i * 100L);
      out.add(rnd.nextInt(8) == 0 ? deletion(url, v) : page(url, v));
    }
    return out;
  }

  private Raw deletion(String url, PageVersion v) {
    WebUrl u = WebUrl.of(url);
    return new Raw(Page.deletion(u.toString(), u.key(), v), List.of());
  }

  /**
   * A live version. Its written links hold self links (the page's URL, with a fragment, or a bare
   * fragment) and duplicates with another anchor (the same URL or with a fragment); the readers
   * must drop them, the first anchor winning.
   */
  private Raw page(String url, PageVersion v) {
    WebUrl u = WebUrl.of(url);
    List<Link> links = new ArrayList<>();
    int n = rnd.nextInt(6);
    for (int k = 0; k < n; k++) {
      boolean self = rnd.nextInt(10) == 0;
      String target = self ? url : hotUrl();
      WebUrl t = WebUrl.of(target);
      String written = t.toString();
      if (self) {
        int form = rnd.nextInt(3);
        written = form == 0 ? written : form == 1 ? written + "#top" : "#top";
      }
      links.add(new Link(written, t.key(), "anchor " + rnd.nextInt(3)));
      if (rnd.nextInt(6) == 0) {
        links.add(new Link(t.toString() + (rnd.nextBoolean() ? "" : "#dup"), t.key(), "dup"));
      }
    }
    return new Raw(Page.of(u.toString(), u.key(), v, "title " + rnd.nextInt(2), links), links);
  }
}
