package io.webindex.core.schema;

import java.util.List;
import java.util.Locale;

/**
 * The one codec for the query table (docs/tables.md): every row, family and qualifier is built and
 * parsed here and nowhere else.
 *
 * <pre>
 * d:&lt;domain&gt;          domain:pagecount          seen URIs in the domain
 * d:&lt;domain&gt;          rank:&lt;enc(urc)&gt;:&lt;uri&gt;     urc
 * p:&lt;uri&gt;             page:cur                  page JSON (crawled pages only)
 * p:&lt;uri&gt;             page:incount              urc (every seen URI)
 * p:&lt;uri&gt;             inlinks:&lt;referrer uri&gt;    anchor text
 * t:&lt;enc(urc)&gt;:&lt;uri&gt;  (empty):(empty)           urc
 * </pre>
 *
 * <p>Encoded counts have a fixed width ({@link CountCodec#WIDTH}), so {@code t:} rows and {@code
 * rank} qualifiers are parsed by position and a ':' inside a URI key can never make them ambiguous.
 * Count values are decimal ASCII.
 */
public final class QuerySchema {
  public static final String DOMAIN_PREFIX = "d:";
  public static final String PAGE_PREFIX = "p:";
  public static final String TOTAL_PREFIX = "t:";

  public static final String FAM_DOMAIN = "domain";
  public static final String QUAL_PAGECOUNT = "pagecount";
  public static final String FAM_RANK = "rank";
  public static final String FAM_PAGE = "page";
  public static final String QUAL_CUR = "cur";
  public static final String QUAL_INCOUNT = "incount";
  public static final String FAM_INLINKS = "inlinks";
  public static final String EMPTY = "";

  /** The row ranges of the query table, in table order. */
  public static final List<String> ROW_RANGES = List.of(DOMAIN_PREFIX, PAGE_PREFIX, TOTAL_PREFIX);

  /** {@code domain:pagecount}, as a {@code family:qualifier} column. */
  public static final String PAGECOUNT_COLUMN = FAM_DOMAIN + ":" + QUAL_PAGECOUNT;

  /** {@code page:incount}, as a {@code family:qualifier} column. */
  public static final String INCOUNT_COLUMN = FAM_PAGE + ":" + QUAL_INCOUNT;

  private static final int ENCODED_PREFIX = CountCodec.WIDTH + 1; // "<enc>:"

  private QuerySchema() {}

  // ---- rows

  public static String domainRow(String domain) {
    return DOMAIN_PREFIX + domain;
  }

  public static String pageRow(String uriKey) {
    return PAGE_PREFIX + uriKey;
  }

  /**
   * The page row of the {@code n}th of a run of placeholder URI keys: {@code p:} and {@code n} in
   * 15 zero-padded digits, so that the rows sort as their numbers do. For cells of the table's
   * shape with no page behind them (the bench's single-pass floor); never a key {@code WebUrl}
   * makes.
   */
  public static String sequencePageRow(long n) {
    return pageRow(String.format(Locale.ROOT, "%015d", n));
  }

  public static String totalRow(long urc, String uriKey) {
    return TOTAL_PREFIX + rankedUri(urc, uriKey);
  }

  /** {@code <enc(urc)>:<uri>}, the rank qualifier and the tail of a {@code t:} row. */
  public static String rankedUri(long urc, String uriKey) {
    return CountCodec.encode(urc) + ":" + uriKey;
  }

  /** A parsed query-table row. */
  public sealed interface Row {
    /** A {@code d:} row. */
    record Domain(String domain) implements Row {}

    /** A {@code p:} row. */
    record Page(String uri) implements Row {}

    /** A {@code t:} row. */
    record Total(long urc, String uri) implements Row {}
  }

  /** A parsed {@code <enc(urc)>:<uri>}. */
  public record RankedUri(long urc, String uri) {}

  public static Row parseRow(String row) {
    if (row.startsWith(DOMAIN_PREFIX) && row.length() > DOMAIN_PREFIX.length()) {
      return new Row.Domain(row.substring(DOMAIN_PREFIX.length()));
    }
    if (row.startsWith(PAGE_PREFIX) && row.length() > PAGE_PREFIX.length()) {
      return new Row.Page(row.substring(PAGE_PREFIX.length()));
    }
    if (row.startsWith(TOTAL_PREFIX)) {
      RankedUri r = parseRankedUri(row.substring(TOTAL_PREFIX.length()));
      return new Row.Total(r.urc(), r.uri());
    }
    throw new IllegalArgumentException("not a query-table row: " + row);
  }

  public static RankedUri parseRankedUri(String s) {
    if (s.length() <= ENCODED_PREFIX || s.charAt(CountCodec.WIDTH) != ':') {
      throw new IllegalArgumentException("not <enc(urc)>:<uri>: " + s);
    }
    return new RankedUri(CountCodec.decode(s, 0), s.substring(ENCODED_PREFIX));
  }

  /** True when {@code row} sits in the {@code t:} range. */
  public static boolean isTotalRow(String row) {
    return row.startsWith(TOTAL_PREFIX);
  }

  // ---- values

  public static String countValue(long n) {
    return Long.toString(n);
  }

  public static long parseCountValue(String v) {
    return Long.parseLong(v);
  }

  // ---- cells
  //
  // Every cell written to the table is built here, and each refuses a URI key or domain that is
  // not what WebUrl and Domains make (non-empty printable ASCII without space), so no string from
  // the input can reach a row or qualifier with a tab, a newline, a control character or a space
  // (see ForgedRowsTest). The row helpers above are also used for look-ups of user-typed text and
  // do not check.

  /**
   * Returns {@code s} if it can be a URI key or domain: non-empty, printable ASCII without space.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static String requireKeyText(String s) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException("empty key");
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        throw new IllegalArgumentException(
            "not a key: char " + (int) c + " at " + i + " of " + s.length());
      }
    }
    return s;
  }

  public static Cell pageCount(String domain, long count) {
    return new Cell(
        domainRow(requireKeyText(domain)), FAM_DOMAIN, QUAL_PAGECOUNT, countValue(count));
  }

  public static Cell rank(String domain, String uriKey, long urc) {
    return new Cell(
        domainRow(requireKeyText(domain)),
        FAM_RANK,
        rankedUri(urc, requireKeyText(uriKey)),
        countValue(urc));
  }

  public static Cell pageCur(String uriKey, String json) {
    return new Cell(pageRow(requireKeyText(uriKey)), FAM_PAGE, QUAL_CUR, json);
  }

  public static Cell incount(String uriKey, long urc) {
    return new Cell(pageRow(requireKeyText(uriKey)), FAM_PAGE, QUAL_INCOUNT, countValue(urc));
  }

  public static Cell inlink(String targetKey, String sourceKey, String anchor) {
    return new Cell(
        pageRow(requireKeyText(targetKey)), FAM_INLINKS, requireKeyText(sourceKey), anchor);
  }

  public static Cell total(String uriKey, long urc) {
    return new Cell(totalRow(urc, requireKeyText(uriKey)), EMPTY, EMPTY, countValue(urc));
  }
}
