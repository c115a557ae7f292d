package io.webindex.core.read;

/** Why an input record was rejected. Each is a Hadoop counter and a load statistic. */
public enum RejectReason {
  MALFORMED_JSON,
  MALFORMED_WARC,
  BAD_ENCODING,
  MISSING_URL,
  INVALID_URL,
  BAD_CRAWL_TIME,
  OVERSIZED,
  CORRUPT_COMPRESSION
}
