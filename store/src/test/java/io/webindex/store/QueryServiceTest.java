package io.webindex.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts of {@link QueryService} that need no table: input interpretation and cursors. */
class QueryServiceTest {
  @Test
  void domainInputsAnOperatorMightType() {
    assertEquals(List.of("uk.co.bbc"), QueryService.domainCandidates("bbc.co.uk").subList(0, 1));
    assertEquals("uk.co.bbc", QueryService.domainCandidates("www.bbc.co.uk").get(0));
    assertEquals(List.of("uk.co.bbc"), QueryService.domainCandidates("https://www.bbc.co.uk/news"));
    assertEquals("com.c", QueryService.domainCandidates("http://c.com/page1?x=1").get(0));
    assertEquals("1.2.3.4", QueryService.domainCandidates("1.2.3.4").get(0));
    // already reversed: the host reading comes first, the literal one second
    assertTrue(QueryService.domainCandidates("uk.co.bbc").contains("uk.co.bbc"));
    assertEquals(List.of("a.com", "com.a"), QueryService.domainCandidates("com.a"));
    assertThrows(IllegalArgumentException.class, () -> QueryService.domainCandidates("  "));
    assertThrows(
        IllegalArgumentException.class, () -> QueryService.domainCandidates("ftp://x.org"));
  }

  @Test
  void uriInputsAnOperatorMightType() {
    assertEquals(List.of("com.c"), QueryService.uriCandidates("http://c.com/"));
    assertEquals("com.c/page1", QueryService.uriCandidates("c.com/page1").get(0));
    assertEquals("com.c:s/x", QueryService.uriCandidates("https://C.com:443/x#frag").get(0));
    assertEquals(List.of("c.com/page1", "com.c/page1"), QueryService.uriCandidates("com.c/page1"));
    assertThrows(IllegalArgumentException.class, () -> QueryService.uriCandidates("mailto:x@y"));
    assertThrows(IllegalArgumentException.class, () -> QueryService.uriCandidates(""));
  }

  @Test
  void cursorsRoundTripAndAreShellSafe() {
    String position = "7ffffffffffffffc:com.c/a?b=c&d=\u00e9;e";
    String cursor = QueryService.encodeCursor("t", position);
    assertTrue(cursor.matches("[A-Za-z0-9_-]+"), cursor);
    assertEquals(position, QueryService.decodeCursor(cursor, "t"));
  }

  @Test
  void foreignOrDamagedCursorsAreRefused() {
    String top = QueryService.encodeCursor("t", "7ffffffffffffffc:com.c");
    assertThrows(IllegalArgumentException.class, () -> QueryService.decodeCursor(top, "d"));
    assertThrows(IllegalArgumentException.class, () -> QueryService.decodeCursor("%%%", "t"));
    assertThrows(
        IllegalArgumentException.class,
        () -> QueryService.decodeCursor(QueryService.encodeCursor("t", ""), "t"));
  }
}
