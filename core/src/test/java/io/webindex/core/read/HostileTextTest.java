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
          &amp&amp;                  | &&
          &amp;amp;                  | &amp;
          &;                         | &;
          &#;                        | &#;
          &#x;                       | &#x;
          &#xZZ;                     | &#xZZ;
          &#-65;                     | &#-65;
          &#+65;                     | &#+65;
          &#0;                       | \uFFFD
          &#xD800;                   | \uFFFD
          &#x110000;                 | \uFFFD
          &#99999999999999999999;    | \uFFFD
          &#0000000065;              | A
          &#00000000065;             | A
          &unknown;                  | &unknown;
          &AMP;                      | &
          tail &                     | tail &
          tail &amp                  | tail &
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
    assertEquals(one.repeat(MB4 / unit.length()), out);
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

  /**
   * The HTML tokenizer's rules, hand-checked against the HTML Standard's named character reference
   * table and its numeric character reference end state.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          Fran&ccedil;ais                    | Fran\u00e7ais
          espa&ntilde;ol                     | espa\u00f1ol
          a &mdash; b                        | a \u2014 b
          it&rsquo;s                         | it\u2019s
          &eacute;t&eacute;                  | \u00e9t\u00e9
          caf&eacute                         | caf\u00e9
          &copy2026                          | \u00a92026
          &notit;                            | \u00acit;
          &notin;                            | \u2209
          &NotNestedGreaterGreater;          | \u2AA2\u0338
          &CounterClockwiseContourIntegral;  | \u2233
          &hellip                            | &hellip
          &#150;                             | \u2013
          &#x80;                             | \u20ac
          &#x81;                             | \u0081
          &#x9F;                             | \u0178
          &#65                               | A
          &#x1F600                           | \uD83D\uDE00
          """)
  void decodesTextAsTheHtmlTokenizer(String in, String out) {
    assertEquals(out, HtmlEntities.decode(in));
  }

  /** In an attribute a legacy name without ';' before '=' or a letter or digit stays. */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          /x?a=1&copy=2                | /x?a=1&copy=2
          /x?a=1&copyright             | /x?a=1&copyright
          /x?a=1&amp;copy=2            | /x?a=1&copy=2
          /x?a=1&copy;                 | /x?a=1\u00a9
          /x?a=1&copy                  | /x?a=1\u00a9
          /x?a=1&copy/                 | /x?a=1\u00a9/
          /x?lang=espa&ntilde;ol       | /x?lang=espa\u00f1ol
          """)
  void decodesAttributesAsTheHtmlTokenizer(String in, String out) {
    assertEquals(out, HtmlEntities.decodeAttribute(in));
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
