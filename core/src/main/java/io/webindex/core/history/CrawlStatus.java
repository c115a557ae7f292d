package io.webindex.core.history;

/** What one crawl of a URI found: a live page ({@code ok}) or a deletion ({@code gone}). */
public enum CrawlStatus {
  OK("ok"),
  GONE("gone");

  private final String code;

  CrawlStatus(String code) {
    this.code = code;
  }

  /** The lower-case word the history table writes. */
  public String code() {
    return code;
  }

  /** The status of a code written by {@link #code()}. */
  public static CrawlStatus ofCode(String code) {
    return switch (code) {
      case "ok" -> OK;
      case "gone" -> GONE;
      default -> throw new IllegalArgumentException("not a crawl status (ok, gone): " + code);
    };
  }
}
