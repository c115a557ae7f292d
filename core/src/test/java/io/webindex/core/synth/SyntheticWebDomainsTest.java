package io.webindex.core.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The synthetic web's domain count: the default unchanged, a chosen one kept to. */
class SyntheticWebDomainsTest {
  @Test
  void noDomainCountIsTheDefault() {
    SyntheticWeb before = new SyntheticWeb(1, 4_000, 200);
    SyntheticWeb zero = new SyntheticWeb(1, 4_000, 200, 0);
    assertEquals(100, zero.domains());
    for (long i = 0; i < 6_001; i++) {
      assertEquals(before.url(i), zero.url(i));
    }
  }

  @Test
  void urlsSpreadOverTheDomainsAskedFor() {
    SyntheticWeb web = new SyntheticWeb(1, 4_000, 200, 30);
    Set<String> sites = new HashSet<>();
    Set<String> hosts = new HashSet<>();
    for (long i = 0; i < 6_001; i++) {
      String host = URI.create(web.url(i)).getHost();
      hosts.add(host);
      // siteN.<suffix>, or an IP host 10.x.y.z for a few domains
      for (String label : host.split("\\.")) {
        if (label.startsWith("site")) {
          sites.add(label);
        }
      }
    }
    // domain 7 (7 % 101) is an IP host: the other 29 carry their site label
    assertEquals(29, sites.size(), sites.toString());
    assertTrue(hosts.size() <= 30 * 4, hosts.toString());
    assertTrue(hosts.size() > 30, hosts.toString());
  }

  @Test
  void aNegativeDomainCountIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new SyntheticWeb(1, 10, 1, -1));
  }
}
