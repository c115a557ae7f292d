package io.webindex.check.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.webindex.core.url.Domains;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The domains the two tables' joins share: always the domain of the key. */
@Timeout(60)
class SharedDomainsTest {
  @Test
  void theFirstJoinComputesTheDomainAndTheSecondTakesItAway() {
    SharedDomains d = new SharedDomains();
    // hand-checked: the registrable domain under the public-suffix list, reversed
    List<String> keys = List.of("com.a/page1", "uk.co.bbc.www/news", "1.2.3.4:8080/x", "io.e:s");
    List<String> domains = List.of("com.a", "uk.co.bbc", "1.2.3.4", "io.e");
    for (int i = 0; i < keys.size(); i++) {
      assertEquals(domains.get(i), d.apply(keys.get(i)), keys.get(i));
    }
    assertEquals(4, d.size(), "left for the other table's join");
    for (int i = keys.size() - 1; i >= 0; i--) {
      assertEquals(domains.get(i), d.apply(keys.get(i)), keys.get(i));
    }
    assertEquals(0, d.size(), "taken away");
    assertEquals("com.a", d.apply("com.a/page1"), "a third time: computed again");
  }

  @Test
  void aMalformedKeyIsMalformedForBothJoins() {
    SharedDomains d = new SharedDomains();
    assertThrows(IllegalArgumentException.class, () -> d.apply("com.a:x/"));
    assertEquals(1, d.size());
    IllegalArgumentException second =
        assertThrows(IllegalArgumentException.class, () -> d.apply("com.a:x/"));
    assertEquals("not a URI key: com.a:x/", second.getMessage());
    assertEquals(0, d.size());
  }

  @Test
  void keysOnlyOneTableHasAreForgottenAtTheLimit() {
    SharedDomains d = new SharedDomains();
    for (int i = 0; i < SharedDomains.LIMIT; i++) {
      d.apply("com.a/p" + i);
    }
    assertEquals(SharedDomains.LIMIT, d.size());
    assertEquals("org.c", d.apply("org.c/q"));
    assertEquals(1, d.size(), "emptied, then the new key left");
    assertEquals("com.a", d.apply("com.a/p0"), "forgotten: computed again");
  }

  /** Two joins in two threads over the same keys, in the same order: every answer is right. */
  @Test
  void twoJoinsInTwoThreadsGetEveryDomainRight() throws Exception {
    Random r = new Random(7);
    String[] hosts = {
      "com.a", "uk.co.b.blog", "org.c", "1.2.3.4", "net.d:8080", "io.e:s", "com.a:x"
    };
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      keys.add(hosts[r.nextInt(hosts.length)] + "/p" + r.nextInt(5000));
    }
    List<String> want = new ArrayList<>();
    for (String k : keys) {
      want.add(domainOrMalformed(k, Domains::ofKey));
    }
    SharedDomains d = new SharedDomains();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<String>>> got = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        got.add(
            pool.submit(
                () -> {
                  List<String> out = new ArrayList<>();
                  for (String k : keys) {
                    out.add(domainOrMalformed(k, d));
                  }
                  return out;
                }));
      }
      for (Future<List<String>> f : got) {
        assertEquals(want, f.get(50, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static String domainOrMalformed(
      String key, java.util.function.Function<String, String> f) {
    try {
      return f.apply(key);
    } catch (IllegalArgumentException e) {
      return "malformed";
    }
  }
}
