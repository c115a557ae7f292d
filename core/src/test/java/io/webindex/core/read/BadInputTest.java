package io.webindex.core.read;

import static io.webindex.core.read.JsonLinesReaderTest.gzip;
import static io.webindex.core.read.JsonLinesReaderTest.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.TestData;
import io.webindex.core.model.Page;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Bad input of every class: counted under its reason, sampled (file, offset, detail, excerpt),
 * never aborting, and the good records around it read exactly.
 */
class BadInputTest {

  static String good(int i) {
    return "{\"url\":\"good.com/"
        + i
        + "\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[\"x.com/"
        + i
        + "\"]}";
  }

  record Line(String text, RejectReason reason) {}

  /** A file of good lines with one bad line of every class between them. */
  @Test
  void everyBadJsonLineClassAmongGoodLines() throws IOException {
    List<Line> bad =
        List.of(
            new Line("{\"url\":\"a.com\",\"crawled\":", RejectReason.MALFORMED_JSON),
            new Line("[1,2,3]", RejectReason.MALFORMED_JSON),
            new Line(
                "{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\"} x",
                RejectReason.MALFORMED_JSON),
            new Line(
                "{\"url\":{\"nested\":1},\"crawled\":\"2026-01-01T00:00:00Z\"}",
                RejectReason.MALFORMED_JSON),
            new Line(
                "{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":7}",
                RejectReason.MALFORMED_JSON),
            new Line("\"just a string\"", RejectReason.MALFORMED_JSON),
            new Line("{\"crawled\":\"2026-01-01T00:00:00Z\"}", RejectReason.MISSING_URL),
            new Line(
                "{\"url\":\"  \",\"crawled\":\"2026-01-01T00:00:00Z\"}", RejectReason.MISSING_URL),
            new Line(
                "{\"url\":\"javascript:alert(1)\",\"crawled\":\"2026-01-01T00:00:00Z\"}",
                RejectReason.INVALID_URL),
            new Line(
                "{\"url\":\"http:///\",\"crawled\":\"2026-01-01T00:00:00Z\"}",
                RejectReason.INVALID_URL),
            new Line("{\"url\":\"a.com\"}", RejectReason.BAD_CRAWL_TIME),
            new Line("{\"url\":\"a.com\",\"crawled\":null}", RejectReason.BAD_CRAWL_TIME),
            new Line("{\"url\":\"a.com\",\"crawled\":\"\"}", RejectReason.BAD_CRAWL_TIME),
            new Line("{\"url\":\"a.com\",\"deleted\":true}", RejectReason.BAD_CRAWL_TIME),
            new Line(
                "{\"url\":\"a.com\",\"crawled\":\"2026-13-01T00:00:00Z\"}",
                RejectReason.BAD_CRAWL_TIME),
            new Line("{\"url\":\"a.com\",\"crawled\":\"2026-02-30\"}", RejectReason.BAD_CRAWL_TIME),
            new Line("{\"url\":\"a.com\",\"crawled\":\"soon\"}", RejectReason.BAD_CRAWL_TIME),
            new Line(
                "{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":["
                    + "\"b.com\",".repeat(5)
                    + "\"c.com\"]}",
                RejectReason.OVERSIZED),
            new Line(
                "{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\",\"title\":\""
                    + "t".repeat(5000)
                    + "\"}",
                RejectReason.OVERSIZED));
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    List<Long> goodOffsets = new ArrayList<>();
    List<Long> badOffsets = new ArrayList<>();
    int g = 0;
    for (Line l : bad) {
      goodOffsets.add((long) in.size());
      in.write(utf8(good(g++) + "\n"));
      badOffsets.add((long) in.size());
      in.write(utf8(l.text() + "\n"));
    }
    // bad UTF-8 in a string
    goodOffsets.add((long) in.size());
    in.write(utf8(good(g++) + "\n"));
    badOffsets.add((long) in.size());
    in.write(utf8("{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\",\"title\":\"x"));
    in.write(new byte[] {(byte) 0xC3, (byte) 0x28});
    in.write(utf8("\"}\n"));
    goodOffsets.add((long) in.size());
    in.write(utf8(good(g++))); // the last line without '\n'

    TestData.Read r = TestData.read(in.toByteArray(), "bad.jsonl", 0, new ReadLimits(2048, 5));
    assertEquals(
        goodOffsets, r.pages().stream().map(p -> p.version().offset()).toList(), "good lines");
    for (int i = 0; i < g; i++) {
      assertEquals("com.good/" + i, r.pages().get(i).key());
      assertEquals(
          List.of("com.x/" + i), r.pages().get(i).links().stream().map(l -> l.key()).toList());
    }
    List<RejectReason> expected = new ArrayList<>(bad.stream().map(Line::reason).toList());
    expected.add(RejectReason.BAD_ENCODING);
    assertEquals(expected, r.rejects().stream().map(Reject::reason).toList());
    assertEquals(badOffsets, r.rejects().stream().map(Reject::offset).toList());
    for (int i = 0; i < bad.size(); i++) {
      Reject rej = r.rejects().get(i);
      String text = bad.get(i).text();
      assertEquals("bad.jsonl", rej.file());
      assertEquals(text.substring(0, Math.min(text.length(), Reject.MAX_EXCERPT)), rej.excerpt());
      assertFalse(rej.detail() == null || rej.detail().isBlank(), rej.toString());
      assertEquals(5, rej.toLine().split("\t", -1).length);
    }
    assertEquals(g + bad.size() + 1, r.stats().get(ReadCounter.RECORDS));
    assertEquals(bad.size() + 1, r.stats().get(ReadCounter.REJECTED));
    assertEquals(g, r.stats().get(ReadCounter.PAGES));
    for (RejectReason reason : RejectReason.values()) {
      assertEquals(
          expected.stream().filter(x -> x == reason).count(), r.stats().get(reason), reason.name());
    }
    assertEquals("no crawled", r.rejects().get(10).detail());
    assertTrue(
        r.rejects().get(17).detail().contains("more than 5 links"), r.rejects().get(17).detail());
    assertEquals(
        utf8(bad.get(18).text()).length + " bytes, more than 2048", r.rejects().get(18).detail());
  }

  /** An input stream of {@code n} bytes of one line of 'x', made on the fly. */
  static InputStream hugeLine(long n, String after) {
    byte[] tail = utf8("\n" + after);
    return new InputStream() {
      long left = n;
      int t;

      @Override
      public int read() {
        byte[] b = new byte[1];
        return read(b, 0, 1) < 0 ? -1 : b[0];
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left > 0) {
          int k = (int) Math.min(len, left);
          Arrays.fill(b, off, off + k, (byte) 'x');
          left -= k;
          return k;
        }
        if (t == tail.length) {
          return -1;
        }
        int k = Math.min(len, tail.length - t);
        System.arraycopy(tail, t, b, off, k);
        t += k;
        return k;
      }
    };
  }

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  /**
   * A line far over the limit is skipped as it streams by: reading 256 MB of one line with a 1 MB
   * limit allocates a few MB at most, and the line after it is read.
   */
  @Test
  void oversizedLineIsSkippedWithoutBeingBuffered() throws IOException {
    List<Page> pages = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    ReadStats stats = new ReadStats();
    long before = allocatedBytes();
    PageReaders.read(
        hugeLine(256L << 20, good(1) + "\n"),
        "huge.jsonl",
        0,
        new ReadLimits(1 << 20, 10),
        stats,
        sink(pages, rejects));
    long allocated = allocatedBytes() - before;
    assertTrue(allocated < 16L << 20, "allocated " + allocated + " bytes for a 256 MB line");
    assertEquals(List.of("com.good/1"), pages.stream().map(Page::key).toList());
    assertEquals(1, rejects.size());
    assertEquals(RejectReason.OVERSIZED, rejects.get(0).reason());
    assertEquals(0, rejects.get(0).offset());
    assertEquals((256L << 20) + " bytes, more than " + (1 << 20), rejects.get(0).detail());
    assertEquals("x".repeat(Reject.MAX_EXCERPT), rejects.get(0).excerpt(), "a sample of its head");
    assertEquals((256L << 20) + 1, pages.get(0).version().offset());
  }

  /** Many lines just over the limit cost no buffer each (they used to cost one of 8 MB each). */
  @Test
  void manyOversizedLinesAllocateNoBufferEach() throws IOException {
    int limit = 64 << 10;
    String over = "{\"url\":\"a.com\",\"title\":\"" + "t".repeat(limit) + "\"}\n";
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      sb.append(over);
    }
    sb.append(good(1)).append('\n');
    byte[] in = utf8(sb.toString());
    List<Page> pages = new ArrayList<>();
    List<Reject> rejects = new ArrayList<>();
    long before = allocatedBytes();
    PageReaders.read(
        new ByteArrayInputStream(in),
        "f",
        0,
        new ReadLimits(limit, 10),
        new ReadStats(),
        sink(pages, rejects));
    long allocated = allocatedBytes() - before;
    assertEquals(400, rejects.size());
    assertEquals(1, pages.size());
    assertTrue(allocated < 8L << 20, "allocated " + allocated + " bytes for 400 oversized lines");
  }

  /**
   * 100k links with a 20,000 limit: the page is OVERSIZED as soon as link 20,001 is read; the rest
   * of the array is never read (here it is not even JSON), nor are the links built.
   */
  @Test
  void hundredThousandLinksAreOversizedWithoutReadingThemAll() {
    StringBuilder links = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      links
          .append(i == 0 ? "" : ",")
          .append(i == 20_001 ? "oops, not JSON" : "\"b.com/" + i + "\"");
    }
    String line =
        "{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[" + links + "]}\n";
    String exactly =
        "{\"url\":\"c.com\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":["
            + String.join(",", java.util.Collections.nCopies(20_000, "\"d.com\""))
            + "]}\n";
    TestData.Read r = TestData.read(utf8(line + exactly + good(1) + "\n"), "many.jsonl", 0);
    assertEquals(1, r.rejects().size());
    assertEquals(RejectReason.OVERSIZED, r.rejects().get(0).reason());
    assertEquals("more than 20000 links", r.rejects().get(0).detail());
    assertEquals(List.of("com.c", "com.good/1"), r.pages().stream().map(Page::key).toList());
    assertEquals(19_999, r.stats().get(ReadCounter.LINKS_DUPLICATE), "20,000 links are allowed");
  }

  /**
   * Links of every odd kind in one page: each kept one is normalised, each dropped one counted
   * ({@code LINKS_INVALID}, {@code LINKS_SELF}, {@code LINKS_DUPLICATE}), the page itself kept.
   */
  @Test
  void linksOfEveryKind() {
    String[][] links = {
      {"http://user:pw@b.com/x", "userinfo"}, // kept as http://b.com/x
      {"http://b.com/x", "dup of the userinfo one"}, // duplicate
      {"javascript:alert(1)", "js"}, // invalid
      {"mailto:a@b.com", "mail"}, // invalid
      {"data:text/html,x", "data"}, // invalid
      {"http://", "no host"}, // invalid
      {"http://c.com/" + "x".repeat(10_000), "long"}, // invalid
      {"http://c.com/%zz", "bad escape"}, // kept as %25zz
      {"http://bücher.de/", "idn"}, // kept
      {"http://xn--bcher-kva.de/", "punycode"}, // duplicate of the IDN
      {"http://[2001:db8::1]:8080/", "ipv6"}, // kept
      {"http://d.com:8080/", ""}, // kept, empty anchor
      {"http://e.com:99999/", "bad port"}, // invalid
      {"", "empty"}, // the page itself
      {"#top", "fragment"}, // the page itself
      {"/p?q#f", "   "}, // the page itself (blank anchor)
    };
    StringBuilder sb =
        new StringBuilder(
            "{\"url\":\"http://a.com/p?q\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[");
    for (int i = 0; i < links.length; i++) {
      sb.append(i == 0 ? "" : ",")
          .append("{\"url\":\"")
          .append(links[i][0])
          .append("\",\"anchor\":\"")
          .append(links[i][1])
          .append("\"}");
    }
    sb.append(
        ",{\"anchor\":\"no url\"},{\"url\":\"f.com\",\"anchor\":null},{\"url\":\"g.com\"}]}\n");
    TestData.Read r = TestData.read(utf8(sb.toString()), "links.jsonl", 0);
    assertEquals(List.of(), r.rejects());
    Page p = r.pages().get(0);
    assertEquals(
        List.of(
            "com.b/x",
            "com.c/%25zz",
            "de.xn--bcher-kva",
            "[2001:db8::1]:8080",
            "com.d:8080",
            "com.f",
            "com.g"),
        p.links().stream().map(l -> l.key()).toList());
    assertEquals("http://b.com/x", p.links().get(0).url(), "no user info in a stored URL");
    assertEquals("userinfo", p.links().get(0).anchor());
    assertEquals("", p.links().get(4).anchor());
    assertEquals("", p.links().get(5).anchor());
    assertEquals(7, r.stats().get(ReadCounter.LINKS));
    assertEquals(
        7, r.stats().get(ReadCounter.LINKS_INVALID), "js, mail, data, no host, long, port, no url");
    assertEquals(2, r.stats().get(ReadCounter.LINKS_DUPLICATE));
    assertEquals(3, r.stats().get(ReadCounter.LINKS_SELF));
  }

  /** Page URLs of every odd kind: each rejected under its reason, or kept normalised. */
  @Test
  void pageUrlsOfEveryKind() {
    String[][] cases = {
      {"http://", "INVALID_URL"},
      {"javascript:alert(1)", "INVALID_URL"},
      {"mailto:a@b.com", "INVALID_URL"},
      {"data:text/html,x", "INVALID_URL"},
      {"http://a.com/" + "x".repeat(10_000), "INVALID_URL"},
      {"http://a.com:65536/", "INVALID_URL"},
      {"http://[zz]/", "INVALID_URL"},
      {"", "MISSING_URL"},
      {"http://user:pw@a.com/", "com.a"},
      {"http://a.com/%zz", "com.a/%25zz"},
      {"bücher.de", "de.xn--bcher-kva"},
      {"http://[::1]:8080/x", "[::1]:8080/x"},
      {"https://a.com:443/", "com.a:s"},
      {"http://a.com:0/", "com.a:0"},
    };
    StringBuilder sb = new StringBuilder();
    for (String[] c : cases) {
      sb.append("{\"url\":\"").append(c[0]).append("\",\"crawled\":\"2026-01-01T00:00:00Z\"}\n");
    }
    TestData.Read r = TestData.read(utf8(sb.toString()), "urls.jsonl", 0);
    List<String> outcomes = new ArrayList<>();
    int page = 0;
    int reject = 0;
    for (String[] c : cases) {
      outcomes.add(
          c[1].equals(c[1].toUpperCase(java.util.Locale.ROOT)) && !c[1].startsWith("[")
              ? r.rejects().get(reject++).reason().name()
              : r.pages().get(page++).key());
    }
    assertEquals(java.util.Arrays.stream(cases).map(c -> c[1]).toList(), outcomes);
    assertEquals(page, r.pages().size());
    assertEquals(reject, r.rejects().size());
    assertEquals("http://a.com/", r.pages().get(0).url(), "user info dropped");
  }

  // ------------------------------------------------------------------------- gzip

  /** The bytes a plain gzip stream yields before it fails: the reference for a truncated file. */
  static byte[] decodablePrefix(byte[] gz) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      int b;
      while ((b = in.read()) >= 0) {
        out.write(b);
      }
    } catch (EOFException e) {
      // truncated: what came before is the prefix
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.toByteArray();
  }

  /** A truncated gzip file: exactly the lines that were whole before the cut are read. */
  @Test
  void truncatedGzipKeepsExactlyWhatCameBefore() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      sb.append(good(i)).append('\n');
    }
    byte[] gz = gzip(utf8(sb.toString()));
    for (int cut :
        new int[] {11, 100, gz.length / 3, gz.length / 2, gz.length - 9, gz.length - 1}) {
      byte[] truncated = Arrays.copyOf(gz, cut);
      String prefix = new String(decodablePrefix(truncated), StandardCharsets.UTF_8);
      int whole = (int) prefix.chars().filter(c -> c == '\n').count();
      String partial = prefix.substring(prefix.lastIndexOf('\n') + 1);
      TestData.Read r = TestData.read(truncated, "cut.jsonl.gz", 0);
      List<String> keys = r.pages().stream().map(Page::key).toList();
      int expectedPages = whole + (partial.equals(good(whole)) ? 1 : 0);
      assertEquals(expectedPages, keys.size(), "cut at " + cut);
      for (int i = 0; i < keys.size(); i++) {
        assertEquals("com.good/" + i, keys.get(i));
      }
      List<RejectReason> reasons = r.rejects().stream().map(Reject::reason).toList();
      List<RejectReason> expected = new ArrayList<>();
      if (!partial.isEmpty() && !partial.equals(good(whole))) {
        expected.add(RejectReason.MALFORMED_JSON); // the line the cut went through
      }
      expected.add(RejectReason.CORRUPT_COMPRESSION);
      assertEquals(expected, reasons, "cut at " + cut);
      assertEquals(
          prefix.getBytes(StandardCharsets.UTF_8).length,
          r.rejects().get(r.rejects().size() - 1).offset(),
          "damage offset");
    }
  }

  /** One gzip member per line (as Common Crawl writes records); one member garbled. */
  @Test
  void garbledGzipMemberCostsOnlyItsOwnLine() throws IOException {
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    List<Integer> memberStarts = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      memberStarts.add(file.size());
      file.write(gzip(utf8(good(i) + "\n")));
    }
    byte[] whole = file.toByteArray();
    for (int victim : new int[] {0, 1, 17, 39}) {
      byte[] b = whole.clone();
      int start = memberStarts.get(victim);
      int end = victim + 1 < memberStarts.size() ? memberStarts.get(victim + 1) : b.length;
      for (int k = start + 12; k < end - 8; k++) {
        b[k] = (byte) 0xff; // the deflate data, not the header
      }
      TestData.Read r = TestData.read(b, "members.jsonl.gz", 0);
      List<String> keys = r.pages().stream().map(Page::key).toList();
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        if (i != victim) {
          expected.add("com.good/" + i);
        }
      }
      assertEquals(expected, keys, "member " + victim + " garbled");
      assertEquals(1, r.stats().get(RejectReason.CORRUPT_COMPRESSION), "member " + victim);
      assertEquals(
          r.stats().get(ReadCounter.RECORDS),
          r.stats().get(ReadCounter.PAGES) + r.stats().get(ReadCounter.REJECTED));
    }
    // a member cut short in the middle of the file, and garbage after the last member
    ByteArrayOutputStream cut = new ByteArrayOutputStream();
    cut.write(whole, 0, memberStarts.get(10));
    byte[] m10 = gzip(utf8(good(10) + "\n"));
    cut.write(m10, 0, m10.length / 2);
    cut.write(whole, memberStarts.get(11), whole.length - memberStarts.get(11));
    cut.write(utf8("trailing junk"));
    TestData.Read r = TestData.read(cut.toByteArray(), "cut-members.jsonl.gz", 0);
    List<String> keys = r.pages().stream().map(Page::key).toList();
    assertEquals(39, keys.size(), keys.toString());
    assertFalse(keys.contains("com.good/10"));
    // two damaged places: member 10 cut short, and the junk after the last member
    assertEquals(2, r.stats().get(RejectReason.CORRUPT_COMPRESSION), r.stats().toString());
  }

  // ------------------------------------------------------------------------- WAT

  static WatReaderTest.WatWriter goodPage(WatReaderTest.WatWriter w, int i) throws IOException {
    return w.page(
        "http://good.com/" + i, "2026-01-02T00:00:00Z", "G" + i, null, "http://x.com/" + i, "X");
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Good records around every kind of damaged WARC record: the good ones are all read. */
  @Test
  void damagedWarcRecordsAmongGoodOnes() throws IOException {
    String html =
        "{\"Envelope\":{\"Payload-Metadata\":{\"HTTP-Response-Metadata\":"
            + "{\"HTML-Metadata\":{\"Head\":{\"Title\":\"T\"}}}}}}";
    WatReaderTest.WatWriter w = new WatReaderTest.WatWriter(false);
    goodPage(w, 0);
    // 1. a record cut short in its content, the next record glued to it
    w.out.write(
        ascii(
            "WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Target-URI: http://cut.com/\r\n"
                + "WARC-Date: 2026-01-02T00:00:00Z\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1500\r\n\r\n{\"Envelope\":{\"Payl"));
    goodPage(w, 1);
    // 2. a header block cut short by the next record
    w.out.write(ascii("WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Target-URI: http://h"));
    w.out.write(ascii("\r\n"));
    goodPage(w, 2);
    // 3. garbage with the next record glued to its end
    w.out.write(ascii("\u0001\u0002 random garbage"));
    goodPage(w, 3);
    // 4. bad Content-Length
    w.out.write(ascii("WARC/1.0\r\nWARC-Type: metadata\r\nContent-Length: -5\r\n\r\n{}\r\n\r\n"));
    goodPage(w, 4);
    // 5. a header line without ':'
    w.out.write(ascii("WARC/1.0\r\nWARC-Type metadata\r\nContent-Length: 2\r\n\r\n{}\r\n\r\n"));
    goodPage(w, 5);
    // 6. no WARC-Date, a bad WARC-Date
    w.record("metadata", "http://nodate.com/", null, "application/json", html);
    goodPage(w, 6);
    w.record("metadata", "http://baddate.com/", "2026-99-99", "application/json", html);
    goodPage(w, 7);
    // 7. malformed and truncated JSON in a well-framed record
    w.record(
        "metadata",
        "http://json.com/",
        "2026-01-02T00:00:00Z",
        "application/json",
        "{\"Envelope\":{\"Payload-Metadata\":");
    goodPage(w, 8);
    // 8. an oversized record
    w.page("http://big.com/", "2026-01-02T00:00:00Z", "B".repeat(5000), null);
    goodPage(w, 9);
    // 9. the last record truncated by the end of the file
    w.out.write(ascii("WARC/1.0\r\nWARC-Type: metadata\r\nContent-Length: 900\r\n\r\n{\"Env"));
    TestData.Read r = TestData.read(w.bytes(), "damaged.wat", 0, new ReadLimits(4096, 100));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i <= 9; i++) {
      expected.add("com.good/" + i);
    }
    assertEquals(expected, r.pages().stream().map(Page::key).toList());
    for (int i = 0; i <= 9; i++) {
      assertEquals(
          List.of("com.x/" + i), r.pages().get(i).links().stream().map(l -> l.key()).toList());
    }
    assertEquals(
        List.of(
            RejectReason.MALFORMED_WARC,
            RejectReason.MALFORMED_WARC,
            RejectReason.MALFORMED_WARC,
            RejectReason.MALFORMED_WARC,
            RejectReason.MALFORMED_WARC,
            RejectReason.BAD_CRAWL_TIME,
            RejectReason.BAD_CRAWL_TIME,
            RejectReason.MALFORMED_JSON,
            RejectReason.OVERSIZED,
            RejectReason.MALFORMED_WARC),
        r.rejects().stream().map(Reject::reason).toList(),
        r.rejects().toString());
    assertTrue(
        r.rejects().get(0).detail().startsWith("truncated record"), r.rejects().get(0).detail());
    assertEquals("header block cut short by the next record", r.rejects().get(1).detail());
    assertEquals("expected a WARC/ version line", r.rejects().get(2).detail());
    assertEquals("no WARC-Date", r.rejects().get(5).detail());
    assertEquals(
        r.stats().get(ReadCounter.RECORDS),
        r.stats().get(ReadCounter.PAGES)
            + r.stats().get(ReadCounter.REJECTED)
            + r.stats().get(ReadCounter.SKIPPED_NOT_PAGE)
            + r.stats().get(ReadCounter.SKIPPED_NOT_HTML));
    // offsets: every good page at its WARC/ line
    byte[] all = w.bytes();
    for (Page p : r.pages()) {
      int at = (int) p.version().offset();
      assertEquals("WARC/1.0", new String(all, at, 8, StandardCharsets.US_ASCII));
    }
  }

  /** Per-record gzip WAT with a garbled member and a truncated end. */
  @Test
  void garbledAndTruncatedGzipWat() throws IOException {
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      starts.add(file.size());
      file.write(goodPage(new WatReaderTest.WatWriter(true), i).bytes());
    }
    byte[] b = file.toByteArray();
    for (int k = starts.get(5) + 20; k < starts.get(6) - 10; k++) {
      b[k] ^= 0x5a;
    }
    byte[] truncated = Arrays.copyOf(b, starts.get(11) + (b.length - starts.get(11)) / 2);
    TestData.Read r = TestData.read(truncated, "g.wat.gz", 0);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      if (i != 5) {
        expected.add("com.good/" + i);
      }
    }
    assertEquals(expected, r.pages().stream().map(Page::key).toList(), r.rejects().toString());
    assertEquals(2, r.stats().get(RejectReason.CORRUPT_COMPRESSION), r.rejects().toString());
    assertEquals(
        RejectReason.CORRUPT_COMPRESSION, r.rejects().get(r.rejects().size() - 1).reason());
  }

  /** A WAT page with 100k links is OVERSIZED at link 20,001; what follows is never parsed. */
  @Test
  void watPageWithHundredThousandLinks() throws IOException {
    StringBuilder links = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      links.append(i == 0 ? "" : ",");
      links.append(
          i == 20_001 ? "not JSON at all" : "{\"path\":\"A@/href\",\"url\":\"/p" + i + "\"}");
    }
    String json =
        "{\"Envelope\":{\"WARC-Header-Metadata\":{},\"Payload-Metadata\":"
            + "{\"HTTP-Response-Metadata\":{\"HTML-Metadata\":{\"Head\":{\"Title\":\"T\"},\"Links\":["
            + links
            + "]}}}}}";
    WatReaderTest.WatWriter w = new WatReaderTest.WatWriter(false);
    w.record("metadata", "http://a.com/", "2026-01-02T00:00:00Z", "application/json", json);
    goodPage(w, 1);
    TestData.Read r = TestData.read(w.bytes(), "links.wat", 0);
    assertEquals(List.of("com.good/1"), r.pages().stream().map(Page::key).toList());
    assertEquals(1, r.rejects().size());
    assertEquals(RejectReason.OVERSIZED, r.rejects().get(0).reason());
    assertEquals("more than 20000 links", r.rejects().get(0).detail());
  }

  static PageSink sink(List<Page> pages, List<Reject> rejects) {
    return new PageSink() {
      @Override
      public void page(Page page) {
        pages.add(page);
      }

      @Override
      public void reject(Reject reject) {
        rejects.add(reject);
      }
    };
  }
}
