package io.webindex.core.read;

/** What the readers count besides rejects. Each is a Hadoop counter and a load statistic. */
public enum ReadCounter {
  /** Records (JSON lines, WARC records) looked at, rejected or not. */
  RECORDS,
  /** Page versions produced (live pages and deletions). */
  PAGES,
  /** Of those, deletions. */
  DELETIONS,
  /** Records that were rejected (see the per-reason counters). */
  REJECTED,
  /** WARC records that are not pages (warcinfo, request, response, non-JSON metadata). */
  SKIPPED_NOT_PAGE,
  /** WAT metadata records without an HTML response. */
  SKIPPED_NOT_HTML,
  /** Blank lines in JSON-lines input. */
  BLANK_LINES,
  /** Links kept after dedup and self-link removal. */
  LINKS,
  /** Links dropped because their URL is invalid or not http(s). */
  LINKS_INVALID,
  /** Links to the page itself, dropped. */
  LINKS_SELF,
  /** Second and later links to one target, dropped (the first anchor wins). */
  LINKS_DUPLICATE,
  /**
   * Record digests (WAT {@code Entity-Digest} or {@code WARC-Payload-Digest}, a JSON line's {@code
   * digest}) that are not a digest the signature understands: the page version kept the content
   * signature of its title and links instead.
   */
  DIGESTS_INVALID
}
