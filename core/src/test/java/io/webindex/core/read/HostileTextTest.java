package io.webindex.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.webindex.core.TestData;
import io.webindex.core.model.Page;
import io.webindex.core.model.Text;
import io.webindex.core.url.InvalidUrlException;
import io.webindex.core.url.WebUrl;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every text path is linear: multi-megabyte adversarial strings decode within a generous bound (a
 * quadratic path, like the old rescan for ';' after every '&', takes hours on them), and the
 * decoded text is exactly right on small hand-checked cases.
 */
class HostileTextTest {
  private static final int MB4 = 4 << 20;
  private static final Duration BOUND = Duration.ofSeconds(10);

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          A &amp; co                 | A & co
          &lt;b&gt;                  | <b>
          a&nbsp;b                   | a\u00a0b
          &#65;&#x42;&#X43;          | ABC
          &#0065;                    | A
          &#x1F600;                  | \uD83D\uDE00
          &#3659;                    | \u0E4B
          &&amp;                     | &&
          &amp&amp;                  | &amp&
          &amp;amp;                  | &amp;
          &;                         | &;
          &#;                        | &#;
          &#x;                       | &#x;
          &#xZZ;                     | &#xZZ;
          &#-65;                     | &#-65;
          &#+65;                     | &#+65;
          &#0;                       | &#0;
          &#xD800;                   | &#xD800;
          &#x110000;                 | &#x110000;
          &#99999999999999999999;    | &#99999999999999999999;
          &#0000000065;              | A
          &#00000000065;             | &#00000000065;
          &unknown;                  | &unknown;
          &AMP;                      | &AMP;
          tail &                     | tail &
          tail &amp                  | tail &amp
          &#١٢;                      | &#١٢;
          """)
  void decodesExactly(String in, String out) {
    assertEquals(out, HtmlEntities.decode(in));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(strings = {"&", "&a", "&#", "&#x", "&#1", "&amp", "&a;&", ";&", "&#99999999;&"})
  void adversarialRunsAreLinear(String unit) {
    String s = unit.repeat(MB4 / unit.length());
    String out = assertTimeoutPreemptively(BOUND, () -> HtmlEntities.decode(s));
    // every unit is its own (non-)reference: the decoded text is the unit decoded, repeated
    String one = HtmlEntities.decode(unit);
    if (!unit.endsWith("&") && !unit.startsWith(";")) {
      assertEquals(one.repeat(MB4 / unit.length()), out);
    } else {
      assertEquals(s.length(), out.length());
    }
  }

  @Test
  void decodedRunOfReferencesIsExact() {
    String s = "&amp;".repeat(1 << 20) + "&#65;".repeat(1 << 20);
    String out = assertTimeoutPreemptively(BOUND, () -> HtmlEntities.decode(s));
    assertEquals("&".repeat(1 << 20) + "A".repeat(1 << 20), out);
  }

  @Test
  void textCleaningIsLinearAndBounded() {
    String hostile = " \t\u0000\u2028".repeat(MB4 / 4) + "x";
    String out = assertTimeoutPreemptively(BOUND, () -> Text.clean(hostile, Text.MAX_TITLE));
    assertEquals("x", out);
    assertEquals(
        Text.MAX_ANCHOR,
        assertTimeoutPreemptively(BOUND, () -> Text.clean("a ".repeat(MB4), Text.MAX_ANCHOR))
            .length());
  }

  @Test
  void quotesDecode() {
    assertEquals("\"x\" 'y'", HtmlEntities.decode("&quot;x&quot; &apos;y&apos;"));
  }

  @Test
  void hostileUrlsAreHandledInLinearTime() throws Exception {
    for (String unit : new String[] {"%", "%2", "a", "/.", "/..", "@", ":", "[", "\u00e9"}) {
      String s = "http://a.com/" + unit.repeat(MB4 / unit.length());
      InvalidUrlException e =
          assertTimeoutPreemptively(
              BOUND, () -> assertThrows(InvalidUrlException.class, () -> WebUrl.parse(s)));
      assertEquals(InvalidUrlException.Reason.TOO_LONG, e.reason(), unit);
    }
    // control characters are stripped before the length is judged (as browsers do)
    WebUrl url =
        assertTimeoutPreemptively(
            BOUND, () -> WebUrl.parse("http://a.com/" + "\t\n\r".repeat(MB4 / 3) + "x"));
    assertEquals("http://a.com/x", url.toString());
  }

  /** A WAT page whose title and anchors are megabytes of '&' reads in one pass. */
  @Test
  void watPageFullOfAmpersandsReadsInLinearTime() throws IOException {
    String amps = "&".repeat(3 << 20);
    WatReaderTest.WatWriter w = new WatReaderTest.WatWriter(false);
    w.page("http://a.com/", "2026-01-02T00:00:00Z", amps, null, "http://b.com/", amps);
    w.page("http://c.com/", "2026-01-02T00:00:00Z", "&amp;&#65;", null);
    byte[] in = w.bytes();
    TestData.Read r =
        assertTimeoutPreemptively(
            BOUND, () -> TestData.read(in, "amp.wat", 0, new ReadLimits(16 << 20, 10)));
    assertEquals(List.of(), r.rejects());
    Page a = r.pages().get(0);
    assertEquals("&".repeat(Text.MAX_TITLE), a.title());
    assertEquals("&".repeat(Text.MAX_ANCHOR), a.links().get(0).anchor());
    assertEquals("&A", r.pages().get(1).title());
  }

  /** A JSON line of megabytes of escapes and '&' reads in one pass too. */
  @Test
  void jsonLineFullOfEscapesReadsInLinearTime() {
    String title = "\\u0026\\\"".repeat(MB4 / 8);
    String line =
        "{\"url\":\"a.com\",\"crawled\":\"2026-01-01T00:00:00Z\",\"title\":\""
            + title
            + "\",\"links\":[{\"url\":\"b.com\",\"anchor\":\""
            + "&".repeat(MB4)
            + "\"}]}\n";
    byte[] in = JsonLinesReaderTest.utf8(line);
    TestData.Read r =
        assertTimeoutPreemptively(
            BOUND, () -> TestData.read(in, "f", 0, new ReadLimits(16 << 20, 10)));
    assertEquals(List.of(), r.rejects());
    assertEquals("&\"".repeat(Text.MAX_TITLE / 2), r.pages().get(0).title());
  }
}
