package io.webindex.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.json.PageJson;
import io.webindex.core.schema.FluoSchema;
import io.webindex.core.synth.RandomWeb;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CodecsTest {
  static final Page SAMPLE =
      Page.of(
          "http://a.com/p",
          "com.a/p",
          new PageVersion(Instant.parse("2026-11-20T10:00:00Z"), 2, "part-0.jsonl", 130),
          "Tïtle",
          List.of(
              new Link("http://b.com/", "com.b", "B"),
              new Link("https://c.com/x", "com.c:s/x", "")));

  @Test
  void binaryGolden() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PageCodec.write(new DataOutputStream(bytes), SAMPLE);
    // flags, url (zig-zag varint length 14 = 0x1c), key, seconds, nanos, batch, file, offset,
    // signature (length 36 = 0x48; the content signature, computed apart with Python's hashlib
    // and base64.b32encode), title…
    assertEquals(
        "001c687474703a2f2f612e636f6d2f700e636f6d2e612f70c0e880b00d000418706172742d302e6a736f6e6c"
            + "840248"
            + "6964783a5a534e4f47484649574b52455341593257434b4f4f334e374c4352464d505353"
            + "0c54c3af746c6504",
        HexFormat.of().formatHex(bytes.toByteArray()).substring(0, 182));
    Page back = PageCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertEquals(SAMPLE, back);
  }

  @Test
  void storedJsonGoldenAndRoundTrip() {
    assertEquals(
        "{\"url\":\"http://a.com/p\",\"key\":\"com.a/p\",\"crawled\":\"2026-11-20T10:00:00Z\",\"batch\":2,"
            + "\"file\":\"part-0.jsonl\",\"offset\":130,"
            + "\"signature\":\"idx:ZSNOGHFIWKRESAY2WCKOO3N7LCRFMPSS\",\"title\":\"Tïtle\",\"outlinks\":[{\"url\":\"http://b.com/\","
            + "\"key\":\"com.b\",\"anchor\":\"B\"},{\"url\":\"https://c.com/x\",\"key\":\"com.c:s/x\",\"anchor\":\"\"}]}",
        PageJson.toStoredJson(SAMPLE));
    assertEquals(SAMPLE, PageJson.fromStoredJson(PageJson.toStoredJson(SAMPLE)));
  }

  @Test
  void storedJsonWithoutSignatureReadsWithTheContentSignature() {
    String old =
        "{\"url\":\"http://a.com/p\",\"key\":\"com.a/p\",\"crawled\":\"2026-11-20T10:00:00Z\","
            + "\"batch\":2,\"file\":\"part-0.jsonl\",\"offset\":130,\"title\":\"Tïtle\","
            + "\"outlinks\":[{\"url\":\"http://b.com/\",\"key\":\"com.b\",\"anchor\":\"B\"},"
            + "{\"url\":\"https://c.com/x\",\"key\":\"com.c:s/x\",\"anchor\":\"\"}]}";
    assertEquals(SAMPLE, PageJson.fromStoredJson(old));
    assertEquals("idx:ZSNOGHFIWKRESAY2WCKOO3N7LCRFMPSS", SAMPLE.signature());
  }

  @Test
  void aRecordDigestSurvivesBothCodecs() throws Exception {
    Page p =
        Page.of(
            SAMPLE.url(),
            SAMPLE.key(),
            SAMPLE.version(),
            SAMPLE.title(),
            SAMPLE.links(),
            "sha1:F6TCAM4VXWWB2JTQFQ427CGKBT273C7B");
    assertEquals(p, PageJson.fromStoredJson(PageJson.toStoredJson(p)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PageCodec.write(new DataOutputStream(bytes), p);
    assertEquals(
        p, PageCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
  }

  @Test
  void randomPagesRoundTripBothWays() throws Exception {
    for (Page p : new RandomWeb(17, 60).batch(3, 300)) {
      assertEquals(p, PageJson.fromStoredJson(PageJson.toStoredJson(p)));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PageCodec.write(new DataOutputStream(bytes), p);
      assertEquals(
          p, PageCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
    }
  }

  @Test
  void uriDeltaGolden() {
    assertEquals("3,1", FluoSchema.encodeUriDelta(new UriState.Delta(3, 1)));
    assertEquals(new UriState.Delta(-2, 0), FluoSchema.decodeUriDelta("-2,0"));
  }

  @Test
  void uriUpdatesGolden() {
    Map<String, UriUpdate> updates = new LinkedHashMap<>();
    updates.put("com.example.www/a?q=%20b", UriUpdate.of(new UriState.Delta(3, 1)));
    updates.put("org.site:8080/", new UriUpdate(new UriState.Delta(-2, 0), 1764000000000L));
    updates.put("net.x/p", UriUpdate.nextFetch(5));
    String golden =
        "com.example.www/a?q=%20b 3,1\norg.site:8080/ -2,0,1764000000000\nnet.x/p 0,0,5\n";
    assertEquals(golden, FluoSchema.encodeUriUpdates(updates));
    assertEquals(
        List.copyOf(updates.entrySet()),
        List.copyOf(FluoSchema.decodeUriUpdates(golden).entrySet()));
    assertEquals(Map.of(), FluoSchema.decodeUriUpdates(""));
    for (String bad : List.of("a 1,0", "a1,0\n", "a 1,0\na 2,0\n", "a 1,x\n", "a 1,0,\n")) {
      assertThrows(IllegalArgumentException.class, () -> FluoSchema.decodeUriUpdates(bad), bad);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> FluoSchema.encodeUriUpdates(Map.of("a\nb", UriUpdate.of(new UriState.Delta(1, 0)))));
  }

  @Test
  void uriSumGolden() {
    assertEquals("3,1", FluoSchema.encodeUriSum(UriUpdate.of(new UriState.Delta(3, 1))));
    assertEquals(
        "0,0,1797760800000",
        FluoSchema.encodeUriSum(new UriUpdate(UriState.Delta.ZERO, 1797760800000L)));
    assertEquals(UriUpdate.of(new UriState.Delta(-2, 0)), FluoSchema.decodeUriSum("-2,0"));
    assertEquals(
        new UriUpdate(new UriState.Delta(5, 1), 1797760800000L),
        FluoSchema.decodeUriSum("5,1,1797760800000"));
    for (String bad : List.of("", "3", "3,", "x,1", "3,1,", "3,1,x", "3,1,2,4")) {
      assertThrows(IllegalArgumentException.class, () -> FluoSchema.decodeUriSum(bad), bad);
    }
  }

  @Test
  void uriUpdatesCombineInOrder() {
    UriUpdate a = new UriUpdate(new UriState.Delta(1, 1), 10L);
    UriUpdate b = UriUpdate.of(new UriState.Delta(2, -1));
    UriUpdate c = UriUpdate.nextFetch(30);
    assertEquals(new UriUpdate(new UriState.Delta(3, 0), 10L), a.then(b));
    assertEquals(new UriUpdate(new UriState.Delta(3, 0), 30L), a.then(b).then(c));
    assertEquals(new UriUpdate(new UriState.Delta(1, 1), 10L), c.then(a));
    assertTrue(UriUpdate.of(UriState.Delta.ZERO).isEmpty());
    assertFalse(c.isEmpty());
  }
}
