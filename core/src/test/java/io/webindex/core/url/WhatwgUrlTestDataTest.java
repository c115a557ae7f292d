package io.webindex.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every web-link case of the WHATWG URL Standard's own test data: the link {@link WebUrl} keeps is
 * the browser's {@code href} after the normalisations of docs/semantics.md, and a link the standard
 * refuses, or whose result is not http(s), is dropped.
 */
class WhatwgUrlTestDataTest {

  /** Cases where we deliberately differ from a browser (see docs/semantics.md, "Limits"). */
  static final List<String> KNOWN = List.of();

  @Test
  void everyWebLinkCaseAsABrowserReadsIt() {
    List<WptUrlCases.Case> cases = WptUrlCases.cases();
    assertTrue(cases.size() > 400, "cases found: " + cases.size());
    List<String> mismatches = new ArrayList<>();
    int kept = 0;
    for (WptUrlCases.Case c : cases) {
      String got;
      try {
        WebUrl base = c.base() == null ? null : WebUrl.parse(c.base());
        got = WebUrl.parse(c.input(), base).toString();
      } catch (InvalidUrlException e) {
        got = null;
      }
      if (c.expected() != null) {
        kept++;
      }
      if (!java.util.Objects.equals(c.expected(), got)) {
        mismatches.add(c + ": expected " + c.expected() + " (" + c.why() + "), got " + got);
      }
    }
    System.out.println(
        "urltestdata: "
            + cases.size()
            + " web-link cases, "
            + kept
            + " kept, "
            + mismatches.size()
            + " mismatches");
    mismatches.forEach(System.out::println);
    assertEquals(KNOWN, mismatches);
  }
}
