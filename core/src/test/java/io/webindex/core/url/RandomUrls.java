package io.webindex.core.url;

import java.util.Random;

/** Generates messy but mostly valid URLs for property tests. */
public final class RandomUrls {
  private static final String[] HOSTS = {
    "a.com", "www.a.com", "a-b.com", "ab.com", "b.co.uk", "www.b.co.uk", "c.org", "x.y.z.net",
    "1.2.3.4", "1.2.3.40", "[::1]", "[2001:db8::7]", "localhost", "bücher.de", "A.COM", "a0.com"
  };
  private static final String[] SEGMENTS = {
    "", "x", "page1", "a b", "%7e", "ü", "a:b", ".", "..", "index.html", "Q", "-", "~t", "%2F"
  };

  private RandomUrls() {}

  public static String url(Random rnd) {
    StringBuilder sb = new StringBuilder();
    int scheme = rnd.nextInt(4);
    sb.append(scheme == 0 ? "" : scheme == 1 ? "https://" : "http://");
    sb.append(HOSTS[rnd.nextInt(HOSTS.length)]);
    if (rnd.nextInt(5) == 0) {
      sb.append(':').append(new int[] {80, 443, 8080, 8443}[rnd.nextInt(4)]);
    }
    int segs = rnd.nextInt(4);
    for (int i = 0; i < segs; i++) {
      sb.append('/').append(SEGMENTS[rnd.nextInt(SEGMENTS.length)]);
    }
    if (rnd.nextInt(4) == 0) {
      sb.append("?q=").append(rnd.nextInt(3)).append(rnd.nextBoolean() ? "&r=a b" : "");
    }
    if (rnd.nextInt(6) == 0) {
      sb.append("#f");
    }
    return sb.toString();
  }
}
