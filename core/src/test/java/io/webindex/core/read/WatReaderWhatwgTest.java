package io.webindex.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.webindex.core.TestData;
import io.webindex.core.model.Link;
import io.webindex.core.model.Page;
import io.webindex.core.url.WptUrlCases;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The WHATWG URL Standard's web-link cases read the way real input arrives: each one is a WAT page
 * whose {@code <base href>} ({@code Head.Base}) is the case's base and whose one {@code <a href>}
 * is the case's input, HTML-escaped as a page author writes it. The link the reader keeps is the
 * browser's, normalised (docs/semantics.md), or none.
 */
class WatReaderWhatwgTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void linksOfWatPagesWithBaseHrefAsABrowserResolvesThem() throws Exception {
    List<WptUrlCases.Case> cases =
        WptUrlCases.cases().stream().filter(c -> c.base() != null).toList();
    assertTrue(cases.size() > 150, "cases with an http(s) base: " + cases.size());
    WatReaderTest.WatWriter w = new WatReaderTest.WatWriter(false);
    for (WptUrlCases.Case c : cases) {
      w.record("metadata", pageUrl(c), "2026-11-20T10:00:00Z", "application/json", json(c));
    }
    TestData.Read r = TestData.read(w.bytes(), "wpt.wat", 0);
    assertEquals(List.of(), r.rejects());
    assertEquals(cases.size(), r.pages().size());
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      WptUrlCases.Case c = cases.get(i);
      Page p = r.pages().get(i);
      assertEquals(pageUrl(c), p.url(), "pages come in record order");
      List<String> got = p.links().stream().map(Link::url).toList();
      List<String> want = c.expected() == null ? List.of() : List.of(c.expected());
      if (!got.equals(want)) {
        mismatches.add(c + ": expected " + want + " (" + c.why() + "), got " + got);
      }
    }
    mismatches.forEach(System.out::println);
    assertEquals(List.of(), mismatches, cases.size() + " cases");
  }

  private static String pageUrl(WptUrlCases.Case c) {
    return "http://page.webindex.test/case-" + c.index();
  }

  private static String json(WptUrlCases.Case c) throws Exception {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode env = root.putObject("Envelope");
    env.putObject("WARC-Header-Metadata").put("WARC-Target-URI", pageUrl(c));
    ObjectNode html =
        env.putObject("Payload-Metadata")
            .putObject("HTTP-Response-Metadata")
            .putObject("HTML-Metadata");
    html.putObject("Head")
        .put("Title", "case " + c.index())
        .putObject("Base")
        .put("href", escape(c.base()));
    html.putArray("Links")
        .addObject()
        .put("path", "A@/href")
        .put("url", escape(c.input()))
        .put("text", "link");
    return JSON.writeValueAsString(root);
  }

  /** As an author writes a URL in an HTML attribute: '&' as {@code &amp;}. */
  private static String escape(String s) {
    return s.replace("&", "&amp;");
  }
}
