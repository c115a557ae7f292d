package io.webindex.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.TestData;
import io.webindex.core.model.Page;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class JsonLinesReaderTest {
  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(b);
    }
    return out.toByteArray();
  }

  @Test
  void readsPagesDeletionsAndLinkRules() {
    String in =
        """
        \uFEFF{"url":"http://A.com/p#x","crawled":"2026-11-20T10:00:00Z","title":" A \\t page ","links":[{"url":"/q","anchor":"Q\\none"},{"url":"http://a.com/q","anchor":"second"},{"url":"#top","anchor":"self"},"http://b.com",{"href":"mailto:x@y"},{"url":"c.com","text":"C"},null]}

        {"url":"b.com","crawled":"2026-11-21T00:00:00+01:00","deleted":true}
        {"url":"c.com","unknown":{"nested":[1,2]}}
        """;
    TestData.Read r = TestData.read(utf8(in), "f.jsonl", 3);
    assertEquals(1, r.rejects().size(), "the line without a crawl time");
    Reject noTime = r.rejects().get(0);
    assertEquals(RejectReason.BAD_CRAWL_TIME, noTime.reason());
    assertEquals("no crawled", noTime.detail());
    assertEquals(
        utf8(in.substring(0, in.indexOf("\n{\"url\":\"c.com\"") + 1)).length, noTime.offset());
    assertEquals(2, r.pages().size());
    Page a = r.pages().get(0);
    assertEquals("http://a.com/p", a.url());
    assertEquals("com.a/p", a.key());
    assertEquals("A page", a.title());
    assertEquals(
        List.of("com.a/q", "com.b", "com.c"), a.links().stream().map(l -> l.key()).toList());
    assertEquals("Q one", a.links().get(0).anchor(), "first anchor wins, white space folded");
    assertEquals("", a.links().get(1).anchor());
    assertEquals("C", a.links().get(2).anchor());
    assertEquals(
        new io.webindex.core.model.PageVersion(
            Instant.parse("2026-11-20T10:00:00Z"), 3, "f.jsonl", 0),
        a.version());
    Page b = r.pages().get(1);
    assertTrue(b.deleted());
    assertEquals(Instant.parse("2026-11-20T23:00:00Z"), b.version().crawled());
    assertEquals(1, r.stats().get(RejectReason.BAD_CRAWL_TIME));
    assertEquals(1, r.stats().get(ReadCounter.LINKS_DUPLICATE));
    assertEquals(1, r.stats().get(ReadCounter.LINKS_SELF));
    assertEquals(2, r.stats().get(ReadCounter.LINKS_INVALID));
    assertEquals(3, r.stats().get(ReadCounter.LINKS));
    assertEquals(1, r.stats().get(ReadCounter.DELETIONS));
    assertEquals(1, r.stats().get(ReadCounter.BLANK_LINES));
  }

  @Test
  void offsetsAreLineStarts() {
    String l1 = "{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\"}\n";
    String l2 = "{\"url\":\"b.com\",\"crawled\":\"2026-01-01T00:00:00Z\"}\r\n";
    String l3 = "{\"url\":\"c.com\",\"crawled\":\"2026-01-01T00:00:00Z\"}";
    TestData.Read r = TestData.read(utf8(l1 + l2 + l3), "f", 0);
    assertEquals(
        List.of(0L, (long) l1.length(), (long) (l1 + l2).length()),
        r.pages().stream().map(p -> p.version().offset()).toList());
  }

  @Test
  void badLinesAreRejectedWithReasonsAndNeverAbort() throws IOException {
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    in.write(utf8("{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\"}\n"));
    in.write(utf8("{\"url\":\"a.com\",\"crawled\":\n")); // truncated JSON
    in.write(utf8("[1,2,3]\n")); // not an object
    in.write(utf8("{\"title\":\"no url\"}\n"));
    in.write(utf8("{\"url\":\"ftp://x.com/\"}\n"));
    in.write(utf8("{\"url\":\"http://a b.com/\"}\n"));
    in.write(utf8("{\"url\":\"a.com\",\"crawled\":\"yesterday\"}\n"));
    in.write(utf8("{\"url\":\"a.com\",\"links\":\"c.com\"}\n"));
    in.write(utf8("{\"url\":\"a.com\"} trailing\n"));
    in.write(utf8("{\"url\":\"a.com\",\"title\":\"bad "));
    in.write(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF});
    in.write(utf8("\"}\n"));
    in.write(utf8("{\"url\":\"a.com\",\"title\":\"" + "x".repeat(5000) + "\"}\n"));
    in.write(utf8("{\"url\":\"b.com\",\"crawled\":\"2026-01-02T00:00:00Z\"}\n"));
    TestData.Read r = TestData.read(in.toByteArray(), "bad.jsonl", 0, new ReadLimits(2048, 3));
    assertEquals(2, r.pages().size());
    List<RejectReason> reasons = r.rejects().stream().map(Reject::reason).toList();
    assertEquals(
        List.of(
            RejectReason.MALFORMED_JSON,
            RejectReason.MALFORMED_JSON,
            RejectReason.MISSING_URL,
            RejectReason.INVALID_URL,
            RejectReason.INVALID_URL,
            RejectReason.BAD_CRAWL_TIME,
            RejectReason.MALFORMED_JSON,
            RejectReason.MALFORMED_JSON,
            RejectReason.BAD_ENCODING,
            RejectReason.OVERSIZED),
        reasons);
    assertEquals(10, r.stats().get(ReadCounter.REJECTED));
    assertEquals(12, r.stats().get(ReadCounter.RECORDS));
    for (Reject rej : r.rejects()) {
      assertEquals("bad.jsonl", rej.file());
      assertTrue(rej.excerpt().length() <= Reject.MAX_EXCERPT);
      assertEquals(5, rej.toLine().split("\t", -1).length);
    }
  }

  @Test
  void tooManyLinksIsOversized() {
    String in = "{\"url\":\"a.com\",\"links\":[\"b.com\",\"c.com\",\"d.com\",\"e.com\"]}\n";
    TestData.Read r = TestData.read(utf8(in), "f", 0, new ReadLimits(2048, 3));
    assertEquals(RejectReason.OVERSIZED, r.rejects().get(0).reason());
  }

  @Test
  void gzipAndTruncatedGzip() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      sb.append("{\"url\":\"a.com/")
          .append(i)
          .append("\",\"crawled\":\"2026-01-01T00:00:00Z\",\"links\":[\"b.com/")
          .append(i % 7)
          .append("\"]}\n");
    }
    byte[] gz = gzip(utf8(sb.toString()));
    TestData.Read whole = TestData.read(gz, "f.jsonl.gz", 0);
    assertEquals(2000, whole.pages().size());
    assertEquals(0, whole.rejects().size());
    TestData.Read cut = TestData.read(Arrays.copyOf(gz, gz.length / 2), "f.jsonl.gz", 0);
    assertTrue(cut.pages().size() < 2000);
    assertEquals(
        RejectReason.CORRUPT_COMPRESSION, cut.rejects().get(cut.rejects().size() - 1).reason());
  }

  /** Random bytes and random damage to valid input never make the reader throw. */
  @Test
  void garbageNeverCrashes() {
    Random rnd = new Random(3);
    byte[] valid = TestData.resource("/io/webindex/core/worked-example.jsonl");
    for (int i = 0; i < 300; i++) {
      byte[] b = Arrays.copyOf(valid, valid.length);
      for (int k = 0; k < 1 + rnd.nextInt(20); k++) {
        b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
      }
      TestData.Read r = TestData.read(b, "f", 0);
      assertEquals(r.stats().get(ReadCounter.RECORDS), r.pages().size() + r.rejects().size());
      byte[] noise = new byte[rnd.nextInt(5000)];
      rnd.nextBytes(noise);
      TestData.read(noise, "noise", 0);
    }
  }
}
