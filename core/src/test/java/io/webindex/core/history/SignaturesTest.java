package io.webindex.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.TestData;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.read.ReadCounter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Signatures of every input kind against goldens computed apart (Python's {@code hashlib} and
 * {@code base64.b32encode}; the WAT digests read off the records themselves).
 */
class SignaturesTest {
  static final String F6TC = "sha1:F6TCAM4VXWWB2JTQFQ427CGKBT273C7B";

  @Test
  void digestsNormaliseAsTheGoldenSays() {
    String tsv = TestData.resourceText("/io/webindex/core/history/signatures.tsv");
    int n = 0;
    for (String line : tsv.split("\n")) {
      if (line.startsWith("#") || line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      Optional<String> expected = f[1].equals("-") ? Optional.empty() : Optional.of(f[1]);
      assertEquals(expected, Signatures.normalise(f[0]), "digest '" + f[0] + "'");
      n++;
    }
    assertEquals(21, n);
    assertEquals(Optional.empty(), Signatures.normalise(null));
  }

  @Test
  void contentSignatureGoldens() {
    List<Link> links =
        List.of(
            new Link("http://b.com/", "com.b", "B"), new Link("https://c.com/x", "com.c:s/x", ""));
    // SHA-1 of "Home\ncom.b\tB\ncom.c:s/x\t", of "Home\ncom.b\tB" and of ""
    assertEquals("idx:URSDFFZK5ZIFHJXBOWEIJPBI6TP5TYMV", Signatures.content("Home", links));
    assertEquals(
        "idx:42O3736GAU3JC2YLVDE4MP3VQVX4MT7X", Signatures.content("Home", links.subList(0, 1)));
    assertEquals("idx:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", Signatures.content("", List.of()));
  }

  private static Page onlyPage(String jsonLine) {
    TestData.Read r = TestData.read(jsonLine.getBytes(StandardCharsets.UTF_8), "f.jsonl", 1);
    assertEquals(List.of(), r.rejects());
    assertEquals(1, r.pages().size());
    return r.pages().get(0);
  }

  static final String LINKS =
      "\"title\":\" Home \",\"links\":[{\"url\":\"http://b.com/\",\"anchor\":\"B\"},"
          + "\"https://c.com/x\",\"http://a.com/p#self\"]";

  @Test
  void jsonLinesWithAndWithoutDigest() {
    Page without =
        onlyPage("{\"url\":\"http://a.com/p\",\"crawled\":\"2024-01-01T00:00:00Z\"," + LINKS + "}");
    assertEquals("idx:URSDFFZK5ZIFHJXBOWEIJPBI6TP5TYMV", without.signature());
    Page with =
        onlyPage(
            "{\"url\":\"http://a.com/p\",\"crawled\":\"2024-01-01T00:00:00Z\","
                + LINKS
                + ",\"digest\":\"sha-1:2fa6203395bdac1d26702c39af88ca0cf5fd8be1\"}");
    assertEquals(F6TC, with.signature());
    Page gone =
        onlyPage(
            "{\"url\":\"http://a.com/p\",\"crawled\":\"2024-01-01T00:00:00Z\",\"deleted\":true,"
                + "\"digest\":\""
                + F6TC
                + "\"}");
    assertEquals("", gone.signature());
  }

  @Test
  void anInvalidDigestIsCountedAndFallsBackToTheContentSignature() {
    String in =
        "{\"url\":\"http://a.com/p\",\"crawled\":\"2024-01-01T00:00:00Z\","
            + LINKS
            + ",\"digest\":\"sha1:nope\"}\n"
            + "{\"url\":\"http://a.com/p\",\"crawled\":\"2024-01-01T00:00:01Z\","
            + LINKS
            + ",\"digest\":{\"sha1\":\"x\"}}\n"
            + "{\"url\":\"http://a.com/p\",\"crawled\":\"2024-01-01T00:00:02Z\","
            + LINKS
            + ",\"digest\":\" \"}\n";
    TestData.Read r = TestData.read(in.getBytes(StandardCharsets.UTF_8), "f.jsonl", 1);
    assertEquals(List.of(), r.rejects());
    assertEquals(3, r.pages().size());
    for (Page p : r.pages()) {
      assertEquals("idx:URSDFFZK5ZIFHJXBOWEIJPBI6TP5TYMV", p.signature());
    }
    assertEquals(2, r.stats().get(ReadCounter.DIGESTS_INVALID), "a blank digest is no digest");
  }

  @Test
  void realWatRecordsCarryTheirOwnDigests() {
    // wat.warc: Entity-Digest sha1:F6TC… (gzip-encoded entity) differs from the record's
    // WARC-Payload-Digest sha1:F2QC…; the entity digest wins
    TestData.Read sample =
        TestData.read(
            TestData.resource("/io/webindex/core/common-crawl-sample.wat.warc"), "wat.warc", 0);
    assertEquals(1, sample.pages().size());
    assertEquals(F6TC, sample.pages().get(0).signature());
    TestData.Read r18 =
        TestData.read(
            TestData.resource("/io/webindex/core/common-crawl-18.wat.warc"), "wat-18.warc", 0);
    Map<String, String> byUrl =
        r18.pages().stream()
            .collect(Collectors.toMap(Page::url, Page::signature, (a, b) -> a, TreeMap::new));
    // read off the metadata records' Entity-Digest fields (each equal to WARC-Payload-Digest)
    assertEquals(
        "sha1:3XLT4X6EBBBAKGG67Z7M5LAIAWTPYXX5", byUrl.get("http://00assclown.newgrounds.com/"));
    assertEquals(
        "sha1:ZW2OA5GZLKAGX7Y66P5VAPV5442FQSTH", byUrl.get("http://1000games.me/games/gametion/"));
    assertEquals(
        "sha1:B7ZYUGWISVE3PJLCKTJ3Y6XLJ4PDGXP3",
        byUrl.get("http://100zone.blogspot.com/2013/03/please-memp3-4shared.html"));
    for (String sig : byUrl.values()) {
      assertTrue(sig.matches("sha1:[A-Z2-7]{32}"), sig);
    }
    assertEquals(0, r18.stats().get(ReadCounter.DIGESTS_INVALID));
  }

  @Test
  void aWatRecordWithoutEntityDigestUsesThePayloadDigestElseTheContent() {
    String envelope =
        "{\"Envelope\":{\"WARC-Header-Metadata\":{\"WARC-Payload-Digest\":\"%s\"},"
            + "\"Payload-Metadata\":{\"HTTP-Response-Metadata\":{%s\"HTML-Metadata\":{"
            + "\"Head\":{\"Title\":\"Home\"},\"Links\":[{\"path\":\"A@/href\",\"url\":\"http://b.com/\","
            + "\"text\":\"B\"}]}}}}}";
    String payloadOnly = String.format(envelope, F6TC, "");
    String both = String.format(envelope, "sha1:2QWW", "\"Entity-Digest\":\"" + F6TC + "\",");
    String neither = String.format(envelope, "", "");
    assertEquals(F6TC, watPage(payloadOnly).signature());
    assertEquals(F6TC, watPage(both).signature());
    assertEquals("idx:42O3736GAU3JC2YLVDE4MP3VQVX4MT7X", watPage(neither).signature());
  }

  private static Page watPage(String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    String rec =
        "WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Target-URI: http://a.com/p\r\n"
            + "WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + body.length
            + "\r\n\r\n"
            + json
            + "\r\n\r\n";
    TestData.Read r = TestData.read(rec.getBytes(StandardCharsets.UTF_8), "x.warc", 0);
    assertEquals(List.of(), r.rejects());
    assertEquals(1, r.pages().size());
    return r.pages().get(0);
  }
}
