package io.webindex.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.TestData;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class WatReaderTest {

  /**
   * Writes WAT records the way Common Crawl does (CRLF headers, JSON content, blank-line trailer).
   */
  static final class WatWriter {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final boolean gzipPerRecord;

    /** Where each plain record's content ends (before its blank-line trailer). */
    final List<Integer> contentEnds = new java.util.ArrayList<>();

    WatWriter(boolean gzipPerRecord) {
      this.gzipPerRecord = gzipPerRecord;
    }

    WatWriter record(String type, String uri, String date, String contentType, String content)
        throws IOException {
      byte[] body = content.getBytes(StandardCharsets.UTF_8);
      StringBuilder h = new StringBuilder("WARC/1.0\r\nWARC-Type: ").append(type).append("\r\n");
      if (uri != null) {
        h.append("WARC-Target-URI: ").append(uri).append("\r\n");
      }
      if (date != null) {
        h.append("WARC-Date: ").append(date).append("\r\n");
      }
      h.append("Content-Type: ").append(contentType).append("\r\n");
      h.append("Content-Length: ").append(body.length).append("\r\n\r\n");
      ByteArrayOutputStream rec = new ByteArrayOutputStream();
      rec.write(h.toString().getBytes(StandardCharsets.UTF_8));
      rec.write(body);
      rec.write("\r\n\r\n".getBytes(StandardCharsets.UTF_8));
      if (gzipPerRecord) {
        try (GZIPOutputStream gz =
            new GZIPOutputStream(out) {
              @Override
              public void close() throws IOException {
                finish();
              }
            }) {
          gz.write(rec.toByteArray());
        }
      } else {
        contentEnds.add(out.size() + rec.size() - 4);
        out.write(rec.toByteArray());
      }
      return this;
    }

    WatWriter page(String uri, String date, String title, String base, String... links)
        throws IOException {
      StringBuilder ls = new StringBuilder();
      for (int i = 0; i < links.length; i += 2) {
        ls.append(i == 0 ? "" : ",")
            .append("{\"path\":\"A@/href\",\"url\":\"")
            .append(links[i])
            .append("\"")
            .append(links[i + 1] == null ? "" : ",\"text\":\"" + links[i + 1] + "\"")
            .append("}");
      }
      ls.append(links.length > 0 ? "," : "").append("{\"path\":\"IMG@/src\",\"url\":\"/img.png\"}");
      String head =
          "\"Title\":\"" + title + "\"" + (base == null ? "" : ",\"Base\":\"" + base + "\"");
      String json =
          "{\"Envelope\":{\"WARC-Header-Metadata\":{\"WARC-Type\":\"response\",\"WARC-Target-URI\":\""
              + uri
              + "\"},\"Payload-Metadata\":{\"HTTP-Response-Metadata\":{\"HTML-Metadata\":{\"Head\":{"
              + head
              + "},\"Links\":["
              + ls
              + "]}}}}}";
      return record("metadata", uri, date, "application/json", json);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  @Test
  void realCommonCrawlRecord() {
    TestData.Read r =
        TestData.read(
            TestData.resource("/io/webindex/core/common-crawl-sample.wat.warc"), "sample.wat", 0);
    assertEquals(PageReaders.Format.WAT, r.format());
    assertEquals(List.of(), r.rejects());
    assertEquals(1, r.pages().size());
    Page p = r.pages().get(0);
    assertEquals(
        "com.1079ishot/presale-password-trey-songz-young-jeezy-pre-christmas-bash/screen-shot-2011-10-27-at-11-12-06-am/",
        p.key());
    assertEquals(Instant.parse("2015-04-18T03:35:13Z"), p.version().crawled());
    Map<String, String> anchors = p.anchorsByTarget();
    assertEquals(
        "HOT 107.9",
        anchors.get("com.1079ishot"),
        "title used when there is no text; first anchor wins over 'Home'");
    assertEquals("Contact Us", anchors.get("com.1079ishot/help/"), "relative link resolved");
    assertEquals("On Air", anchors.get("com.1079ishot/djs/"));
    assertTrue(
        p.links().stream().noneMatch(l -> l.key().equals(p.key())),
        "fragment links to itself dropped");
    // Hand count of the record's six A@/href links (the IMG, STYLE and FORM entries are not
    // links): http://1079ishot.com and "/" are one target (the second is a duplicate),
    // "#fb-auth-login" and "#fb-auth-registration" are the page itself, "/help/" and "/djs/" are
    // kept. So three links kept, two self links, one duplicate, nothing invalid.
    assertEquals(
        List.of("com.1079ishot", "com.1079ishot/help/", "com.1079ishot/djs/"),
        p.links().stream().map(Link::key).toList());
    assertEquals(3, r.stats().get(ReadCounter.LINKS));
    assertEquals(2, r.stats().get(ReadCounter.LINKS_SELF));
    assertEquals(1, r.stats().get(ReadCounter.LINKS_DUPLICATE));
    assertEquals(0, r.stats().get(ReadCounter.LINKS_INVALID));
  }

  /** Counts what a plain text search sees in a WAT file, independently of the reader. */
  private static long occurrences(String text, String needle) {
    long n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
      n++;
    }
    return n;
  }

  @Test
  void realCommonCrawlFileOfEighteenRecords() {
    TestData.Read r =
        TestData.read(TestData.resource("/io/webindex/core/common-crawl-18.wat.warc"), "wat-18", 0);
    assertEquals(List.of(), r.rejects());
    // Hand count (grep '^WARC-Type' and '"HTML-Metadata"' on the file, also in
    // /work/shared/data/wat-18.warc): 1 warcinfo record and 17 metadata records; the metadata
    // records describe 6 requests, 5 responses and 6 metadata records of the crawl, and only 4 of
    // the responses carry HTML-Metadata (the msn.com redirect has none). The test counts the same
    // by plain text search, not through the reader.
    String text =
        new String(
            TestData.resource("/io/webindex/core/common-crawl-18.wat.warc"),
            StandardCharsets.ISO_8859_1);
    assertEquals(18, occurrences(text, "WARC/1.0\r\nWARC-Type: "));
    assertEquals(17, occurrences(text, "WARC-Type: metadata\r\n"));
    assertEquals(4, occurrences(text, "\"HTML-Metadata\""));
    assertEquals(18, r.stats().get(ReadCounter.RECORDS));
    assertEquals(4, r.stats().get(ReadCounter.PAGES));
    assertEquals(1, r.stats().get(ReadCounter.SKIPPED_NOT_PAGE), "the warcinfo record");
    assertEquals(13, r.stats().get(ReadCounter.SKIPPED_NOT_HTML), "17 metadata records - 4 pages");
    assertEquals(
        List.of(
            "com.newgrounds.00assclown",
            "be.0x20/smw/index.php?title=Special:WhatLinksHere/Game_Night&hideredirs=1",
            "me.1000games/games/gametion/",
            "com.blogspot.100zone/2013/03/please-memp3-4shared.html"),
        r.pages().stream().map(Page::key).toList());
    Page wiki =
        r.pages().stream()
            .filter(p -> p.key().startsWith("be.0x20/smw/index.php"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        wiki.links().stream()
            .map(Link::key)
            .anyMatch(
                k ->
                    k.equals(
                        "be.0x20/smw/index.php?title=Special:WhatLinksHere/Game_Night&hideredirs=1&hidetrans=1")),
        "&amp; in link URLs is decoded");
  }

  @Test
  void generatedWatWithRelativeLinksBaseAndOtherRecords() throws IOException {
    for (boolean gz : new boolean[] {false, true}) {
      WatWriter w = new WatWriter(gz);
      w.record(
          "warcinfo",
          null,
          "2026-01-01T00:00:00Z",
          "application/warc-fields",
          "software: test\r\n");
      w.page(
          "http://a.com/dir/p.html",
          "2026-01-02T00:00:00Z",
          "A &amp; co",
          null,
          "x.html",
          "X",
          "../up",
          null,
          "http://b.com/",
          "B",
          "p.html#f",
          "me");
      w.page("http://c.com/a/b", "2026-01-03T00:00:00Z", "C", "http://cdn.c.com/base/", "rel", "R");
      w.record(
          "metadata",
          "http://d.com/",
          "2026-01-04T00:00:00Z",
          "application/json",
          "{\"Envelope\":{\"Payload-Metadata\":{\"HTTP-Response-Metadata\":{}}}}");
      w.record(
          "request",
          "http://d.com/",
          "2026-01-04T00:00:00Z",
          "application/http",
          "GET / HTTP/1.0\r\n");
      TestData.Read r = TestData.read(w.bytes(), "gen.wat", 2);
      assertEquals(List.of(), r.rejects());
      assertEquals(2, r.pages().size());
      Page a = r.pages().get(0);
      assertEquals("A & co", a.title());
      assertEquals(
          List.of("com.a/dir/x.html", "com.a/up", "com.b"),
          a.links().stream().map(Link::key).toList());
      assertEquals(
          List.of("com.c.cdn/base/rel"), r.pages().get(1).links().stream().map(Link::key).toList());
      assertEquals(1, r.stats().get(ReadCounter.SKIPPED_NOT_HTML));
      assertEquals(2, r.stats().get(ReadCounter.SKIPPED_NOT_PAGE));
      assertTrue(a.version().offset() > 0, "offset after the warcinfo record");
    }
  }

  @Test
  void damagedRecordsAreRejectedAndReaderResynchronises() throws IOException {
    WatWriter w = new WatWriter(false);
    w.page("http://a.com/", "2026-01-02T00:00:00Z", "A", null, "b.com", "B");
    w.out.write("garbage line\r\nmore garbage\r\n".getBytes(StandardCharsets.UTF_8));
    w.out.write(
        "WARC/1.0\r\nWARC-Type: metadata\r\nContent-Length: abc\r\n\r\n{}\r\n\r\n"
            .getBytes(StandardCharsets.UTF_8));
    w.record(
        "metadata",
        "http://bad url/",
        "2026-01-02T00:00:00Z",
        "application/json",
        "{\"Envelope\":{\"Payload-Metadata\":{\"HTTP-Response-Metadata\":{\"HTML-Metadata\":{}}}}}");
    w.record("metadata", "http://e.com/", "2026-01-02T00:00:00Z", "application/json", "{not json");
    w.record(
        "metadata",
        "http://f.com/",
        "not a date",
        "application/json",
        "{\"Envelope\":{\"Payload-Metadata\":{\"HTTP-Response-Metadata\":{\"HTML-Metadata\":{}}}}}");
    w.page("http://g.com/", "2026-01-02T00:00:00Z", "G", null);
    w.out.write(
        "WARC/1.0\r\nWARC-Type: metadata\r\nContent-Length: 100000\r\n\r\n{\"Env"
            .getBytes(StandardCharsets.UTF_8));
    TestData.Read r = TestData.read(w.bytes(), "bad.wat", 0);
    assertEquals(List.of("com.a", "com.g"), r.pages().stream().map(Page::key).toList());
    assertEquals(
        List.of(
            RejectReason.MALFORMED_WARC,
            RejectReason.MALFORMED_WARC,
            RejectReason.INVALID_URL,
            RejectReason.MALFORMED_JSON,
            RejectReason.BAD_CRAWL_TIME,
            RejectReason.MALFORMED_WARC),
        r.rejects().stream().map(Reject::reason).toList());
  }

  @Test
  void oversizedRecordIsSkippedUnread() throws IOException {
    WatWriter w = new WatWriter(false);
    w.page("http://a.com/", "2026-01-02T00:00:00Z", "A".repeat(3000), null);
    w.page("http://b.com/", "2026-01-02T00:00:00Z", "B", null);
    TestData.Read r = TestData.read(w.bytes(), "big.wat", 0, new ReadLimits(2048, 10));
    assertEquals(List.of("com.b"), r.pages().stream().map(Page::key).toList());
    assertEquals(RejectReason.OVERSIZED, r.rejects().get(0).reason());
  }

  /**
   * A file cut anywhere yields exactly the records whose content lies wholly before the cut (the
   * expected count comes from the writer's own record offsets, not from the reader), in order.
   */
  @Test
  void truncatedFileYieldsExactlyTheWholeRecords() throws IOException {
    WatWriter w = new WatWriter(false);
    for (int i = 0; i < 20; i++) {
      w.page(
          "http://a.com/" + i, "2026-01-02T00:00:00Z", "A", null, "b.com/" + i, "B", "c.com", "C");
    }
    byte[] valid = w.bytes();
    Random rnd = new Random(11);
    for (int i = 0; i < 300; i++) {
      int cut = rnd.nextInt(valid.length) + 1;
      int whole = 0;
      while (whole < w.contentEnds.size() && w.contentEnds.get(whole) <= cut) {
        whole++;
      }
      TestData.Read r = TestData.read(Arrays.copyOf(valid, cut), "f", 0);
      List<String> expected = new java.util.ArrayList<>();
      for (int k = 0; k < whole; k++) {
        expected.add("com.a/" + k);
      }
      assertEquals(expected, r.pages().stream().map(Page::key).toList(), "cut at " + cut);
      // the record after the whole ones starts after their blank-line trailer: a cut past its
      // start leaves a broken record, rejected (all rejects lie in it), else nothing is rejected
      int nextStart = whole == 0 ? 0 : w.contentEnds.get(whole - 1) + 4;
      boolean broken = whole < w.contentEnds.size() && cut > nextStart;
      assertEquals(broken, !r.rejects().isEmpty(), "cut at " + cut + ": " + r.rejects());
      for (Reject rej : r.rejects()) {
        assertTrue(rej.offset() >= nextStart, "cut at " + cut + ": " + rej);
      }
    }
  }

  @Test
  void garbageNeverCrashes() throws IOException {
    WatWriter w = new WatWriter(false);
    for (int i = 0; i < 20; i++) {
      w.page(
          "http://a.com/" + i, "2026-01-02T00:00:00Z", "A", null, "b.com/" + i, "B", "c.com", "C");
    }
    byte[] valid = w.bytes();
    Random rnd = new Random(11);
    for (int i = 0; i < 300; i++) {
      byte[] b = Arrays.copyOf(valid, rnd.nextInt(valid.length) + 1);
      for (int k = 0; k < rnd.nextInt(30); k++) {
        b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
      }
      TestData.Read r = TestData.read(b, "f", 0);
      assertTrue(
          r.pages().size() <= 20,
          r.pages().stream().map(Page::key).collect(Collectors.joining(",")));
    }
  }

  /**
   * Golden, hand-checked against the records of {@code common-crawl-18.wat.warc} (real Common Crawl
   * WAT records): the anchors whose references only the complete decoding reads. {@code &mdash;} is
   * U+2014; {@code &#3660} (cut off by the WAT extractor before its ';') is U+0E4C THAI CHARACTER
   * THANTHAKHAT; {@code &#36}, cut off from a longer reference by the extractor, is decoded as the
   * HTML tokenizer reads those characters: '$' (U+0024).
   */
  @Test
  void realRecordsWithReferencesDecodeCompletely() {
    TestData.Read r =
        TestData.read(TestData.resource("/io/webindex/core/common-crawl-18.wat.warc"), "wat-18", 0);
    Map<String, Map<String, String>> anchors =
        r.pages().stream().collect(Collectors.toMap(Page::url, Page::anchorsByTarget, (a, b) -> a));
    assertEquals(
        "Newgrounds.com \u2014 Everything, By Everyone.",
        anchors.get("http://00assclown.newgrounds.com/").get("com.newgrounds.www"));
    Map<String, String> thai =
        anchors.get("http://100zone.blogspot.com/2013/03/please-memp3-4shared.html");
    assertEquals(
        "\u0e08\u0e31\u0e1a\u0e17\u0e35\u0e48\u0e2b\u0e31\u0e27\u0e43\u0e08(15"
            + " \u0e1b\u0e35 \u0e44\u0e1a\u0e40\u0e17\u0e04)-\u0e15\u0e39\u0e48"
            + " \u0e20\u0e1e\u0e18\u0e23, \u0e21\u0e34\u0e49\u0e19\u0e17\u0e4c",
        thai.get("com.blogspot.100zone/2013/03/15-buddha-blessmp3-4shared.html"));
    assertTrue(
        thai.get("com.blogspot.100zone/2013/03/ost-mp3-4shared.html").endsWith("\u0e23$"),
        "a reference cut off by the extractor reads as the tokenizer reads it");
    assertTrue(
        r.pages().stream()
            .flatMap(p -> p.links().stream())
            .noneMatch(l -> l.anchor().matches(".*&(#[0-9]+|[a-zA-Z]+;).*")),
        "no reference left undecoded in any anchor");
  }

  /**
   * A page as Common Crawl's WAT writes one (a language switcher and links of other schemes, in the
   * record layout of the real records above), golden hand-derived from the HTML and URL Standards:
   * named references decoded in anchors and title, {@code tel:}/{@code mailto:}/{@code javascript:}
   * links (any case) dropped, {@code http:/x} relative to an http base, port 0 kept, zero-padded
   * ports read, browser IPv4 forms made dotted.
   */
  @Test
  void languageSwitcherAndNonWebLinks() throws IOException {
    WatWriter w = new WatWriter(false);
    w.page(
        "http://example.org/foo/bar",
        "2026-11-20T10:00:00Z",
        "Caf&eacute; &mdash; Accueil &amp; plus",
        null,
        "/fr/",
        "Fran&ccedil;ais",
        "/es/",
        "espa&ntilde;ol",
        "tel:1234567890",
        "call",
        "Tel:123",
        "call",
        "mailto:a@example.org",
        "mail",
        "JavaScript:void(0)",
        "js",
        "http:/example.com/",
        "relative",
        "http://f:0/c",
        "port 0",
        "http://f:00000000000000000000080/d",
        "padded",
        "http://192.168.257",
        "ipv4 two parts",
        "http://999999999",
        "ipv4 one part",
        "http://0xffffffff/",
        "ipv4 hex",
        "http://%30%78%63%30%2e%30%32%35%30.01/",
        "ipv4 escaped",
        "http://\uff11\uff19\uff12.\uff11\uff16\uff18.\uff10.\uff11/",
        "ipv4 full-width");
    TestData.Read r = TestData.read(w.bytes(), "switcher.wat", 0);
    assertEquals(List.of(), r.rejects());
    Page p = r.pages().get(0);
    assertEquals("Caf\u00e9 \u2014 Accueil & plus", p.title());
    assertEquals(
        List.of(
            "http://example.org/fr/ Fran\u00e7ais",
            "http://example.org/es/ espa\u00f1ol",
            "http://example.org/example.com/ relative",
            "http://f:0/c port 0",
            "http://f/d padded",
            "http://192.168.1.1/ ipv4 two parts",
            "http://59.154.201.255/ ipv4 one part",
            "http://255.255.255.255/ ipv4 hex",
            "http://192.168.0.1/ ipv4 escaped"),
        p.links().stream().map(l -> l.url() + " " + l.anchor()).toList());
    assertEquals(4, r.stats().get(ReadCounter.LINKS_INVALID), "tel:, Tel:, mailto:, javascript:");
    assertEquals(
        1,
        r.stats().get(ReadCounter.LINKS_DUPLICATE),
        "full-width 192.168.0.1 is the escaped one again");
  }
}
