package io.webindex.core.model;

import io.webindex.core.history.Signatures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One version of a page: its normalised URL, URI key, version, title and outgoing links, or a
 * deletion (a version too, with no title and no links). Links are always deduplicated by target key
 * (the first anchor wins) and never point at the page itself: {@link #of} enforces it.
 *
 * <p>{@code signature} is the version's content signature ({@link Signatures}): the record's own
 * digest normalised, or the content signature of title and links when the record has none; {@code
 * ""} for a deletion. The factories without a signature compute the content signature.
 */
public record Page(
    String url,
    String key,
    PageVersion version,
    String title,
    List<Link> links,
    boolean deleted,
    String signature) {

  public Page {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(title, "title");
    links = List.copyOf(links);
    if (deleted && (!links.isEmpty() || !title.isEmpty())) {
      throw new IllegalArgumentException("a deletion has no title and no links");
    }
    Objects.requireNonNull(signature, "signature");
    if (deleted != signature.isEmpty()) {
      throw new IllegalArgumentException(
          deleted ? "a deletion has no signature" : "a live page has a signature");
    }
    if (signature.indexOf(' ') >= 0 || signature.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a signature has no blanks: " + signature);
    }
  }

  /** A version with the content signature of its title and links ({@code ""} for a deletion). */
  public Page(
      String url,
      String key,
      PageVersion version,
      String title,
      List<Link> links,
      boolean deleted) {
    this(
        url,
        key,
        version,
        title,
        links,
        deleted,
        deleted ? "" : Signatures.content(title, List.copyOf(links)));
  }

  /** A live page; {@code rawLinks} are deduplicated and self links dropped here. */
  public static Page of(
      String url, String key, PageVersion version, String title, List<Link> rawLinks) {
    return new Page(url, key, version, title, dedupLinks(key, rawLinks), false);
  }

  /** A live page with a given signature; {@code rawLinks} are deduplicated as by {@link #of}. */
  public static Page of(
      String url,
      String key,
      PageVersion version,
      String title,
      List<Link> rawLinks,
      String signature) {
    return new Page(url, key, version, title, dedupLinks(key, rawLinks), false, signature);
  }

  /** A deletion of {@code url} at {@code version}. */
  public static Page deletion(String url, String key, PageVersion version) {
    return new Page(url, key, version, "", List.of(), true, "");
  }

  /**
   * Deduplicates links by target key, keeping the first occurrence (and its anchor), and drops
   * links to {@code selfKey}.
   */
  public static List<Link> dedupLinks(String selfKey, List<Link> rawLinks) {
    Map<String, Link> byKey = new LinkedHashMap<>();
    for (Link l : rawLinks) {
      if (!l.key().equals(selfKey)) {
        byKey.putIfAbsent(l.key(), l);
      }
    }
    return List.copyOf(byKey.values());
  }

  /** Link targets and anchors, in link order. */
  public Map<String, String> anchorsByTarget() {
    Map<String, String> m = new LinkedHashMap<>();
    for (Link l : links) {
      m.put(l.key(), l.anchor());
    }
    return m;
  }
}
