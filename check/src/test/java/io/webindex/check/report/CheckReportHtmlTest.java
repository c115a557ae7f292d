package io.webindex.check.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.check.engine.CheckReport;
import io.webindex.check.engine.Finding;
import io.webindex.check.engine.RangeTotals;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/** The HTML report, parsed as XML: facts, chart, tables and samples, and escaping. */
class CheckReportHtmlTest {
  private static final Map<String, String> READABLE_ROWS =
      Map.of(
          "t:7fffffffffffffed:org.wikipedia.en/wiki/Accumulo",
          "t:18:org.wikipedia.en/wiki/Accumulo",
          "t:7fffffffffffffee:org.wikipedia.en/wiki/Accumulo",
          "t:17:org.wikipedia.en/wiki/Accumulo");

  /** Run with {@code -Dwebindex.regenerateDocs=true} to rewrite the example in docs/. */
  private static final String REGENERATE = "webindex.regenerateDocs";

  private static final XPath XPATH = XPathFactory.newInstance().newXPath();

  @Test
  void inconsistentReport() throws Exception {
    CheckReport r = CheckReportFixtures.inconsistent();
    Document doc = parse(CheckReportHtml.toHtml(r));

    assertEquals(
        "webindex check: INCONSISTENT \u2014 webindex_20261121030000 vs webindex",
        text(doc, "/html/head/title"));
    Element verdict = element(doc, "//div[@id='verdict']");
    assertEquals("verdict inconsistent", verdict.getAttribute("class"));
    assertEquals("INCONSISTENT", text(doc, "//div[@id='verdict']/strong"));
    assertTrue(
        verdict.getTextContent().contains("16 differences, 3 invariant violations"),
        verdict.getTextContent());

    assertEquals("webindex_20261121030000", fact(doc, "Expected table (batch run)"));
    assertEquals("webindex", fact(doc, "Actual table (Fluo)"));
    assertEquals("20261121030000", fact(doc, "Run"));
    assertTrue(fact(doc, "Snapshot").startsWith("batch 41 "));
    assertEquals(
        "batch 43 (cells of URIs changed by batches 42\u201343 are skipped)",
        fact(doc, "Fluo applied"));
    assertEquals("mapreduce", fact(doc, "Mode"));
    assertEquals("2026-11-21T03:20:00Z", fact(doc, "Started"));
    assertEquals("2026-11-21T03:32:03.456Z", fact(doc, "Finished"));
    assertEquals("12 min 03 s (723456 ms)", fact(doc, "Duration"));
    assertEquals("11,234,567 (15,529 cells/s), 1,614 skipped", fact(doc, "Cells compared"));
    assertEquals("16 (missing 4, extra 3, different 9)", fact(doc, "Differences"));

    // the chart: one group of five bars per range, in order, with the numbers
    NodeList groups = nodes(doc, "//svg[@id='range-chart']/g[@class='range']");
    assertEquals(r.ranges().size(), groups.getLength());
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      RangeTotals t = r.ranges().get(i);
      assertEquals(t.range(), g.getAttribute("data-range"));
      NodeList bars = nodes(g, "rect");
      assertEquals(5, bars.getLength());
      long[] values = {t.compared(), t.missing(), t.extra(), t.different(), t.skipped()};
      List<String> numbers = new ArrayList<>();
      for (Node n : list(nodes(g, "text"))) {
        numbers.add(n.getTextContent());
      }
      assertEquals(t.range(), numbers.get(0));
      for (int j = 0; j < 5; j++) {
        assertEquals(ReportFormat.number(values[j]), numbers.get(j + 1));
        int width = Integer.parseInt(((Element) bars.item(j)).getAttribute("width"));
        assertEquals(values[j] == 0, width == 0, t.range() + " bar " + j + " width " + width);
      }
    }
    // log scale: 1 difference is still a visible bar next to almost 10 million compared cells
    int compared = width(doc, "p:", "compared");
    int extra = width(doc, "p:", "extra");
    assertTrue(extra >= 15 && extra < compared, extra + " vs " + compared);
    assertFalse(text(doc, "//figure/figcaption").isEmpty());
    assertEquals(1, nodes(doc, "//svg/g[@class='legend']").getLength());

    // the totals table
    NodeList rows = nodes(doc, "//table[@id='range-totals']/tbody/tr");
    assertEquals(r.ranges().size(), rows.getLength());
    for (int i = 0; i < rows.getLength(); i++) {
      RangeTotals t = r.ranges().get(i);
      assertEquals(
          List.of(
              t.range(),
              t.compared(),
              t.missing(),
              t.extra(),
              t.different(),
              t.skipped(),
              t.differences()),
          rowValues(rows.item(i)));
    }
    assertEquals(
        List.of("all", 11_234_567L, 4L, 2L, 7L, 1_614L, 13L),
        rowValues(element(doc, "//table[@id='range-totals']/tfoot/tr")));

    // invariants: one row per invariant kind, one column per table
    assertEquals(
        List.of("PAGECOUNT_MISMATCH", 0L, 2L),
        rowValues(
                element(doc, "//table[@id='invariants']/tbody/tr[@data-kind='PAGECOUNT_MISMATCH']"))
            .subList(0, 3));
    assertEquals(
        ReportFormat.invariantKinds().size(),
        nodes(doc, "//table[@id='invariants']/tbody/tr").getLength());

    // the Fluo seed
    assertEquals(
        List.of(r.fluoSeed().seedDir(), 3_456_789L, 0L, 1L, 2L, 611L, 3L),
        rowValues(element(doc, "//table[@id='fluo-seed']/tbody/tr")));

    // every sample, grouped by kind in declaration order
    NodeList samples = nodes(doc, "//tr[@class='sample']");
    assertEquals(r.samples().size(), samples.getLength());
    List<String> sections = new ArrayList<>();
    for (Node n : list(nodes(doc, "//section[@class='kind']"))) {
      sections.add(((Element) n).getAttribute("id"));
    }
    assertEquals(
        List.of(
            "samples-MISSING",
            "samples-EXTRA",
            "samples-DIFFERENT",
            "samples-PAGECOUNT_MISMATCH",
            "samples-TOTAL_MISMATCH"),
        sections);
    assertEquals("MISSING \u2014 3 of 4 shown", text(doc, "//section[@id='samples-MISSING']/h3"));
    for (int i = 0; i < r.samples().size(); i++) {
      Finding f = r.samples().get(i);
      Element row = (Element) samples.item(i);
      assertEquals(f.kind().name(), row.getAttribute("data-kind"));
      List<String> cells = cellTexts(row);
      assertEquals(f.table(), cells.get(1));
      assertEquals(f.range(), cells.get(2));
      // rows as the dump prints them: the t: rows' counts decoded (hand-checked)
      assertEquals(READABLE_ROWS.getOrDefault(f.row(), f.row()), cells.get(3));
      assertEquals(f.column(), cells.get(4));
      assertEquals(shown(f.expected()), cells.get(5));
      assertEquals(shown(f.actual()), cells.get(6));
      assertEquals(f.detail() == null ? "none" : f.detail(), cells.get(7));
    }
    // a long value is cut, with an ellipsis and its length
    String pageCur = cellTexts((Element) samples.item(5)).get(5);
    assertTrue(pageCur.startsWith(r.samples().get(5).expected().substring(0, 160) + "\u2026 ["));
    assertTrue(pageCur.endsWith(" characters in all]"), pageCur);

    selfContained(doc);
  }

  @Test
  void consistentReport() throws Exception {
    CheckReport r = CheckReportFixtures.consistent();
    Document doc = parse(CheckReportHtml.toHtml(r));
    assertEquals("CONSISTENT", text(doc, "//div[@id='verdict']/strong"));
    assertEquals("verdict consistent", element(doc, "//div[@id='verdict']").getAttribute("class"));
    assertEquals(3, nodes(doc, "//svg/g[@class='range']").getLength());
    assertEquals(
        List.of("all", 38L, 0L, 0L, 0L, 0L, 0L),
        rowValues(element(doc, "//table[@id='range-totals']/tfoot/tr")));
    assertEquals("Not compared.", text(doc, "//p[@id='fluo-seed']"));
    assertEquals(0, nodes(doc, "//tr[@class='sample']").getLength());
    assertEquals("batch 7", fact(doc, "Fluo applied"));
    assertEquals("2.5 s (2500 ms)", fact(doc, "Duration"));
    assertEquals(0, nodes(doc, "//td[contains(@class,'bad')]").getLength());
    selfContained(doc);
  }

  @Test
  void hostileTextIsEscaped() throws Exception {
    CheckReport r = CheckReportFixtures.hostile();
    String html = CheckReportHtml.toHtml(r);
    assertFalse(html.toLowerCase(Locale.ROOT).contains("<script"), "a script tag got through");
    assertFalse(html.contains("<b>"));
    for (char c : html.toCharArray()) {
      assertTrue(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f), "not ASCII: " + (int) c);
    }
    Document doc = parse(html);
    assertEquals(0, doc.getElementsByTagName("script").getLength());
    assertEquals(0, doc.getElementsByTagName("b").getLength());

    assertEquals(
        "webindex check: INCONSISTENT \u2014 exp<&>\"'table vs act</title><script>alert(1)</script>",
        text(doc, "/html/head/title"));
    assertEquals("<b>mode</b>", fact(doc, "Mode"));
    assertEquals("run\"1", fact(doc, "Run"));
    assertEquals("unknown", fact(doc, "Fluo applied"));
    assertEquals("<g>&amp;", element(doc, "//svg/g[@class='range']").getAttribute("data-range"));
    assertEquals("<table>", text(doc, "//table[@id='invariants']/thead/tr/th[2]"));

    // what survives: markup, quotes, tab, newline and non-ASCII as they were; CR, other controls
    // as control pictures, a C1 control as U+FFFD
    String shown =
        CheckReportFixtures.HOSTILE
            .replace("\r", "\u240d")
            .replace("\u0001", "\u2401")
            .replace("\u007f", "\u2421")
            .replace("\u0085", "\ufffd");
    List<String> cells = cellTexts(element(doc, "//tr[@class='sample'][@data-kind='MISSING']"));
    assertEquals(shown, cells.get(3));
    assertEquals(shown, cells.get(4));
    assertEquals(shown, cells.get(5));
    assertEquals("none", cells.get(6));
    assertEquals(shown, cells.get(7));
    assertEquals(shown, cellTexts(element(doc, "//table[@id='fluo-seed']/tbody/tr")).get(0));

    List<String> malformed =
        cellTexts(element(doc, "//tr[@class='sample'][@data-kind='MALFORMED']"));
    assertEquals("empty", malformed.get(4));
    assertEquals("x<&>\"".repeat(32) + "\u2026 [1,000 characters in all]", malformed.get(5));
    assertEquals("empty", malformed.get(6));
    selfContained(doc);
  }

  @Test
  void escapeKeepsSupplementaryCharactersAndReplacesBrokenOnes() {
    StringBuilder out = new StringBuilder();
    CheckReportHtml.escape("\ud83d\ude00 \ud800 \ufffe \ud834\udd1e\u00a0", false, out);
    assertEquals("&#x1f600; &#xfffd; &#xfffd; &#x1d11e;&#xa0;", out.toString());
    out.setLength(0);
    CheckReportHtml.escape("a\tb\nc\"", true, out);
    assertEquals("a&#9;b&#10;c&quot;", out.toString());
  }

  /**
   * docs/check-report-example.html is this code's page for {@link
   * CheckReportFixtures#inconsistent()}; it must not go stale.
   */
  @Test
  void docsExampleIsCurrent() throws Exception {
    Path example = docs().resolve("check-report-example.html");
    String html = CheckReportHtml.toHtml(CheckReportFixtures.inconsistent());
    if (Boolean.getBoolean(REGENERATE)) {
      Files.writeString(example, html, StandardCharsets.UTF_8);
    }
    assertTrue(Files.exists(example), example + " is missing: run with -D" + REGENERATE + "=true");
    assertEquals(
        html,
        Files.readString(example, StandardCharsets.UTF_8),
        example
            + " is stale: run mvn -pl core test -Dtest=CheckReportHtmlTest -D"
            + REGENERATE
            + "=true");
  }

  /** No script, no external resource: every link points into the page. */
  private static void selfContained(Document doc) throws Exception {
    assertEquals(0, doc.getElementsByTagName("script").getLength());
    assertEquals(0, doc.getElementsByTagName("link").getLength());
    assertEquals(0, doc.getElementsByTagName("img").getLength());
    assertEquals(0, nodes(doc, "//*[@src]").getLength());
    for (Node n : list(nodes(doc, "//@href"))) {
      assertTrue(n.getNodeValue().startsWith("#"), n.getNodeValue());
      String id = n.getNodeValue().substring(1);
      assertEquals(1, nodes(doc, "//*[@id='" + id + "']").getLength(), id);
    }
    assertEquals(0, nodes(doc, "//@*[starts-with(name(),'on')]").getLength(), "event handlers");
  }

  private static Path docs() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("docs"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no docs/ above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("docs");
  }

  static Document parse(String html) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(false);
    f.setValidating(false);
    f.setXIncludeAware(false);
    f.setExpandEntityReferences(false);
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    DocumentBuilder b = f.newDocumentBuilder();
    b.setErrorHandler(
        new ErrorHandler() {
          @Override
          public void warning(SAXParseException e) throws SAXException {
            throw e;
          }

          @Override
          public void error(SAXParseException e) throws SAXException {
            throw e;
          }

          @Override
          public void fatalError(SAXParseException e) throws SAXException {
            throw e;
          }
        });
    b.setEntityResolver(
        (publicId, systemId) -> {
          throw new IOException("no external entity may be loaded: " + systemId);
        });
    return b.parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
  }

  private static String fact(Document doc, String name) throws Exception {
    return text(doc, "//table[@id='facts']//tr[th='" + name + "']/td");
  }

  private static int width(Document doc, String range, String series) throws Exception {
    return Integer.parseInt(
        element(doc, "//svg/g[@data-range='" + range + "']/rect[@class='bar " + series + "']")
            .getAttribute("width"));
  }

  /** A row of th/td cells: the first as text, the others as numbers where they are. */
  private static List<Object> rowValues(Node row) {
    List<Object> values = new ArrayList<>();
    for (Node c = row.getFirstChild(); c != null; c = c.getNextSibling()) {
      if (c instanceof Element) {
        String s = c.getTextContent();
        boolean number = !values.isEmpty() && s.matches("[0-9][0-9,]*");
        values.add(number ? (Object) Long.parseLong(s.replace(",", "")) : s);
      }
    }
    return values;
  }

  private static List<String> cellTexts(Element row) {
    List<String> texts = new ArrayList<>();
    for (Node c = row.getFirstChild(); c != null; c = c.getNextSibling()) {
      if (c instanceof Element) {
        texts.add(c.getTextContent());
      }
    }
    return texts;
  }

  /** How the page shows a sampled value not longer than the limit. */
  private static String shown(String value) {
    if (value == null) {
      return "none";
    }
    if (value.codePointCount(0, value.length()) > CheckReportHtml.VALUE_LIMIT) {
      return cutPrefix(value);
    }
    return value.isEmpty() ? "empty" : value;
  }

  private static String cutPrefix(String value) {
    int n = value.codePointCount(0, value.length());
    return value.substring(0, value.offsetByCodePoints(0, CheckReportHtml.VALUE_LIMIT))
        + "\u2026"
        + String.format(Locale.ROOT, " [%,d characters in all]", n);
  }

  private static String text(Object context, String xpath) throws Exception {
    return element(context, xpath).getTextContent();
  }

  private static Element element(Object context, String xpath) throws Exception {
    NodeList found = nodes(context, xpath);
    assertEquals(1, found.getLength(), "exactly one " + xpath);
    return (Element) found.item(0);
  }

  private static NodeList nodes(Object context, String xpath) throws Exception {
    return (NodeList) XPATH.evaluate(xpath, context, XPathConstants.NODESET);
  }

  private static List<Node> list(NodeList nodes) {
    List<Node> list = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      list.add(nodes.item(i));
    }
    return list;
  }
}
