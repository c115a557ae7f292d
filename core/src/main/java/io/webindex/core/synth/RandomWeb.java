package io.webindex.core.synth;

import io.webindex.core.json.PageJson;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.url.WebUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A randomized web for differential tests and demos: page versions over a small URL space with a
 * power-law choice of link targets (hot URIs), re-crawls with and without link changes, stale
 * versions, deletions (also of pages never crawled), duplicate and self links.
 */
public final class RandomWeb {
  private final Random rnd;
  private final List<String> urls = new ArrayList<>();
  private long clock;

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
    for (Page p : batch(batchNo, pages)) {
      out.computeIfAbsent(String.format("part-%05d.jsonl", i++ % files), k -> new StringBuilder())
          .append(PageJson.toInputLine(p))
          .append('\n');
    }
    Map<String, String> result = new TreeMap<>();
    out.forEach((k, v) -> result.put(k, v.toString()));
    return result;
  }

  /** The next batch of page versions (some stale, some deletions). */
  public List<Page> batch(long batchNo, int pages) {
    List<Page> out = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      String url = urls.get(rnd.nextInt(urls.size()));
      long t = rnd.nextInt(5) == 0 ? clock - rnd.nextInt(100) : clock++;
      // a few exact-time ties to exercise the batch/offset tie breaks
      Instant when = Instant.ofEpochSecond(1_700_000_000L + Math.max(0, t));
      PageVersion v = new PageVersion(when, batchNo, "part-" + (i % 2), i * 100L);
      out.add(rnd.nextInt(8) == 0 ? deletion(url, v) : page(url, v));
    }
    return out;
  }

  private Page deletion(String url, PageVersion v) {
    WebUrl u = WebUrl.of(url);
    return Page.deletion(u.toString(), u.key(), v);
  }

  private Page page(String url, PageVersion v) {
    WebUrl u = WebUrl.of(url);
    List<Link> links = new ArrayList<>();
    int n = rnd.nextInt(6);
    for (int k = 0; k < n; k++) {
      String target = rnd.nextInt(10) == 0 ? url : hotUrl();
      WebUrl t = WebUrl.of(target);
      links.add(new Link(t.toString(), t.key(), "anchor " + rnd.nextInt(3)));
      if (rnd.nextInt(6) == 0) {
        links.add(new Link(t.toString(), t.key(), "dup"));
      }
    }
    return Page.of(u.toString(), u.key(), v, "title " + rnd.nextInt(2), links);
  }
}
