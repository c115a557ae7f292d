package io.webindex.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.CountCodec;
import io.webindex.core.schema.FrontierSchema;
import io.webindex.core.schema.HistorySchema;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.client.IteratorSetting;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.PartialKey;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.accumulo.core.iterators.user.CfCqSliceOpts;
import org.apache.accumulo.core.iterators.user.CfCqSliceSeekingFilter;
import org.apache.hadoop.io.Text;

/**
 * Answers the three questions (docs/web.md) from a query table:
 *
 * <ol>
 *   <li>{@link #top}: the URIs referenced by the most pages ({@code t:} rows);
 *   <li>{@link #domain}: a domain's page count and its URIs, most referenced first ({@code d:}
 *       row);
 *   <li>{@link #inlinks}: a page's reference count and the pages that link to it, with their anchor
 *       text ({@code p:} row).
 * </ol>
 *
 * <p>Every answer is one page of at most {@code limit} items plus a {@code next} cursor: an opaque,
 * shell-safe string that the next call passes as {@code after}, or null when nothing follows. A
 * page is one bounded scan of {@code limit + 1} entries that starts right after the cursor's
 * position, so paging never reads a range twice and never reads it whole. Rows and columns are
 * decoded only with {@link QuerySchema}.
 */
public final class QueryService {
  /** The largest page a caller may ask for. */
  public static final int MAX_LIMIT = 10_000;

  private static final Text FAM_DOMAIN = new Text(QuerySchema.FAM_DOMAIN);
  private static final Text QUAL_PAGECOUNT = new Text(QuerySchema.QUAL_PAGECOUNT);
  private static final Text FAM_RANK = new Text(QuerySchema.FAM_RANK);
  private static final Text FAM_INLINKS = new Text(QuerySchema.FAM_INLINKS);
  private static final String TOP_CURSOR = "t";
  private static final String DOMAIN_CURSOR = "d";
  private static final String INLINKS_CURSOR = "i";

  /** Above the table's own iterators (the versioning iterator sits at 20). */
  private static final int AFTER_CURSOR_PRIORITY = 100;

  /** How often {@link #inlinks} reads its page again when the page's incount changed meanwhile. */
  static final int INLINKS_ATTEMPTS = 5;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Connector connector;
  private final String table;
  private final AtomicLong scans = new AtomicLong();

  /** Runs before each list scan of {@link #inlinks}; a seam for tests that write meanwhile. */
  Runnable beforeInlinksScan = () -> {};

  /** A URI with its reference count; {@code url} is the URL rebuilt from the key. */
  public record RankedUri(String uri, String url, long urc) {}

  /** A page that links to the queried one, with the link's anchor text. */
  public record Inlink(String uri, String url, String anchor) {}

  /** One page of {@link #top}. */
  public record TopAnswer(List<RankedUri> uris, String next) {}

  /**
   * One page of {@link #domain}: the reversed domain that was looked up, its number of seen URIs (0
   * when the table does not know it) and its URIs, most referenced first; {@code known} says
   * whether the table has the domain's {@code pagecount}.
   */
  public record DomainAnswer(
      String domain, long pageCount, List<RankedUri> uris, String next, boolean known) {}

  /**
   * One page of {@link #inlinks}: the page's URI key and URL, its reference count (0 when the table
   * does not know it) and the pages that link to it, in URI-key order; {@code known} says whether
   * the table has the URI's {@code incount} (every seen URI has one).
   */
  public record InlinksAnswer(
      String uri, String url, long incount, List<Inlink> inlinks, String next, boolean known) {}

  /** A link of a crawled page, as its {@code page:cur} records it. */
  public record Outlink(String url, String anchor) {}

  /**
   * {@link #page}: the URI key and URL, its reference count, whether the table knows the URI at
   * all, and, for a crawled page, its {@code page:cur} (crawl time, title, outlinks); {@code
   * crawled} is null when the URI was only linked to.
   */
  public record PageAnswer(
      String uri,
      String url,
      long incount,
      boolean known,
      String crawled,
      String title,
      List<Outlink> outlinks) {}

  /**
   * A service over {@code table}.
   *
   * @throws StoreException when the table does not exist
   */
  public QueryService(Connector connector, String table) {
    this.connector = Objects.requireNonNull(connector, "connector");
    this.table = Objects.requireNonNull(table, "table");
    if (!connector.tableOperations().exists(table)) {
      throw new StoreException("no table '" + table + "' in Accumulo");
    }
  }

  public String table() {
    return table;
  }

  // ------------------------------------------------------------------ the three questions

  /** The most referenced URIs, highest {@code urc} first (ties in URI-key order). */
  public TopAnswer top(int limit, String after) {
    checkLimit(limit);
    Range all = Range.prefix(QuerySchema.TOTAL_PREFIX);
    Range range = all;
    if (after != null) {
      String position = decodeCursor(after, TOP_CURSOR);
      parseRanked(position, after);
      Key start =
          new Key(new Text(QuerySchema.TOTAL_PREFIX + position)).followingKey(PartialKey.ROW);
      range = new Range(start, true, all.getEndKey(), all.isEndKeyInclusive());
    }
    List<RankedUri> uris = new ArrayList<>();
    String next = null;
    for (Cell c : scan(range, null, null, limit + 1)) {
      if (uris.size() == limit) {
        next = encodeCursor(TOP_CURSOR, uris.get(limit - 1));
        break;
      }
      QuerySchema.Row row = parseRow(c);
      if (!(row instanceof QuerySchema.Row.Total total)) {
        throw corrupt("a t: row that does not parse", c);
      }
      uris.add(new RankedUri(total.uri(), urlOf(total.uri()), total.urc()));
    }
    return new TopAnswer(List.copyOf(uris), next);
  }

  /**
   * A domain's page count and its URIs, most referenced first. {@code domain} is what an operator
   * types: a host ({@code www.bbc.co.uk}), a registrable domain ({@code bbc.co.uk}), a URL, or a
   * domain already in reversed form ({@code uk.co.bbc}); see {@link #domainCandidates}.
   *
   * @throws IllegalArgumentException when {@code domain} is none of those
   */
  public DomainAnswer domain(String domain, int limit, String after) {
    checkLimit(limit);
    String position = null;
    if (after != null) {
      position = decodeCursor(after, DOMAIN_CURSOR);
      parseRanked(position, after);
    }
    DomainAnswer unknown = null;
    for (String candidate : domainCandidates(domain)) {
      DomainAnswer a = domainPage(candidate, limit, position);
      if (a.known()) {
        return a;
      }
      if (unknown == null) {
        unknown = a;
      }
    }
    return unknown;
  }

  /**
   * One page of {@code d:<domain>}, header and results in one isolated scan: the row holds {@code
   * domain:pagecount} and then the {@code rank} family (families sort "domain" &lt; "rank"), so the
   * scan starts at {@code domain:pagecount} and ends with the {@code rank} family; the page count
   * and the listed URIs are one state of the row even while Fluo's exporter writes to it. After a
   * cursor, Accumulo's own {@link CfCqSliceSeekingFilter} (in accumulo-core, so on every tablet
   * server without deploying anything) lets through only qualifiers after the cursor's {@code
   * <enc(urc)>:<uri>} and seeks over the rank cells before it on the server, so a later page is
   * still one bounded read. {@code pagecount} passes that filter because every rank qualifier
   * starts with an encoded count, whose first character is a hex digit below '8' (see {@link
   * CountCodec}), and so sorts before "pagecount".
   */
  private DomainAnswer domainPage(String domain, int limit, String position) {
    Text row = new Text(QuerySchema.domainRow(domain));
    Key start = new Key(row, FAM_DOMAIN, QUAL_PAGECOUNT);
    Key end = new Key(row, FAM_RANK).followingKey(PartialKey.ROW_COLFAM);
    IteratorSetting afterCursor = null;
    if (position != null) {
      afterCursor =
          new IteratorSetting(
              AFTER_CURSOR_PRIORITY, "webindexAfterCursor", CfCqSliceSeekingFilter.class);
      afterCursor.addOption(CfCqSliceOpts.OPT_MIN_CQ, position);
      afterCursor.addOption(CfCqSliceOpts.OPT_MIN_INCLUSIVE, "false");
    }
    long pageCount = 0;
    boolean known = false;
    List<RankedUri> uris = new ArrayList<>();
    String next = null;
    // the header, then at most limit + 1 rank cells
    for (Cell c : scan(new Range(start, true, end, false), null, afterCursor, limit + 2)) {
      if (c.family().equals(QuerySchema.FAM_DOMAIN)) {
        if (c.qualifier().equals(QuerySchema.QUAL_PAGECOUNT)) {
          pageCount = parseCount(c);
          known = true;
        }
        continue;
      }
      if (!c.family().equals(QuerySchema.FAM_RANK)) {
        continue;
      }
      if (uris.size() == limit) {
        next = encodeCursor(DOMAIN_CURSOR, uris.get(limit - 1));
        break;
      }
      QuerySchema.RankedUri r = parseRanked(c);
      uris.add(new RankedUri(r.uri(), urlOf(r.uri()), r.urc()));
    }
    return new DomainAnswer(domain, pageCount, List.copyOf(uris), next, known);
  }

  /**
   * A page's reference count and the pages that link to it, with their anchor text. {@code url} is
   * a URL as an operator types it (normalised like the index does; no scheme means http), or a URI
   * key ({@code com.c/page1}) when no page of the URL's reading is known.
   *
   * <p>The count and the list are one state of the row, as if read by one isolated scan. The row
   * holds the {@code inlinks} family first and {@code page:incount} after all of it (families sort
   * "inlinks" &lt; "page"), so one scan from the cursor that also reached the count would read
   * every remaining inlink of a much-linked page; Accumulo 1.10 has no isolated scan of two ranges
   * and no stock iterator that could stop after {@code limit} inlinks and jump to the count
   * (webindex deploys no code to the tablet servers). So the page is one isolated scan of the
   * inlinks, bracketed by two reads of the count cell: when the count's value and write timestamp
   * are the same before and after the scan, the cell was not written meanwhile, and the count read
   * is the one the row held at the moment of the scan. Otherwise the page is read again, at most
   * {@value #INLINKS_ATTEMPTS} times (the exporter writes a row once per Fluo batch, so a second
   * read almost always agrees), and the answer carries the count read after its list.
   *
   * @throws IllegalArgumentException when {@code url} is not a valid http(s) URL or URI key
   */
  public InlinksAnswer inlinks(String url, int limit, String after) {
    checkLimit(limit);
    String position = after == null ? null : decodeCursor(after, INLINKS_CURSOR);
    List<String> candidates = uriCandidates(url);
    String chosen = candidates.get(0);
    StampedCount header = null;
    for (String candidate : candidates) {
      StampedCount count = incountOf(candidate);
      if (count != null) {
        chosen = candidate;
        header = count;
        break;
      }
    }
    Range range = columnRange(QuerySchema.pageRow(chosen), FAM_INLINKS, position);
    for (int attempt = 1; ; attempt++) {
      beforeInlinksScan.run();
      List<Inlink> inlinks = new ArrayList<>();
      String next = null;
      for (Cell c : scan(range, FAM_INLINKS, null, limit + 1)) {
        if (inlinks.size() == limit) {
          next = encodeCursor(INLINKS_CURSOR, inlinks.get(limit - 1).uri());
          break;
        }
        inlinks.add(new Inlink(c.qualifier(), urlOf(c.qualifier()), c.value()));
      }
      StampedCount again = incountOf(chosen);
      if (Objects.equals(header, again) || attempt == INLINKS_ATTEMPTS) {
        return new InlinksAnswer(
            chosen,
            urlOf(chosen),
            again == null ? 0 : again.count(),
            List.copyOf(inlinks),
            next,
            again != null);
      }
      header = again;
    }
  }

  /**
   * A page's reference count and, when it was crawled, its current version ({@code page:cur}: crawl
   * time, title, outlinks with anchors), read in one isolated scan of the row's {@code page}
   * family. {@code url} is read as by {@link #inlinks}.
   *
   * @throws IllegalArgumentException when {@code url} is not a valid http(s) URL or URI key
   */
  public PageAnswer page(String url) {
    List<String> candidates = uriCandidates(url);
    for (String candidate : candidates) {
      Text row = new Text(QuerySchema.pageRow(candidate));
      Key start = new Key(row, new Text(QuerySchema.FAM_PAGE));
      Key end = start.followingKey(PartialKey.ROW_COLFAM);
      List<Cell> cells = scan(new Range(start, true, end, false), null, null, 2);
      String cur = null;
      Long incount = null;
      for (Cell c : cells) {
        if (c.qualifier().equals(QuerySchema.QUAL_CUR)) {
          cur = c.value();
        } else if (c.qualifier().equals(QuerySchema.QUAL_INCOUNT)) {
          incount = parseCount(c);
        }
      }
      if (incount != null) {
        return cur == null
            ? new PageAnswer(candidate, urlOf(candidate), incount, true, null, null, List.of())
            : parseCur(candidate, incount, cur);
      }
    }
    String chosen = candidates.get(0);
    return new PageAnswer(chosen, urlOf(chosen), 0, false, null, null, List.of());
  }

  private PageAnswer parseCur(String uri, long incount, String json) {
    JsonNode n;
    try {
      n = JSON.readTree(json);
    } catch (IOException e) {
      throw new StoreException(
          "table '" + table + "' is not a query table: page:cur of " + uri + " is not JSON", e);
    }
    List<Outlink> outlinks = new ArrayList<>();
    for (JsonNode l : n.path("outlinks")) {
      outlinks.add(new Outlink(l.path("url").asText(""), l.path("anchor").asText("")));
    }
    return new PageAnswer(
        uri,
        urlOf(uri),
        incount,
        true,
        n.path("crawled").asText(""),
        n.path("title").asText(""),
        List.copyOf(outlinks));
  }

  /**
   * A page of the crawl history of {@code url} from this query table's history table ({@link
   * HistoryQuery#history}).
   *
   * @throws StoreException when the table has no history table
   */
  public HistoryQuery.HistoryAnswer history(String url, int limit, String after) {
    return new HistoryQuery(connector, table).history(url, limit, after);
  }

  /** Whether this query table has its history table ({@link HistorySchema#historyTable}). */
  public boolean hasHistory() {
    return connector.tableOperations().exists(HistorySchema.historyTable(table));
  }

  /**
   * The next URLs due at {@code atMillis} in this query table's frontier table ({@link
   * FrontierQuery#next}), without what the frontier service holds back in its operational table
   * {@code opsTable} ({@link FrontierQuery#readOps}: URLs in flight, blocked queues).
   *
   * @throws StoreException when the table has no frontier table, or a table cannot be read
   */
  public FrontierQuery.FrontierAnswer frontier(
      long atMillis, int limit, int perHost, String opsTable) {
    FrontierQuery q = new FrontierQuery(connector, table);
    return q.next(atMillis, limit, perHost, FrontierQuery.readOps(connector, opsTable));
  }

  /** Whether this query table has its frontier table ({@link FrontierSchema#frontierTable}). */
  public boolean hasFrontier() {
    return connector.tableOperations().exists(FrontierSchema.frontierTable(table));
  }

  // ------------------------------------------------------------------ input interpretation

  /**
   * The reversed domains an operator's input may mean, most likely first: the registrable domain of
   * the input read as a host or URL ({@code www.bbc.co.uk}, {@code http://bbc.co.uk/x} → {@code
   * uk.co.bbc}), then, for a bare dotted name, the input itself as an already reversed domain
   * ({@code uk.co.bbc}). {@link #domain} uses the first one the table knows.
   */
  static List<String> domainCandidates(String input) {
    String s = input == null ? "" : input.strip();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("no domain given");
    }
    List<String> out = new ArrayList<>(2);
    try {
      out.add(Domains.of(WebUrl.parse(s)));
    } catch (InvalidUrlException e) {
      // not a host or URL; may still be a reversed domain
    }
    String bare = s.toLowerCase(Locale.ROOT);
    if (bare.matches("[a-z0-9_-]+(\\.[a-z0-9_-]+)*") && !out.contains(bare)) {
      out.add(bare);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("not a host name, URL or domain: " + s);
    }
    return out;
  }

  /**
   * The URI keys an operator's input may mean: the key of the input read as a URL, then the input
   * itself when it is a valid URI key.
   */
  static List<String> uriCandidates(String input) {
    String s = input == null ? "" : input.strip();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("no URL given");
    }
    List<String> out = new ArrayList<>(2);
    String problem = null;
    try {
      out.add(WebUrl.parse(s).key());
    } catch (InvalidUrlException e) {
      problem = e.getMessage();
    }
    try {
      WebUrl.fromKey(s);
      if (!out.contains(s)) {
        out.add(s);
      }
    } catch (InvalidUrlException e) {
      // not a key
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("not a valid http(s) URL: " + s + " (" + problem + ")");
    }
    return out;
  }

  // ------------------------------------------------------------------ cursors

  /** {@code base64url(kind + "|" + position)}: opaque, and safe to paste into a shell. */
  static String encodeCursor(String kind, String position) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((kind + "|" + position).getBytes(StandardCharsets.UTF_8));
  }

  private static String encodeCursor(String kind, RankedUri last) {
    return encodeCursor(kind, QuerySchema.rankedUri(last.urc(), last.uri()));
  }

  static String decodeCursor(String cursor, String kind) {
    String text;
    try {
      text = new String(Base64.getUrlDecoder().decode(cursor.strip()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw badCursor(cursor);
    }
    String prefix = kind + "|";
    if (!text.startsWith(prefix) || text.length() == prefix.length()) {
      throw badCursor(cursor);
    }
    return text.substring(prefix.length());
  }

  static IllegalArgumentException badCursor(String cursor) {
    return new IllegalArgumentException(
        "not a cursor of this query: '" + cursor + "' (pass the value printed after 'next:')");
  }

  private static void parseRanked(String position, String cursor) {
    try {
      QuerySchema.parseRankedUri(position);
    } catch (IllegalArgumentException e) {
      throw badCursor(cursor);
    }
  }

  // ------------------------------------------------------------------ scanning

  static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ": " + limit);
    }
  }

  /** The cells of one family of one row, starting after qualifier {@code after} (null = all). */
  private static Range columnRange(String row, Text family, String after) {
    Text r = new Text(row);
    Key start =
        after == null
            ? new Key(r, family)
            : new Key(r, family, new Text(after)).followingKey(PartialKey.ROW_COLFAM_COLQUAL);
    Key end = new Key(r, family).followingKey(PartialKey.ROW_COLFAM);
    return new Range(start, true, end, false);
  }

  /** At most {@code max} cells of {@code range}, fetched in one batch. */
  private List<Cell> scan(Range range, Text family, IteratorSetting iterator, int max) {
    List<Cell> cells = new ArrayList<>(Math.min(max, 1024));
    scans.incrementAndGet();
    try (Scanner scanner = TableDump.scanner(connector, table)) {
      // a row is seen as one state even while Fluo's exporter writes to it
      scanner.enableIsolation();
      scanner.setRange(range);
      scanner.setBatchSize(max);
      if (family != null) {
        scanner.fetchColumnFamily(family);
      }
      if (iterator != null) {
        scanner.addScanIterator(iterator);
      }
      Iterator<Map.Entry<Key, Value>> it = scanner.iterator();
      while (cells.size() < max && it.hasNext()) {
        Map.Entry<Key, Value> e = it.next();
        cells.add(Cells.fromEntry(e.getKey(), e.getValue()));
      }
    }
    return cells;
  }

  /** A {@code page:incount} value with the timestamp of the write that set it. */
  private record StampedCount(long count, long timestamp) {}

  /** {@code page:incount} of {@code uri}, or null when the table does not know the URI. */
  private StampedCount incountOf(String uri) {
    scans.incrementAndGet();
    try (Scanner scanner = TableDump.scanner(connector, table)) {
      scanner.setRange(
          Range.exact(QuerySchema.pageRow(uri), QuerySchema.FAM_PAGE, QuerySchema.QUAL_INCOUNT));
      scanner.setBatchSize(1);
      Iterator<Map.Entry<Key, Value>> it = scanner.iterator();
      if (!it.hasNext()) {
        return null;
      }
      Map.Entry<Key, Value> e = it.next();
      return new StampedCount(
          parseCount(Cells.fromEntry(e.getKey(), e.getValue())), e.getKey().getTimestamp());
    }
  }

  /** The number of scans this service has started; tests count the scans behind one answer. */
  long scans() {
    return scans.get();
  }

  private long parseCount(Cell c) {
    try {
      return QuerySchema.parseCountValue(c.value());
    } catch (NumberFormatException e) {
      throw corrupt("a count that is not a number", c);
    }
  }

  private QuerySchema.Row parseRow(Cell c) {
    try {
      return QuerySchema.parseRow(c.row());
    } catch (IllegalArgumentException e) {
      throw corrupt("a row that does not parse", c);
    }
  }

  private QuerySchema.RankedUri parseRanked(Cell c) {
    try {
      return QuerySchema.parseRankedUri(c.qualifier());
    } catch (IllegalArgumentException e) {
      throw corrupt("a rank column that does not parse", c);
    }
  }

  private StoreException corrupt(String what, Cell c) {
    return new StoreException(
        "table '"
            + table
            + "' is not a query table: "
            + what
            + ": "
            + c.row()
            + " "
            + c.family()
            + ":"
            + c.qualifier());
  }

  /** The URL of a URI key, or the key itself when it is not a valid key (a damaged table). */
  private static String urlOf(String uriKey) {
    try {
      return WebUrl.fromKey(uriKey).toString();
    } catch (InvalidUrlException e) {
      return uriKey;
    }
  }
}
