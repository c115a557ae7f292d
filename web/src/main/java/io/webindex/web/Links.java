package io.webindex.web;

import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Pieces of the links the answers carry: encoded parameters, readable domains, hosts. */
final class Links {
  private Links() {}

  /** {@code s} encoded for a query parameter or path segment. */
  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** A domain for people: {@code c.com}, not {@code com.c}. */
  static String readableDomain(String reversed) {
    return Domains.readable(reversed);
  }

  /** The host of {@code url}, or null when it does not parse. */
  static String hostOf(String url) {
    try {
      return WebUrl.parse(url).host();
    } catch (InvalidUrlException e) {
      return null;
    }
  }
}
