package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.index.IndexCells;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.PageVersion;
import io.webindex.core.model.Text;
import io.webindex.core.model.UriState;
import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No user-supplied string can forge a row of another range: whatever a URL, an anchor or a title
 * holds (row prefixes, the ':' separator, control characters, percent-encoded separators, tabs and
 * newlines), every cell it produces stays in its own range ({@code d:}, {@code p:}, {@code t:}),
 * its row and qualifier parse back to the key that made them, the key round-trips (key → URL →
 * key), and its dump line has exactly three fields and parses back to the same cell.
 */
class ForgedRowsTest {

  /** Checks every cell of a page from {@code url} linking to {@code target}. */
  static void assertCellsInRange(String url, String target, String anchor, String title)
      throws InvalidUrlException {
    WebUrl page = WebUrl.parse(url);
    WebUrl link = WebUrl.parse(target);
    assertKey(page.key());
    assertKey(link.key());
    Page p =
        Page.of(
            page.toString(),
            page.key(),
            new PageVersion(Instant.parse("2026-01-01T00:00:00Z"), 0, "f", 0),
            Text.clean(title, Text.MAX_TITLE),
            List.of(new Link(link.toString(), link.key(), Text.clean(anchor, Text.MAX_ANCHOR))));
    List<Cell> cells = new ArrayList<>(IndexCells.page(p));
    for (long urc : new long[] {0, 1, 7, Long.MAX_VALUE}) {
      cells.addAll(IndexCells.uri(page.key(), UriState.of(urc, true)));
      cells.addAll(IndexCells.uri(link.key(), UriState.of(urc, false)));
    }
    cells.addAll(IndexCells.domain(Domains.of(page), 3));
    for (Cell c : cells) {
      assertCellInRange(c, page, link);
    }
  }

  static void assertKey(String key) throws InvalidUrlException {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      assertTrue(c > 0x20 && c < 0x7f && c != '\\', () -> "bad char in key " + key);
    }
    assertEquals(key, WebUrl.fromKey(key).key(), "key → URL → key");
  }

  static void assertCellInRange(Cell c, WebUrl page, WebUrl link) {
    QuerySchema.Row row = QuerySchema.parseRow(c.row());
    if (row instanceof QuerySchema.Row.Domain d) {
      assertTrue(c.row().startsWith("d:"));
      String domain = d.domain();
      assertTrue(domain.equals(Domains.of(page)) || domain.equals(Domains.of(link)), domain);
      if (c.family().equals(QuerySchema.FAM_RANK)) {
        QuerySchema.RankedUri r = QuerySchema.parseRankedUri(c.qualifier());
        assertTrue(r.uri().equals(page.key()) || r.uri().equals(link.key()), r.uri());
        assertEquals(Long.toString(r.urc()), c.value());
        assertEquals(c.qualifier(), QuerySchema.rankedUri(r.urc(), r.uri()));
      } else {
        assertEquals(QuerySchema.FAM_DOMAIN, c.family());
        assertEquals(QuerySchema.QUAL_PAGECOUNT, c.qualifier());
      }
    } else if (row instanceof QuerySchema.Row.Page pr) {
      assertTrue(c.row().startsWith("p:"));
      assertTrue(pr.uri().equals(page.key()) || pr.uri().equals(link.key()), pr.uri());
      if (c.family().equals(QuerySchema.FAM_INLINKS)) {
        assertEquals(link.key(), pr.uri());
        assertEquals(page.key(), c.qualifier(), "inlinks qualifier is the source key");
      } else {
        assertEquals(QuerySchema.FAM_PAGE, c.family());
        assertTrue(
            c.qualifier().equals(QuerySchema.QUAL_CUR)
                || c.qualifier().equals(QuerySchema.QUAL_INCOUNT));
      }
    } else if (row instanceof QuerySchema.Row.Total t) {
      assertTrue(c.row().startsWith("t:"));
      assertTrue(t.uri().equals(page.key()) || t.uri().equals(link.key()), t.uri());
      assertEquals(c.row(), QuerySchema.totalRow(t.urc(), t.uri()));
      assertEquals(Long.toString(t.urc()), c.value());
      assertEquals("", c.family());
      assertEquals("", c.qualifier());
    } else {
      throw new AssertionError("no such row: " + c.row());
    }
    String line = DumpFormat.line(c);
    assertFalse(line.contains("\n") || line.contains("\r"), line);
    assertEquals(3, line.split("\t", -1).length, line);
    assertEquals(c, DumpFormat.parse(line), "dump line round trip");
  }

  /** Row prefixes, separators and count-like text inside URLs. */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://a.com/p:x",
        "http://a.com/d:com.evil",
        "http://a.com/t:7fffffffffffffff:com.evil",
        "http://a.com/7fffffffffffffff:com.evil",
        "http://a.com/:",
        "http://a.com/x:y:z?a:b=c:d",
        "http://t:1/",
        "http://p:8080/x",
        "http://d/",
        "http://t/",
        "t.com:8080/x",
        "https://p.com:8443/0000000000000000:x",
        "http://[::1]:8080/t:1",
        "http://[2001:db8::1]/d:x",
        "http://1.2.3.4:99/p:1.2.3.4",
        "http://a.com:1/",
      })
  void separatorsAndPrefixesInUrls(String url) throws Exception {
    assertCellsInRange(url, "http://b.com/", "B", "T");
    assertCellsInRange("http://b.com/", url, "B", "T");
  }

  /** Percent-encoded separators stay encoded: they never become ':' '/', tabs or newlines. */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://a.com/%3A",
        "http://a.com/x%3Ad:evil",
        "http://a.com/x%3at:0",
        "http://a.com/%2F%2f",
        "http://a.com/%09%0A%0D",
        "http://a.com/?q=%0D%0Ap:forged%09page:cur",
        "http://a.com/%00%1F%7F",
        "http://a.com/%5C%5Cn",
        "http://a.com/%25%33%41",
        "http://a.com/%E2%80%A8",
      })
  void percentEncodedSeparators(String url) throws Exception {
    String key = WebUrl.parse(url).key();
    assertFalse(key.contains("\t") || key.contains("\n") || key.contains("\r"), key);
    if (url.toUpperCase(java.util.Locale.ROOT).contains("%3A")) {
      assertTrue(key.contains("%3A"), "an encoded ':' stays encoded: " + key);
    }
    assertCellsInRange(url, "http://b.com/", "B", "T");
    assertCellsInRange("http://b.com/", url, "B", "T");
  }

  /** Control characters, tabs and newlines in URLs: stripped (tab, CR, LF) or percent-encoded. */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://a.com/x\n\tt:0:com.evil\t\t1",
        "http://a.com/x\r\nd:com.evil\tdomain:pagecount\t9",
        "http://a.com/\u0000\u0001\u001f\u007f",
        "http://a.com/\u0085\u2028\u2029",
        "http://a.com/\\t\\n",
        "http://a.com/?q=\\x",
        "http://a.com/ space/",
        "http://a.com/é\u200b",
      })
  void controlCharactersInUrls(String url) throws Exception {
    assertCellsInRange(url, "http://b.com/", "B", "T");
    assertCellsInRange("http://b.com/", url, "B", "T");
  }

  /** Hosts that try to smuggle separators: refused, never keyed. */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "http://a.com%3A80/",
        "http://a%09b.com/",
        "http://a%0Ab.com/",
        "http://a%2Fb.com/",
        "http://a%5Cb.com/",
        "http://a b.com/",
        "http://a\u0000b.com/",
        "http://p%3Ax.com/",
      })
  void hostsWithSeparatorsAreRefused(String url) {
    assertThrows(InvalidUrlException.class, () -> WebUrl.parse(url));
  }

  /** Anchors and titles may hold anything; the cells' rows do not change, the dump round-trips. */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "x\tp:com.evil\tpage:cur\t{}",
        "x\nt:0:com.evil\t:\t0",
        "x\r\nd:com.evil",
        "C:\\new\\table\\r\\n",
        "\\",
        "\\\\t",
        "\\\t",
        "a\u0000b\u001fc\u007f",
        "\u2028\u2029\u0085",
        "\"quoted\" & <b>",
        "",
      })
  void anchorsAndTitles(String text) throws Exception {
    assertCellsInRange("http://a.com/", "http://b.com/", text, text);
    String cleaned = Text.clean(text, Text.MAX_ANCHOR);
    assertFalse(cleaned.contains("\t") || cleaned.contains("\n") || cleaned.contains("\r"));
  }

  /** The dump's field escaping is a bijection, whatever mix of backslashes and controls. */
  @Test
  void dumpEscapingRoundTripsAnyText() {
    Random rnd = new Random(5);
    char[] alphabet = {'\\', 't', 'n', 'r', '\t', '\n', '\r', 'x', '"', ':'};
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = rnd.nextInt(12); k > 0; k--) {
        sb.append(alphabet[rnd.nextInt(alphabet.length)]);
      }
      String s = sb.toString();
      String e = DumpFormat.escape(s);
      assertFalse(e.contains("\t") || e.contains("\n") || e.contains("\r"), e);
      assertEquals(s, DumpFormat.unescape(e), () -> "escape of [" + s + "]: " + e);
      Cell c = new Cell("p:com.a", "inlinks", "com.b", s);
      assertEquals(c, DumpFormat.parse(DumpFormat.line(c)));
    }
    // readable where nothing is ambiguous
    assertEquals("{\"t\":\"say \\\"hi\\\"\"}", DumpFormat.escape("{\"t\":\"say \\\"hi\\\"\"}"));
    assertEquals("a\\tb", DumpFormat.escape("a\tb"));
    assertEquals("C:\\\\new", DumpFormat.escape("C:\\new"));
  }

  /** Cells can only be built from keys and domains as WebUrl and Domains make them. */
  @Test
  void cellBuildersRefuseForgedKeys() {
    for (String bad : new String[] {"", "com.a\tx", "com.a\nt:0:x", "com a", "com.é", "x\u0000"}) {
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.incount(bad, 1), bad);
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.total(bad, 1), bad);
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.rank("com.a", bad, 1), bad);
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.rank(bad, "com.a", 1), bad);
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.pageCount(bad, 1), bad);
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.pageCur(bad, "{}"), bad);
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.inlink(bad, "com.a", ""), bad);
      assertThrows(IllegalArgumentException.class, () -> QuerySchema.inlink("com.a", bad, ""), bad);
    }
  }

  /** A ':' in a key never shifts the parse of a t: row or rank qualifier: they parse by width. */
  @Test
  void countsParseByPositionWhateverTheKeyHolds() {
    for (String key :
        new String[] {"com.a/x:y", "[::1]:8080", "com.a:8443s/7fffffffffffffff:z", "t:1"}) {
      for (long urc : new long[] {0, 1, 12345, Long.MAX_VALUE}) {
        assertEquals(
            new QuerySchema.Row.Total(urc, key),
            QuerySchema.parseRow(QuerySchema.totalRow(urc, key)));
        assertEquals(
            new QuerySchema.RankedUri(urc, key),
            QuerySchema.parseRankedUri(QuerySchema.rankedUri(urc, key)));
      }
    }
  }
}
