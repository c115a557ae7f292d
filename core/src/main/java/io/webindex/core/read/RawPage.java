package io.webindex.core.read;

import com.fasterxml.jackson.core.JsonToken;
import io.webindex.core.history.Signatures;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.model.Text;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns the raw fields of one input record into a {@link Page}, the same way for every input
 * format: URL normalisation, relative links resolved against the base, invalid links counted and
 * dropped, text cleaned, links deduplicated by target key (first anchor wins), self links dropped,
 * and the version's signature: the record's digest normalised, else the content signature ({@link
 * Signatures}).
 */
final class RawPage {
  private static final DateTimeFormatter RFC_1123 =
      DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT);

  /** A raw link: the URL as written and its anchor text. */
  record RawLink(String url, String anchor) {}

  /** Thrown for a record that must be rejected. */
  static final class RejectException extends Exception {
    private static final long serialVersionUID = 1L;
    final RejectReason reason;

    RejectException(RejectReason reason, String detail) {
      super(detail);
      this.reason = reason;
    }
  }

  private RawPage() {}

  static WebUrl pageUrl(String raw) throws RejectException {
    if (raw == null || raw.isBlank()) {
      throw new RejectException(RejectReason.MISSING_URL, "no url");
    }
    try {
      return WebUrl.parse(raw);
    } catch (InvalidUrlException e) {
      throw new RejectException(RejectReason.INVALID_URL, e.getMessage());
    }
  }

  /**
   * The crawl time of a record: a missing or unparsable one rejects the record ({@code
   * BAD_CRAWL_TIME}); without a time a version cannot be ordered (latest crawl wins).
   */
  static Instant requireCrawlTime(String raw, String field) throws RejectException {
    Instant t = crawlTime(raw);
    if (t == null) {
      throw new RejectException(RejectReason.BAD_CRAWL_TIME, "no " + field);
    }
    return t;
  }

  /**
   * Parses a crawl time: ISO-8601 instant, offset or local date-time (UTC), a date (UTC midnight),
   * RFC 1123, or epoch milliseconds. Null or blank → null (the caller decides).
   */
  static Instant crawlTime(String raw) throws RejectException {
    if (raw == null || raw.isBlank()) {
      return null;
    }
    String s = raw.strip();
    try {
      if (s.chars().allMatch(Character::isDigit) && s.length() <= 15) {
        return Instant.ofEpochMilli(Long.parseLong(s));
      }
      if (s.length() > 10 && (s.charAt(10) == 'T' || s.charAt(10) == ' ')) {
        String iso = s.charAt(10) == ' ' ? s.substring(0, 10) + 'T' + s.substring(11) : s;
        if (iso.endsWith("Z") || iso.endsWith("z")) {
          return Instant.parse(iso.substring(0, iso.length() - 1) + "Z");
        }
        try {
          return OffsetDateTime.parse(iso).toInstant();
        } catch (DateTimeParseException e) {
          return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
        }
      }
      if (s.length() == 10) {
        return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      return ZonedDateTime.parse(s, RFC_1123).toInstant();
    } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
      throw new RejectException(RejectReason.BAD_CRAWL_TIME, "bad crawl time: " + abbreviate(s));
    }
  }

  static Page build(
      WebUrl url,
      WebUrl base,
      Instant crawled,
      String title,
      List<RawLink> rawLinks,
      boolean schemeLessIsHost,
      PageVersion version,
      String digest,
      ReadLimits limits,
      ReadStats stats)
      throws RejectException {
    if (rawLinks.size() > limits.maxLinks()) {
      throw new RejectException(
          RejectReason.OVERSIZED, rawLinks.size() + " links, more than " + limits.maxLinks());
    }
    String key = url.key();
    List<Link> links = new ArrayList<>(rawLinks.size());
    Set<String> targets = new HashSet<>();
    for (RawLink rl : rawLinks) {
      WebUrl target;
      try {
        target = WebUrl.parse(rl.url(), schemeLessIsHost && isHostFirst(rl.url()) ? null : base);
      } catch (InvalidUrlException e) {
        stats.inc(ReadCounter.LINKS_INVALID);
        continue;
      }
      String tkey = target.key();
      if (tkey.equals(key)) {
        stats.inc(ReadCounter.LINKS_SELF);
      } else if (!targets.add(tkey)) {
        stats.inc(ReadCounter.LINKS_DUPLICATE);
      } else {
        links.add(new Link(target.toString(), tkey, Text.clean(rl.anchor(), Text.MAX_ANCHOR)));
      }
    }
    stats.add(ReadCounter.LINKS, links.size());
    String cleanTitle = Text.clean(title, Text.MAX_TITLE);
    String signature = null;
    if (digest != null && !digest.isBlank()) {
      signature = Signatures.normalise(digest).orElse(null);
      if (signature == null) {
        stats.inc(ReadCounter.DIGESTS_INVALID);
      }
    }
    if (signature == null) {
      signature = Signatures.content(cleanTitle, links);
    }
    return new Page(url.toString(), key, version, cleanTitle, links, false, signature);
  }

  /**
   * A record's {@code digest} field: its text when it is a string; a non-string (number, object) is
   * an invalid digest, kept as {@code "?"} so that it is counted and the content signature used.
   */
  static String digestText(com.fasterxml.jackson.core.JsonParser p, JsonToken v)
      throws java.io.IOException {
    if (v == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (v == JsonToken.VALUE_NULL) {
      return null;
    }
    p.skipChildren();
    return "?";
  }

  /**
   * In page JSON a link without a scheme means {@code http://} (docs/input.md), like the page URL:
   * {@code c.com/x} is a host and a path. Only references that start like a path ({@code /}, {@code
   * .}, {@code ?}, {@code #}) are relative to the page.
   */
  static boolean isHostFirst(String link) {
    if (link == null) {
      return false;
    }
    String s = link.strip();
    return !s.isEmpty() && "/\\.?#".indexOf(s.charAt(0)) < 0;
  }

  static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "…";
  }
}
