package io.webindex.core.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Releasing the URL cache changes no output: every URL and batch line is made again the same. */
class SyntheticWebCacheTest {
  @Test
  void aReleasedCacheMakesTheSameUrlsAndBatches() {
    SyntheticWeb released = new SyntheticWeb(3, 2_000, 100);
    SyntheticWeb fresh = new SyntheticWeb(3, 2_000, 100);
    // batch 0 fills the cache, as gen and the bench write it
    String batch0 = lines(released, 0);
    released.releaseCache();
    assertEquals(lines(fresh, 0), batch0);
    for (int batch = 0; batch <= 2; batch++) {
      assertEquals(lines(fresh, batch), lines(released, batch), "batch " + batch);
    }
    for (long i = 0; i < 3_001; i++) {
      assertEquals(fresh.url(i), released.url(i), "URL " + i);
    }
  }

  private static String lines(SyntheticWeb web, int batch) {
    StringBuilder all = new StringBuilder();
    for (int n = 0; n < web.batchSize(batch); n++) {
      web.writeVersion(batch, n, all);
    }
    return all.toString();
  }
}
