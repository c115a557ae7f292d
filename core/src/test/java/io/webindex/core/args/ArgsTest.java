package io.webindex.core.args;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArgsTest {
  private static final Set<String> VALUES = Set.of("limit", "after", "table", "rate");
  private static final Set<String> FLAGS = Set.of("verbose", "force");

  private static Args parse(String... raw) {
    return Args.parse(raw, VALUES, FLAGS);
  }

  private static void assertRefused(String message, String... raw) {
    ArgsException e = assertThrows(ArgsException.class, () -> parse(raw));
    assertEquals(message, e.getMessage());
  }

  @Test
  void optionsFlagsAndPositionals() {
    Args a = parse("top", "--limit=5", "--after", "abc", "-", "--verbose", "--", "--table", "-h");
    assertEquals(List.of("top", "-", "--table", "-h"), a.positionals());
    assertEquals(5, a.intValue("limit", 10));
    assertEquals(Optional.of("abc"), a.value("after"));
    assertTrue(a.has("verbose"));
    assertFalse(a.has("force"));
    assertFalse(a.has("table"));
    assertFalse(a.helpRequested());
    assertEquals(Optional.empty(), a.value("table"));
  }

  @Test
  void aValueMayStartWithADash() {
    assertEquals(Optional.of("-3"), parse("--after", "-3").value("after"));
    assertEquals(-3, parse("--limit", "-3").intValue("limit", 0));
  }

  @Test
  void unknownOptions() {
    assertRefused("unknown option --tabel", "--tabel", "t");
    assertRefused("unknown option --tabel", "--tabel=t");
    assertRefused("unknown option -x", "-x");
    assertRefused("unknown option --", "top", "--=1");
  }

  @Test
  void missingOrEmptyValues() {
    assertRefused("--table needs a value", "--table");
    assertRefused("--limit needs a value", "--limit=");
    assertRefused("--after needs a value", "--after", "");
    assertRefused("--verbose takes no value", "--verbose=1");
  }

  @Test
  void anOptionGivenTwiceIsRefusedEvenWithTheSameValue() {
    assertRefused("--table given twice", "--table", "a", "--table=b");
    assertRefused("--table given twice", "--table", "a", "--table", "a");
    assertRefused("--force given twice", "--force", "--force");
  }

  @Test
  void aRepeatableOptionKeepsEveryValueInOrder() {
    Args a =
        Args.parse(
            List.of("--input", "a", "--input=b", "--out", "o", "--input", "a"),
            Set.of("input", "out"),
            Set.of(),
            Set.of("input"));
    assertEquals(List.of("a", "b", "a"), a.values("input"));
    assertEquals(Optional.of("a"), a.value("input"));
    assertEquals(List.of("o"), a.values("out"));
    assertEquals(List.of(), a.values("delta"));
    ArgsException e =
        assertThrows(
            ArgsException.class,
            () ->
                Args.parse(
                    List.of("--out", "o", "--out", "p"),
                    Set.of("input", "out"),
                    Set.of(),
                    Set.of("input")));
    assertEquals("--out given twice", e.getMessage());
  }

  @Test
  void theFirstProblemIsTheOneReported() {
    assertRefused("unknown option --x", "--x", "--table");
  }

  @Test
  void helpWinsOverEverythingElse() {
    for (String h : List.of("-h", "--help")) {
      assertTrue(parse(h).helpRequested());
      assertTrue(parse("--bogus", h, "--table").helpRequested());
      Args a = parse("--table", "t", h);
      assertTrue(a.helpRequested());
      assertFalse(a.has("table"), "with help, no option is read");
    }
    assertFalse(parse("--after", "-h").helpRequested(), "a value is not help");
  }

  @Test
  void numbers() {
    assertEquals(10, parse().intValue("limit", 10));
    assertEquals(7L, parse("--limit", " 7 ").longValue("limit", 0));
    assertEquals(9_000_000_000L, parse("--limit", "9000000000").longValue("limit", 0));
    assertRefused(
        "--limit must be a whole number: ten", () -> parse("--limit", "ten").intValue("limit", 1));
    assertRefused(
        "--limit must be a whole number: 1.5", () -> parse("--limit", "1.5").longValue("limit", 1));
    assertRefused(
        "--limit is too large: 9000000000",
        () -> parse("--limit", "9000000000").intValue("limit", 1));
    assertEquals(0L, parse("--rate", "0").nonNegative("rate", 5));
    assertEquals(5L, parse().nonNegative("rate", 5));
    assertRefused(
        "--rate must be a whole number >= 0: -1",
        () -> parse("--rate", "-1").nonNegative("rate", 0));
    assertEquals(3, parse("--rate", "3").nonNegativeInt("rate", 0));
    assertEquals(4, parse().nonNegativeInt("rate", 4));
    assertRefused(
        "--rate must be a whole number >= 0: -2",
        () -> parse("--rate", "-2").nonNegativeInt("rate", 0));
    assertRefused(
        "--rate is too large: 3000000000",
        () -> parse("--rate", "3000000000").nonNegativeInt("rate", 0));
  }

  @Test
  void requiredOptions() {
    assertEquals("t", parse("--table", "t").required("table"));
    assertRefused("--table is required", () -> parse().required("table"));
    assertRefused(
        "--table is required (the table to read)",
        () -> parse().required("table", "the table to read"));
  }

  @Test
  void positionalCounts() {
    assertEquals(List.of("a", "b"), parse("a", "--force", "b").expectPositionals(2, "two names"));
    assertRefused("missing two names", () -> parse("a").expectPositionals(2, "two names"));
    assertRefused("unexpected argument 'c'", () -> parse("a", "b", "c").expectPositionals(2, "x"));
    assertRefused("unexpected argument 'stray'", () -> parse("--force", "stray").noPositionals());
    parse("--force").noPositionals();
  }

  private static void assertRefused(String message, Runnable r) {
    ArgsException e = assertThrows(ArgsException.class, r::run);
    assertEquals(message, e.getMessage());
  }
}
