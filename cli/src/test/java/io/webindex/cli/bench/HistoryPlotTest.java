package io.webindex.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The page of a hand-written three-run history (history-3.jsonl), read as XML: one chart per figure
 * measured, the points in run order at the heights worked out by hand, one series per input size,
 * the failed guard and the failed run marked, the labels, and nothing fetched or scripted.
 */
class HistoryPlotTest {
  private final XPath xp = XPathFactory.newInstance().newXPath();

  @Test
  void threeRuns() throws Exception {
    Path history = Path.of(HistoryPlotTest.class.getResource("history-3.jsonl").toURI());
    StringWriter warnings = new StringWriter();
    List<BenchHistory.Run> runs = BenchHistory.read(history, new PrintWriter(warnings, true));
    assertEquals("", warnings.toString());
    String html = HistoryPlot.html(runs);
    assertFalse(html.contains("<script"), html);
    assertFalse(
        html.contains("http://") && html.replace("http://www.w3.org/", "").contains("http://"));
    assertFalse(html.contains("https://"));
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new InputSource(new StringReader(html)));

    // the runs' table, the command escaped
    assertEquals(3.0, num(doc, "count(//table[@class='runs']/tr[@data-run])"));
    assertEquals("bench load --pages 1500 <&>", str(doc, "//table/tr[@data-run='3']/td[4]"));
    assertEquals(
        "failed in load: load --embedded failed with status 1:",
        str(doc, "//table/tr[@data-run='3']/td[7]"));
    assertEquals("guard failed: load", str(doc, "//table/tr[@data-run='2']/td[7]"));
    assertEquals("passed", str(doc, "//table/tr[@data-run='1']/td[7]"));

    // one chart per figure measured, in the order of BenchFigures.FIGURES
    assertEquals(List.of("recompute.seconds", "load.endToEndPagesPerSecond"), ids(doc));
    assertEquals(
        "recompute.seconds (s) — ↓ lower is better",
        str(doc, "//section[@id='recompute.seconds']/h2"));
    assertEquals(
        "load.endToEndPagesPerSecond (pages/s) — ↑ higher is better",
        str(doc, "//section[@id='load.endToEndPagesPerSecond']/h2"));

    // recompute.seconds: max 20 → axis to 30 in steps of 10 (20 × 1.05 = 21, step 5.25 → 10);
    // the plot is 190 px high from y = 24, so v sits at 214 − v / 30 × 190
    String rec = "//section[@id='recompute.seconds']";
    assertEquals(List.of("0", "10", "20", "30"), texts(doc, rec + "//*[@class='y-tick']"));
    String small = rec + "//*[@data-series='1,500 pages, 37 domains']";
    String big = rec + "//*[@data-series='100,000 pages, 2,500 domains']";
    assertEquals(List.of("1", "3"), attrs(doc, small + "/*[@data-run]", "data-run"));
    assertEquals(List.of("10", "12"), attrs(doc, small + "/*[@data-run]", "data-value"));
    assertEquals(List.of("150.7", "138.0"), attrs(doc, small + "/*[@data-run]", "cy"));
    assertEquals(List.of("2"), attrs(doc, big + "/*[@data-run]", "data-run"));
    assertEquals(List.of("87.3"), attrs(doc, big + "/*[@data-run]", "cy"));
    // the line through the small input's runs, in run order (x grows), at the same heights
    String[] pts = str(doc, small + "/polyline/@points").split(" ");
    assertEquals(2, pts.length);
    assertTrue(x(pts[0]) < x(pts[1]), String.join(" ", pts));
    assertEquals("150.7", pts[0].split(",")[1]);
    assertEquals("138.0", pts[1].split(",")[1]);
    // the x positions: the same run at the same x in both series (run 2 between 1 and 3)
    double x1 = Double.parseDouble(attrs(doc, small + "/*[@data-run='1']", "cx").get(0));
    double x2 = Double.parseDouble(attrs(doc, big + "/*[@data-run='2']", "cx").get(0));
    double x3 = Double.parseDouble(attrs(doc, small + "/*[@data-run='3']", "cx").get(0));
    assertTrue(x1 < x2 && x2 < x3);
    assertEquals(x2 - x1, x3 - x2, 0.2);
    // no guard covers recompute: no point marked; the failed run 3 has its dashed line
    assertEquals(0.0, num(doc, "count(" + rec + "//*[contains(@class,'guard-failed')])"));
    assertEquals(List.of("3"), attrs(doc, rec + "//*[@class='run-failed']", "data-run"));
    assertEquals(
        List.of("2026-11-20", "2026-11-21", "2026-11-22"),
        texts(doc, rec + "//*[@class='x-label']/*[1]"));
    assertEquals(
        List.of("09:15 aaaaaaa", "10:00 bbbbbbb", "11:30 ccccccc"),
        texts(doc, rec + "//*[@class='x-label']/*[2]"));
    // a failed run's label is red
    assertEquals(
        List.of("", "#d62728", "#d62728"), attrs(doc, rec + "//*[@class='x-label']", "fill"));

    // load: run 2's guard failed (marked), run 3 failed before load measured (no point, its line)
    String load = "//section[@id='load.endToEndPagesPerSecond']";
    assertEquals(
        List.of("1"),
        attrs(doc, load + "//*[@data-series='1,500 pages, 37 domains']/*[@data-run]", "data-run"));
    assertEquals(
        List.of("point guard-failed"),
        attrs(
            doc, load + "//*[@data-series='100,000 pages, 2,500 domains']/*[@data-run]", "class"));
    assertEquals(List.of("3"), attrs(doc, load + "//*[@class='run-failed']", "data-run"));
    // 250 → axis to 300 in steps of 100 (262.5 / 4 = 65.6 → 100)
    assertEquals(List.of("0", "100", "200", "300"), texts(doc, load + "//*[@class='y-tick']"));
  }

  @Test
  void manyRunsAreLabelledEveryKth() {
    List<BenchHistory.Run> runs = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      runs.add(
          new BenchHistory.Run(
              String.format("2026-11-%02dT10:00:00Z", i % 28 + 1),
              "abcdef0123",
              "bench recompute",
              "2 cores, CPU",
              1000,
              25,
              false,
              null,
              List.of(),
              java.util.Map.of("recompute.seconds", 10.0 + i)));
    }
    String html = HistoryPlot.html(runs);
    // 30 points; the plot (632 px, 40 px inset each side) fits 7 labels of 86 px: every 5th run
    assertEquals(30, html.split("class=\"point\"", -1).length - 1);
    assertEquals(6, html.split("class=\"x-label\"", -1).length - 1);
    assertTrue(html.contains("class=\"x-label\" data-run=\"26\""));
  }

  @Test
  void stepsAndNumbers() {
    assertEquals(10, HistoryPlot.niceStep(5.25));
    assertEquals(0.2, HistoryPlot.niceStep(0.15), 1e-12);
    assertEquals(500, HistoryPlot.niceStep(500));
    assertEquals("1,500", HistoryPlot.number(1500));
    assertEquals("0.3", HistoryPlot.number(0.30000000000000004));
    assertEquals("12.35", HistoryPlot.number(12.35));
  }

  private static double x(String point) {
    return Double.parseDouble(point.split(",")[0]);
  }

  private List<String> ids(Document doc) throws Exception {
    return attrs(doc, "//section[@class='figure']", "id");
  }

  private List<String> attrs(Document doc, String path, String attr) throws Exception {
    NodeList nodes = (NodeList) xp.evaluate(path, doc, XPathConstants.NODESET);
    List<String> l = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      l.add(((Element) nodes.item(i)).getAttribute(attr));
    }
    return l;
  }

  private List<String> texts(Document doc, String path) throws Exception {
    NodeList nodes = (NodeList) xp.evaluate(path, doc, XPathConstants.NODESET);
    List<String> l = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      l.add(nodes.item(i).getTextContent());
    }
    return l;
  }

  private String str(Document doc, String path) throws Exception {
    return xp.evaluate(path, doc);
  }

  private double num(Document doc, String path) throws Exception {
    return (double) xp.evaluate(path, doc, XPathConstants.NUMBER);
  }
}
