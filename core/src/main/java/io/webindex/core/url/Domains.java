package io.webindex.core.url;

import crawlercommons.domains.EffectiveTldFinder;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The registrable domain of a host under the public-suffix list (crawler-commons' copy, ICANN and
 * private sections), reversed like a key: {@code www.bbc.co.uk} → {@code uk.co.bbc}. An IP host is
 * its own domain; a host that is itself a public suffix, or a single label, is its own domain; a
 * host under a TLD the list does not know follows the list's default rule ({@code *}): its last two
 * labels.
 */
public final class Domains {
  private Domains() {}

  /** The reversed registrable domain of {@code url}'s host. */
  public static String of(WebUrl url) {
    if (url.isIpLiteral()) {
      return url.host();
    }
    return WebUrl.reverseLabels(registrable(url.host()));
  }

  /** The reversed registrable domain of the host of a URI key. */
  public static String ofKey(String uriKey) {
    int h = WebUrl.plainHostEnd(uriKey);
    if (h >= 0) {
      return ofPlainHostKey(uriKey.substring(0, h));
    }
    try {
      return of(WebUrl.fromKey(uriKey));
    } catch (InvalidUrlException e) {
      throw new IllegalArgumentException("not a URI key: " + uriKey, e);
    }
  }

  /**
   * The domain of the host key of a plain key ({@link WebUrl#plainHostEnd}): a host name's reversed
   * labels, never an IP literal.
   */
  private static String ofPlainHostKey(String hostKey) {
    return WebUrl.reverseLabels(registrable(WebUrl.reverseLabels(hostKey)));
  }

  /**
   * {@link #ofKey} for the keys of one thread, remembering the domains of up to {@code hosts} hosts
   * (then it forgets them all and starts again): a URI key's domain is its host's, and a table
   * holds many URIs per host. The same answers, and the same refusals, as {@code ofKey}. The last
   * host is looked at first, without taking the host out of the key: keys that come host by host
   * (in key order, or in the check's fact join) ask each host once.
   */
  public static Function<String, String> remembering(int hosts) {
    return new Function<>() {
      private final Map<String, String> known = new HashMap<>();
      private String lastHost = "";
      private String lastDomain;

      @Override
      public String apply(String uriKey) {
        int h = WebUrl.plainHostEnd(uriKey);
        if (h < 0) {
          return ofKey(uriKey);
        }
        if (lastDomain != null && h == lastHost.length() && uriKey.startsWith(lastHost)) {
          return lastDomain;
        }
        String hostKey = uriKey.substring(0, h);
        String d = known.get(hostKey);
        if (d == null) {
          if (known.size() >= hosts) {
            known.clear();
          }
          d = ofPlainHostKey(hostKey);
          known.put(hostKey, d);
        }
        lastHost = hostKey;
        lastDomain = d;
        return d;
      }
    };
  }

  /**
   * A reversed domain as people write it: {@code uk.co.bbc} → {@code bbc.co.uk}. An IP host (a
   * dotted number, or a bracketed IPv6 literal) is not reversed.
   */
  public static String readable(String reversed) {
    if (reversed.startsWith("[")
        || reversed.chars().allMatch(c -> c == '.' || Character.isDigit(c))) {
      return reversed;
    }
    return WebUrl.reverseLabels(reversed);
  }

  /** The registrable domain of a normalised (ASCII, lower-case) host name, not reversed. */
  static String registrable(String host) {
    String assigned = EffectiveTldFinder.getAssignedDomain(host, true, false);
    if (assigned != null) {
      return assigned;
    }
    int lastDot = host.lastIndexOf('.');
    if (lastDot < 0) {
      return host;
    }
    String tld = host.substring(lastDot + 1);
    if (EffectiveTldFinder.getEffectiveTLDs().containsKey(tld)) {
      // the host is itself a public suffix (co.uk, pvt.k12.ma.us)
      return host;
    }
    int secondDot = host.lastIndexOf('.', lastDot - 1);
    return secondDot < 0 ? host : host.substring(secondDot + 1);
  }
}
