package io.webindex.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.webindex.core.index.IndexCells;
import io.webindex.core.json.PageJson;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.model.UriState;
import io.webindex.core.read.ReadCounter;
import io.webindex.core.read.ReadLimits;
import io.webindex.core.read.Reject;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.DumpFormat;
import io.webindex.core.schema.QuerySchema;
import io.webindex.core.url.Domains;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Generated garbage thrown at the readers and at the URL and key code, from a fixed seed printed at
 * the start (rerun one with {@code -Dwebindex.fuzz.seed=<seed>}): random bytes, mutated JSON lines,
 * mutated WARC records (plain, gzip, per-record gzip, truncated), random URL strings and random
 * keys. No exception escapes; every read's counters add up; every accepted page's key and link keys
 * round-trip (key → URL → key) and every cell they make stays in its range and round-trips through
 * the dump format.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FuzzTest {
  private static final long SEED = Long.getLong("webindex.fuzz.seed", 20261123L);
  private static final int CASES = Integer.getInteger("webindex.fuzz.cases", 4000);
  private static final ReadLimits SMALL = new ReadLimits(4096, 50);

  private static final String[] TOKENS = {
    "\n",
    "\r\n",
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "\\",
    "\\u0000",
    "\\ud800",
    "&",
    "&#",
    "&amp;",
    "&#x10FFFF;",
    "%",
    "%3A",
    "%0A",
    "%zz",
    "\t",
    "\u0000",
    "\u00e9",
    "\u2028",
    "null",
    "true",
    "1e999",
    "-0",
    "WARC/1.0\r\n",
    "WARC/",
    "Content-Length: 99999\r\n",
    "\r\n\r\n",
    "http://",
    "https://[::1]:8080/",
    "javascript:",
    "xn--",
    "@",
    "#",
    "?",
    "/../",
    "p:",
    "t:",
    "d:",
    "\u001f",
    "\u00ff",
    "\"url\":",
    "\"crawled\":",
    "\"links\":[",
    "\"deleted\":true"
  };

  private static final String[] URL_PIECES = {
    "http://",
    "https://",
    "HTTP://",
    "//",
    "\\\\",
    "",
    "a.com",
    "www.b.co.uk",
    "xn--bcher-kva.de",
    "bücher.de",
    "1.2.3.4",
    "010.0.0.1",
    "[::1]",
    "[2001:db8::1]",
    "[::ffff:1.2.3.4]",
    "localhost",
    "user:pw@",
    "@",
    ":",
    ":80",
    ":443",
    ":8080",
    ":0",
    ":99999",
    "/",
    "/x",
    "/a b",
    "/%7e",
    "/%zz",
    "/%3A",
    "/%2F",
    "/./",
    "/../",
    "?",
    "?q=1",
    "&r=%",
    "#f",
    "\t",
    "\n",
    "\u0000",
    "é",
    "\u3002",
    ".",
    "..",
    "-",
    "_",
    "p:",
    "t:1",
    "d:x",
    "javascript:",
    "mailto:x@y",
    "data:,x",
    "%00",
    "%",
    "\u200b",
    "\ud83d\ude00",
    "xn--",
    "A",
    "Z",
    "0"
  };

  private final Random rnd = new Random(SEED);

  @Test
  void readersAndKeysSurviveGarbage() throws Exception {
    System.out.println("FuzzTest seed " + SEED + " (-Dwebindex.fuzz.seed=" + SEED + ")");
    List<byte[]> jsonCorpus = jsonCorpus();
    List<byte[]> watCorpus = watCorpus();
    int pages = 0;
    int rejects = 0;
    for (int i = 0; i < CASES; i++) {
      String what = "seed " + SEED + " case " + i;
      byte[] input =
          switch (i % 4) {
            case 0 -> randomBytes();
            case 1 -> mutate(jsonCorpus.get(rnd.nextInt(jsonCorpus.size())));
            case 2 -> mutate(watCorpus.get(rnd.nextInt(watCorpus.size())));
            default -> mutate(watCorpus.get(rnd.nextInt(watCorpus.size())), true);
          };
      if (rnd.nextInt(5) == 0) {
        input = gzip(input, rnd.nextBoolean());
        if (rnd.nextBoolean()) {
          input = Arrays.copyOf(input, rnd.nextInt(input.length + 1));
        }
      }
      TestData.Read r = read(input, what);
      checkRead(r, what);
      pages += r.pages().size();
      rejects += r.rejects().size();
    }
    for (int i = 0; i < CASES * 5; i++) {
      checkUrl(randomUrl(), "seed " + SEED + " url " + i);
      checkKey(randomKey(), "seed " + SEED + " key " + i);
    }
    // the generators are not so wild that nothing is ever accepted, nor so tame that nothing is
    // ever rejected
    assertTrue(pages > CASES / 10, "pages " + pages);
    assertTrue(rejects > CASES / 10, "rejects " + rejects);
  }

  private static TestData.Read read(byte[] input, String what) {
    try {
      return TestData.read(input, "fuzz", 1, SMALL);
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": an exception escaped the reader", e);
    }
  }

  private static void checkRead(TestData.Read r, String what) throws InvalidUrlException {
    long records = r.stats().get(ReadCounter.RECORDS);
    assertEquals(
        records,
        r.stats().get(ReadCounter.PAGES)
            + r.stats().get(ReadCounter.REJECTED)
            + r.stats().get(ReadCounter.SKIPPED_NOT_PAGE)
            + r.stats().get(ReadCounter.SKIPPED_NOT_HTML),
        what + ": every record is a page, a reject or a skip " + r.stats());
    assertEquals(r.stats().get(ReadCounter.PAGES), r.pages().size(), what);
    assertEquals(r.stats().get(ReadCounter.REJECTED), r.rejects().size(), what);
    for (Reject rej : r.rejects()) {
      assertTrue(rej.excerpt().length() <= Reject.MAX_EXCERPT, what);
      String line = rej.toLine();
      assertEquals(5, line.split("\t", -1).length, what + ": " + line);
      assertFalse(line.contains("\n") || line.contains("\r"), what);
    }
    for (Page p : r.pages()) {
      checkPage(p, what);
    }
  }

  private static void checkPage(Page p, String what) throws InvalidUrlException {
    String w = what + " page " + p.key();
    assertKeyRoundTrips(p.key(), w);
    assertEquals(p.key(), WebUrl.parse(p.url()).key(), w + ": url and key agree");
    Set<String> targets = new HashSet<>();
    for (Link l : p.links()) {
      assertKeyRoundTrips(l.key(), w);
      assertEquals(l.key(), WebUrl.parse(l.url()).key(), w);
      assertNotEquals(p.key(), l.key(), w + ": no self link");
      assertTrue(targets.add(l.key()), w + ": links deduplicated");
      assertFalse(l.anchor().contains("\t") || l.anchor().contains("\n"), w);
    }
    assertEquals(p, PageJson.fromStoredJson(PageJson.toStoredJson(p)), w + ": stored JSON");
    List<Cell> cells = new ArrayList<>(IndexCells.page(p));
    cells.addAll(IndexCells.uri(p.key(), UriState.of(3, true)));
    for (Link l : p.links()) {
      cells.addAll(IndexCells.uri(l.key(), UriState.of(1, false)));
    }
    for (Cell c : cells) {
      assertCellInRange(c, w);
    }
  }

  private static void assertKeyRoundTrips(String key, String what) throws InvalidUrlException {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      assertTrue(c > 0x20 && c < 0x7f, what + ": non-printable char in key " + key);
    }
    assertEquals(key, WebUrl.fromKey(key).key(), what + ": key → URL → key");
  }

  private static void assertCellInRange(Cell c, String what) {
    QuerySchema.Row row = QuerySchema.parseRow(c.row());
    if (row instanceof QuerySchema.Row.Page p) {
      assertEquals(c.row(), QuerySchema.pageRow(p.uri()), what);
      if (c.family().equals(QuerySchema.FAM_INLINKS)) {
        assertEquals(c.qualifier(), QuerySchema.requireKeyText(c.qualifier()), what);
      }
    } else if (row instanceof QuerySchema.Row.Total t) {
      assertEquals(c.row(), QuerySchema.totalRow(t.urc(), t.uri()), what);
      assertEquals(Long.toString(t.urc()), c.value(), what);
    } else if (row instanceof QuerySchema.Row.Domain d) {
      assertEquals(c.row(), QuerySchema.domainRow(d.domain()), what);
      QuerySchema.RankedUri ru = QuerySchema.parseRankedUri(c.qualifier());
      assertEquals(Long.toString(ru.urc()), c.value(), what);
    }
    String line = DumpFormat.line(c);
    assertEquals(3, line.split("\t", -1).length, what + ": " + line);
    assertFalse(line.contains("\n") || line.contains("\r"), what);
    assertEquals(c, DumpFormat.parse(line), what + ": dump round trip");
  }

  private static final WebUrl BASE = WebUrl.of("http://base.com/dir/page.html?q=1");

  private static void checkUrl(String raw, String what) {
    for (WebUrl base : new WebUrl[] {null, BASE}) {
      WebUrl url;
      try {
        url = WebUrl.parse(raw, base);
      } catch (InvalidUrlException e) {
        continue;
      } catch (RuntimeException e) {
        throw new AssertionError(what + ": " + escape(raw) + " threw", e);
      }
      String w = what + " " + escape(raw);
      try {
        assertKeyRoundTrips(url.key(), w);
        assertEquals(url, WebUrl.parse(url.toString()), w + ": idempotent");
        assertTrue(url.toString().length() <= WebUrl.MAX_LENGTH, w);
        String domain = Domains.of(url);
        for (Cell c : IndexCells.uri(url.key(), domain, UriState.of(2, true))) {
          assertCellInRange(c, w);
        }
      } catch (InvalidUrlException e) {
        fail(w + ": an accepted URL's key did not round-trip: " + e.getMessage());
      }
    }
  }

  private static void checkKey(String key, String what) {
    WebUrl url;
    try {
      url = WebUrl.fromKey(key);
    } catch (InvalidUrlException e) {
      return;
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": fromKey(" + escape(key) + ") threw", e);
    }
    assertEquals(key, url.key(), what + ": an accepted key is canonical");
  }

  // ------------------------------------------------------------------------- generators

  private byte[] randomBytes() {
    byte[] b = new byte[rnd.nextInt(3000)];
    rnd.nextBytes(b);
    if (rnd.nextBoolean() && b.length > 5) {
      System.arraycopy("WARC/".getBytes(StandardCharsets.US_ASCII), 0, b, 0, 5);
    }
    return b;
  }

  private String randomUrl() {
    StringBuilder sb = new StringBuilder();
    for (int k = 1 + rnd.nextInt(8); k > 0; k--) {
      sb.append(URL_PIECES[rnd.nextInt(URL_PIECES.length)]);
    }
    if (rnd.nextInt(20) == 0) {
      sb.append("x".repeat(rnd.nextInt(3000)));
    }
    return sb.toString();
  }

  private String randomKey() {
    if (rnd.nextBoolean()) {
      try {
        String key = WebUrl.parse(randomUrl()).key();
        StringBuilder sb = new StringBuilder(key);
        if (sb.length() > 0 && rnd.nextBoolean()) {
          sb.setCharAt(rnd.nextInt(sb.length()), (char) (0x20 + rnd.nextInt(0x60)));
        }
        return sb.toString();
      } catch (InvalidUrlException e) {
        return randomUrl();
      }
    }
    StringBuilder sb = new StringBuilder();
    String alphabet = "abc.:/s0189[]?%-_@";
    for (int k = rnd.nextInt(16); k > 0; k--) {
      sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  private byte[] mutate(byte[] valid) {
    return mutate(valid, false);
  }

  /** Byte flips, inserted tokens, cut, duplicated and deleted ranges; or a per-record gzip. */
  private byte[] mutate(byte[] valid, boolean heavy) {
    byte[] b = valid.clone();
    int n = heavy ? 1 + rnd.nextInt(40) : 1 + rnd.nextInt(6);
    for (int k = 0; k < n && b.length > 0; k++) {
      int at = rnd.nextInt(b.length);
      switch (rnd.nextInt(6)) {
        case 0 -> b[at] = (byte) rnd.nextInt(256);
        case 1 ->
            b = insert(b, at, TOKENS[rnd.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8));
        case 2 -> {
          int len = rnd.nextInt(Math.min(200, b.length - at) + 1);
          byte[] out = new byte[b.length - len];
          System.arraycopy(b, 0, out, 0, at);
          System.arraycopy(b, at + len, out, at, b.length - at - len);
          b = out;
        }
        case 3 -> {
          int len = rnd.nextInt(Math.min(300, b.length - at) + 1);
          b = insert(b, rnd.nextInt(b.length + 1), Arrays.copyOfRange(b, at, at + len));
        }
        case 4 -> b = Arrays.copyOf(b, at);
        default -> {
          // a digit changed: Content-Length, dates, counts
          for (int i = at; i < b.length; i++) {
            if (b[i] >= '0' && b[i] <= '9') {
              b[i] = (byte) ('0' + rnd.nextInt(10));
              break;
            }
          }
        }
      }
    }
    return b;
  }

  private static byte[] insert(byte[] b, int at, byte[] what) {
    byte[] out = new byte[b.length + what.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(what, 0, out, at, what.length);
    System.arraycopy(b, at, out, at + what.length, b.length - at);
    return out;
  }

  private byte[] gzip(byte[] b, boolean perChunk) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int chunk = perChunk ? 1 + rnd.nextInt(500) : Math.max(1, b.length);
      for (int at = 0; at < b.length || at == 0; at += chunk) {
        try (GZIPOutputStream gz =
            new GZIPOutputStream(out) {
              @Override
              public void close() throws IOException {
                finish();
              }
            }) {
          gz.write(b, at, Math.min(chunk, b.length - at));
        }
        if (b.length == 0) {
          break;
        }
      }
      if (perChunk && rnd.nextBoolean() && out.size() > 40) {
        byte[] g = out.toByteArray();
        for (int k = rnd.nextInt(5); k >= 0; k--) {
          g[rnd.nextInt(g.length)] ^= (byte) (1 + rnd.nextInt(255));
        }
        return g;
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<byte[]> jsonCorpus() {
    List<byte[]> corpus = new ArrayList<>();
    corpus.add(TestData.resource("/io/webindex/core/worked-example.jsonl"));
    for (int f = 0; f < 10; f++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 1 + rnd.nextInt(8); i++) {
        sb.append("{\"url\":\"")
            .append(jsonEscape(randomUrl()))
            .append("\",\"crawled\":\"2026-0")
            .append(1 + rnd.nextInt(9))
            .append("-1")
            .append(rnd.nextInt(10))
            .append("T10:00:00Z\",\"title\":\"T &amp; ")
            .append(i)
            .append("\",\"links\":[");
        for (int k = rnd.nextInt(6); k > 0; k--) {
          sb.append(
                  rnd.nextBoolean()
                      ? "\"" + jsonEscape(randomUrl()) + "\""
                      : "{\"url\":\"" + jsonEscape(randomUrl()) + "\",\"anchor\":\"a" + k + "\"}")
              .append(k > 1 ? "," : "");
        }
        sb.append("]}\n");
        if (rnd.nextInt(4) == 0) {
          sb.append("{\"url\":\"a.com/")
              .append(i)
              .append("\",\"crawled\":\"2026-01-01\",\"deleted\":true}\n");
        }
      }
      corpus.add(sb.toString().getBytes(StandardCharsets.UTF_8));
    }
    return corpus;
  }

  private List<byte[]> watCorpus() {
    List<byte[]> corpus = new ArrayList<>();
    corpus.add(TestData.resource("/io/webindex/core/common-crawl-sample.wat.warc"));
    for (int f = 0; f < 10; f++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 1 + rnd.nextInt(5); i++) {
        StringBuilder links = new StringBuilder();
        for (int k = rnd.nextInt(6); k > 0; k--) {
          links
              .append("{\"path\":\"A@/href\",\"url\":\"")
              .append(jsonEscape(randomUrl()))
              .append("\",\"text\":\"x &amp; &#65;\"},");
        }
        links.append("{\"path\":\"IMG@/src\",\"url\":\"/i.png\"}");
        String json =
            "{\"Envelope\":{\"WARC-Header-Metadata\":{\"WARC-Type\":\"response\"},"
                + "\"Payload-Metadata\":{\"HTTP-Response-Metadata\":{\"HTML-Metadata\":{\"Head\":"
                + "{\"Title\":\"T&lt;"
                + i
                + "\",\"Base\":\""
                + jsonEscape(randomUrl())
                + "\"},"
                + "\"Links\":["
                + links
                + "]}}}}}";
        String target = rnd.nextInt(4) == 0 ? randomUrl() : "http://w" + i + ".com/p";
        int len = json.getBytes(StandardCharsets.UTF_8).length;
        sb.append("WARC/1.0\r\nWARC-Type: ")
            .append(rnd.nextInt(5) == 0 ? "request" : "metadata")
            .append("\r\nWARC-Target-URI: ")
            .append(target.replace("\r", "").replace("\n", ""))
            .append("\r\nWARC-Date: 2026-01-0")
            .append(1 + rnd.nextInt(9))
            .append("T00:00:00Z\r\nContent-Type: application/json\r\nContent-Length: ")
            .append(len)
            .append("\r\n\r\n")
            .append(json)
            .append("\r\n\r\n");
      }
      corpus.add(sb.toString().getBytes(StandardCharsets.UTF_8));
    }
    return corpus;
  }

  private static String jsonEscape(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      sb.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return sb.length() > 300 ? sb.substring(0, 300) + "…" : sb.toString();
  }
}
