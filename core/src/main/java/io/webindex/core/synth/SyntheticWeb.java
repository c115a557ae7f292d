package io.webindex.core.synth;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A reproducible synthetic web for benchmarks ({@code bin/webindex gen}): page JSON lines
 * (docs/input.md) written straight from a seed, so any page of any batch can be produced on its
 * own, in any order and in parallel, with the same bytes every time.
 *
 * <p>The shape: a URI space of {@code 1.5 × pages} URIs, of which the first {@code pages} are
 * crawled in batch 0 (the rest are link targets that are never crawled until a delta adds them as
 * new pages). URIs spread over about {@code pages / 40} registrable domains (or as many as asked
 * for) whose sizes follow a power law, under ICANN suffixes with one and two labels ({@code com},
 * {@code co.uk}, {@code com.au}, …) and a private one ({@code github.io}); a domain's pages sit on
 * its bare host, {@code www.} and other subdomains; a few domains are IP hosts, use a port or
 * https. Out-degrees are exponential around {@link #MEAN_OUT_DEGREE}; link targets follow a power
 * law over the URI space (target {@code ⌊M·u³⌋} for uniform {@code u}), so the first URIs — the
 * domains' front pages — hold a large share of all inlinks: about {@code M^(-1/3)} of all links
 * point at the hottest one. Anchors are drawn from a small vocabulary (some empty); links are
 * written raw: a few duplicates with another anchor and a few self links, as crawlers report them.
 *
 * <p>Delta batch {@code d} (1, 2, …) has {@code deltaPages} versions: 60 % re-crawls of crawled
 * pages with new links, 15 % new pages, 10 % deletions, 10 % stale versions (crawled before the
 * initial crawl, so they must lose), 5 % re-crawls with the links unchanged. Crawl times grow with
 * the batch, so later deltas win over earlier ones.
 */
public final class SyntheticWeb {
  /** The mean number of links a page carries (before dedup). */
  public static final double MEAN_OUT_DEGREE = 14.5;

  private static final int MAX_OUT_DEGREE = 400;
  private static final int MAX_CACHED_URLS = 4_000_000;
  private static final long T0 = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond();
  private static final String[] SUFFIXES = {
    "com", "org", "net", "co.uk", "de", "com.au", "io", "github.io", "fr", "org.uk"
  };
  private static final String[] SUBDOMAINS = {"blog", "shop", "en", "m", "docs", "news"};
  private static final String[] WORDS = {
    "home", "news", "about", "contact", "products", "blog", "search", "the", "best", "guide",
    "review", "download", "login", "help", "archive", "photos", "video", "more", "read", "page",
    "data", "web", "index", "links", "open", "source", "world", "today", "free", "new"
  };

  /** Anchor texts: one in eight empty, the others one to three words. */
  private static final String[] ANCHORS = anchors();

  private final long seed;
  private final int pages;
  private final long uriSpace;
  private final int domains;
  private final int deltaPages;

  private static final AtomicReferenceArray<String> NO_CACHE = new AtomicReferenceArray<>(0);

  /**
   * URLs already made: link targets repeat (a power law), and making one is the hot spot. Up to
   * {@value #MAX_CACHED_URLS} of them, about 300 MB of heap at 10M pages; {@link #releaseCache}
   * lets them go.
   */
  private volatile AtomicReferenceArray<String> cache;

  /**
   * @param seed the seed: equal seeds and sizes give equal output
   * @param pages pages crawled in batch 0
   * @param deltaPages versions in each delta batch
   */
  public SyntheticWeb(long seed, int pages, int deltaPages) {
    this(seed, pages, deltaPages, 0);
  }

  /**
   * @param seed the seed: equal seeds, sizes and domain counts give equal output
   * @param pages pages crawled in batch 0
   * @param deltaPages versions in each delta batch
   * @param domains registrable domains (0: the default, {@link #defaultDomains} of {@code pages})
   */
  public SyntheticWeb(long seed, int pages, int deltaPages, int domains) {
    if (domains < 0) {
      throw new IllegalArgumentException("domains must not be negative: " + domains);
    }
    if (pages < 1) {
      throw new IllegalArgumentException("pages must be at least 1: " + pages);
    }
    if (deltaPages < 1) {
      throw new IllegalArgumentException("delta pages must be at least 1: " + deltaPages);
    }
    this.seed = seed;
    this.pages = pages;
    this.uriSpace = pages + pages / 2L + 1;
    this.domains = domains == 0 ? defaultDomains(pages) : domains;
    this.deltaPages = deltaPages;
    this.cache = new AtomicReferenceArray<>((int) Math.min(uriSpace, MAX_CACHED_URLS));
  }

  /** The registrable domains of a web of {@code pages} pages unless told otherwise. */
  public static int defaultDomains(int pages) {
    return Math.max(4, pages / 40);
  }

  /** The registrable domains the URIs spread over. */
  public int domains() {
    return domains;
  }

  public int pages() {
    return pages;
  }

  public int deltaPages() {
    return deltaPages;
  }

  /** The number of versions in batch {@code batch} (0 = the initial crawl). */
  public int batchSize(int batch) {
    return batch == 0 ? pages : deltaPages;
  }

  /** The URL of URI number {@code i} of the URI space (a pure function of the seed and i). */
  public String url(long i) {
    AtomicReferenceArray<String> c = cache;
    if (i < c.length()) {
      String u = c.getPlain((int) i);
      if (u == null) {
        u = makeUrl(i);
        c.setPlain((int) i, u); // benign race: every thread computes the same string
      }
      return u;
    }
    return makeUrl(i);
  }

  /**
   * Lets go of the URLs made so far and caches none from now on: for a caller that keeps this web
   * after writing its large batch, so that the heap of whatever runs next in the same JVM does not
   * carry them (a bench's recompute). Every URL is made again as before, the same string.
   */
  public void releaseCache() {
    cache = NO_CACHE;
  }

  private String makeUrl(long i) {
    SplittableRandom r = random(0x5eedL, i);
    int domain = i < domains ? (int) i : (int) Math.floor(domains * Math.pow(r.nextDouble(), 2));
    String registrable = "site" + Integer.toString(domain, 36) + "." + SUFFIXES[domain % 10];
    StringBuilder sb = new StringBuilder(64);
    boolean ip = domain % 101 == 7;
    sb.append(domain % 7 == 3 ? "https://" : "http://");
    if (ip) {
      sb.append("10.").append(domain >> 16 & 255).append('.').append(domain >> 8 & 255).append('.');
      sb.append(domain & 255);
    } else {
      int form = i < domains ? 0 : r.nextInt(10);
      if (form < 5) {
        sb.append("www.");
      } else if (form < 7) {
        sb.append(SUBDOMAINS[(domain + form) % SUBDOMAINS.length]).append('.');
      }
      sb.append(registrable);
    }
    if (domain % 89 == 5) {
      sb.append(":8080");
    }
    if (i < domains) {
      return sb.append('/').toString();
    }
    sb.append('/').append(WORDS[r.nextInt(WORDS.length)]).append('/');
    sb.append(Long.toString(i, 36));
    if (r.nextInt(4) == 0) {
      sb.append(".html");
    } else if (r.nextInt(8) == 0) {
      sb.append("?id=").append(r.nextInt(1000));
    }
    return sb.toString();
  }

  /**
   * Appends version {@code n} of batch {@code batch} ({@code 0 ≤ n < batchSize(batch)}) as one JSON
   * line (with its newline). Every string the generator makes is printable ASCII without quotes or
   * backslashes (URLs, words, digits), so it is written as it is, with no escaping.
   *
   * @return the number of links written (duplicates and self links included; 0 for a deletion)
   */
  public int writeVersion(int batch, int n, StringBuilder line) {
    if (batch < 0 || n < 0 || n >= batchSize(batch)) {
      throw new IllegalArgumentException("no version " + n + " in batch " + batch);
    }
    long uri;
    long crawled;
    long linkSalt;
    boolean deleted = false;
    if (batch == 0) {
      uri = n;
      crawled = T0 + n;
      linkSalt = 0;
    } else {
      SplittableRandom r = random(batch, n);
      int kind = r.nextInt(100);
      long later = T0 + 2L * pages + (long) batch * deltaPages + n;
      if (kind < 60) { // a re-crawl with new links
        uri = r.nextLong(pages);
        crawled = later;
        linkSalt = batch;
      } else if (kind < 75) { // a new page: URIs past the initial crawl, each delta its own
        uri = pages + ((long) (batch - 1) * deltaPages + n) % (uriSpace - pages);
        crawled = later;
        linkSalt = batch;
      } else if (kind < 85) {
        uri = r.nextLong(pages);
        crawled = later;
        linkSalt = batch;
        deleted = true;
      } else if (kind < 95) { // stale: crawled before the initial crawl
        uri = r.nextLong(pages);
        crawled = T0 - 1 - r.nextInt(1_000_000);
        linkSalt = -batch;
      } else { // re-crawled, links as in batch 0
        uri = r.nextLong(pages);
        crawled = later;
        linkSalt = 0;
      }
    }
    String url = url(uri);
    line.append("{\"url\":\"").append(url).append("\",\"crawled\":\"");
    line.append(Instant.ofEpochSecond(crawled)).append('"');
    int links = 0;
    if (deleted) {
      line.append(",\"deleted\":true");
    } else {
      line.append(",\"title\":\"Page ").append(Long.toString(uri, 36)).append("\",\"links\":[");
      links = writeLinks(line, uri, url, linkSalt);
      line.append(']');
    }
    line.append("}\n");
    return links;
  }

  private int writeLinks(StringBuilder line, long uri, String self, long salt) {
    SplittableRandom r = random(0x11ff0000L + salt, uri);
    int degree =
        (int) Math.min(MAX_OUT_DEGREE, Math.floor(-Math.log(1 - r.nextDouble()) * MEAN_OUT_DEGREE));
    String previous = null;
    for (int k = 0; k < degree; k++) {
      int roll = r.nextInt(100);
      String target;
      if (roll < 3 && previous != null) {
        target = previous; // a duplicate, usually with another anchor
      } else if (roll < 4) {
        target = self;
      } else if (roll < 20) {
        // near neighbours: pages of one site tend to link each other
        target = url(Math.floorMod(uri + r.nextInt(64) - 32, uriSpace));
      } else {
        target = url((long) Math.floor(uriSpace * Math.pow(r.nextDouble(), 3)));
      }
      if (k > 0) {
        line.append(',');
      }
      line.append("{\"url\":\"").append(target).append("\",\"anchor\":\"");
      line.append(ANCHORS[r.nextInt(ANCHORS.length)]).append("\"}");
      previous = target;
    }
    return degree;
  }

  private static String[] anchors() {
    List<String> out = new ArrayList<>();
    for (String a : WORDS) {
      out.add(a);
      for (String b : WORDS) {
        out.add(a + " " + b);
        out.add(a + " " + b + " " + WORDS[(a.length() * 7 + b.length()) % WORDS.length]);
      }
    }
    int empty = out.size() / 7;
    for (int i = 0; i < empty; i++) {
      out.add("");
    }
    return out.toArray(new String[0]);
  }

  private SplittableRandom random(long stream, long i) {
    return new SplittableRandom(mix(seed * 0x9E3779B97F4A7C15L + stream * 0xC2B2AE3D27D4EB4FL + i));
  }

  /** A 64-bit finaliser (Stafford's mix 13) so that neighbouring inputs give unrelated seeds. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
