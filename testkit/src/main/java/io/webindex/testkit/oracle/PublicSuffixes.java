package io.webindex.testkit.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The public-suffix algorithm (publicsuffix.org "Formal algorithm"), implemented here on the same
 * data file core's library uses: crawler-commons' bundled {@code effective_tld_names.dat}, ICANN
 * and private sections both (so {@code github.io} and {@code blogspot.com} are suffixes, as
 * docs/semantics.md says). Only the data is shared; the matching is this class's own.
 */
final class PublicSuffixes {
  private static final String RESOURCE = "/effective_tld_names.dat";
  private static final PublicSuffixes LIST = load();

  private final Set<String> rules = new HashSet<>();
  private final Set<String> wildcards = new HashSet<>();
  private final Set<String> exceptions = new HashSet<>();

  private PublicSuffixes() {}

  private static PublicSuffixes load() {
    PublicSuffixes l = new PublicSuffixes();
    try (InputStream in = PublicSuffixes.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path (crawler-commons)");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null) {
        String rule = line.strip();
        int space = rule.indexOf(' ');
        if (space >= 0) {
          rule = rule.substring(0, space);
        }
        if (rule.isEmpty() || rule.startsWith("//")) {
          continue;
        }
        if (rule.startsWith("!")) {
          l.exceptions.add(ascii(rule.substring(1)));
        } else if (rule.startsWith("*.")) {
          l.wildcards.add(ascii(rule.substring(2)));
        } else {
          l.rules.add(ascii(rule));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return l;
  }

  private static String ascii(String name) {
    return IDN.toASCII(name, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
  }

  /** The registrable domain of a lower-case ASCII host name (not reversed). */
  static String registrable(String host) {
    String[] labels = host.split("\\.");
    int n = labels.length;
    if (n == 1) {
      return host;
    }
    // the public suffix: the longest matching rule, an exception rule winning; default rule "*"
    int suffixLabels = 1;
    for (int k = 1; k <= n; k++) {
      String tail = join(labels, n - k);
      if (LIST.exceptions.contains(tail)) {
        suffixLabels = k - 1;
        break;
      }
      if (LIST.rules.contains(tail)) {
        suffixLabels = Math.max(suffixLabels, k);
      }
      if (k < n && LIST.wildcards.contains(tail)) {
        suffixLabels = Math.max(suffixLabels, k + 1);
      }
    }
    if (suffixLabels >= n) {
      return host; // the host is itself a public suffix
    }
    return join(labels, n - suffixLabels - 1);
  }

  private static String join(String[] labels, int from) {
    return String.join(".", java.util.Arrays.copyOfRange(labels, from, labels.length));
  }
}
