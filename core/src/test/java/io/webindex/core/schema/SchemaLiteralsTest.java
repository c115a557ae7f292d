package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The tables' layout is written in its codecs only: no main source of any module but {@link
 * QuerySchema} and {@link FluoSchema} spells a row prefix, a {@code family:qualifier} column, or a
 * family or qualifier of the schema where a key is built ({@code new Key(…)}, {@code new Text(…)},
 * {@code new Column(…)}, {@code new Mutation(…)}, {@code fetchColumn…(…)}). The test oracle
 * (testkit's {@code oracle} package) is exempt: it spells the layout on its own, on purpose.
 *
 * <p>The words are listed here by hand, from the schema notes, not read from the codecs.
 */
class SchemaLiteralsTest {
  /** Row prefixes of the query table and the Fluo table. */
  private static final List<String> ROW_PREFIXES =
      List.of("d:", "p:", "t:", "meta:", "um:", "dm:", "eq:");

  /** Families and qualifiers of the query table and the Fluo table. */
  private static final Set<String> WORDS =
      Set.of(
          "domain", "pagecount", "rank", "page", "cur", "incount", "inlinks", "loader", "applied");

  /** Calls that build a key, a column or a mutation. */
  private static final Pattern KEY_CALL =
      Pattern.compile(
          "new\\s+(Key|Text|Column|Mutation|RowColumn|RowColumnValue)\\s*\\(|"
              + "\\.(fetchColumn|fetchColumnFamily)\\s*\\(");

  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

  @Test
  void noMainSourceSpellsTheSchemaOutsideItsCodecs() throws IOException {
    Path root = Paths.get("").toAbsolutePath().getParent();
    List<Path> sources = mainSources(root);
    assertTrue(sources.size() > 100, "main sources found under " + root + ": " + sources.size());
    List<String> found = new ArrayList<>();
    for (Path f : sources) {
      found.addAll(literalsIn(root.relativize(f).toString(), Files.readString(f)));
    }
    assertEquals(List.of(), found, "schema literals outside QuerySchema/FluoSchema");
  }

  @Test
  void theScanFindsEachKindOfLiteral() {
    String src =
        "class X {\n"
            + "  // \"p:\" in a comment is fine\n"
            + "  String a = String.format(\"p:%015d\", 1);\n"
            + "  Key k = new Key(row, \"page\", \"incount\");\n"
            + "  String c = \"domain:pagecount\";\n"
            + "  Map m = Map.of(\"page\", 1); String ok = \"pages\";\n"
            + "}\n";
    assertEquals(
        List.of(
            "X.java:3: \"p:%015d\"",
            "X.java:4: \"page\"", "X.java:4: \"incount\"", "X.java:5: \"domain:pagecount\""),
        literalsIn("X.java", src));
  }

  private static List<Path> mainSources(Path root) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path m : (Iterable<Path>) modules::iterator) {
        Path src = m.resolve("src/main/java");
        if (!Files.isDirectory(src)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(src)) {
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> !p.endsWith(Paths.get("io/webindex/core/schema/QuerySchema.java")))
              .filter(p -> !p.endsWith(Paths.get("io/webindex/core/schema/FluoSchema.java")))
              .filter(p -> !p.toString().contains("/io/webindex/testkit/oracle/"))
              .forEach(out::add);
        }
      }
    }
    return out;
  }

  /** The schema literals of one source, as {@code file:line: "literal"}. */
  static List<String> literalsIn(String name, String source) {
    String code = blankComments(source);
    List<String> out = new ArrayList<>();
    Matcher lit = LITERAL.matcher(code);
    while (lit.find()) {
      String s = lit.group(1);
      boolean prefix = ROW_PREFIXES.stream().anyMatch(s::startsWith);
      boolean column = isColumn(s);
      boolean inKey = WORDS.contains(s) && insideKeyCall(code, lit.start());
      if (prefix || column || inKey) {
        out.add(name + ":" + line(code, lit.start()) + ": \"" + s + "\"");
      }
    }
    return out;
  }

  private static boolean isColumn(String s) {
    int colon = s.indexOf(':');
    return colon > 0
        && WORDS.contains(s.substring(0, colon))
        && WORDS.contains(s.substring(colon + 1));
  }

  /** Whether position {@code at} lies in the argument list of a key-building call. */
  private static boolean insideKeyCall(String code, int at) {
    Matcher call = KEY_CALL.matcher(code);
    while (call.find() && call.end() <= at) {
      int depth = 1;
      int i = call.end();
      while (i < code.length() && depth > 0 && i <= at) {
        char c = code.charAt(i);
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        i++;
      }
      if (depth > 0 && i > at) {
        return true;
      }
    }
    return false;
  }

  /** The source with every comment replaced by spaces (line breaks kept). */
  private static String blankComments(String source) {
    Matcher m = COMMENT.matcher(source);
    StringBuilder b = new StringBuilder();
    int last = 0;
    while (m.find()) {
      // a "//" or "/*" inside a string literal is not a comment: keep literals that contain one
      if (insideLiteral(source, m.start())) {
        continue;
      }
      b.append(source, last, m.start());
      b.append(m.group().replaceAll("[^\\n]", " "));
      last = m.end();
    }
    b.append(source.substring(last));
    return b.toString();
  }

  private static boolean insideLiteral(String source, int at) {
    int lineStart = source.lastIndexOf('\n', at - 1) + 1;
    int quotes = 0;
    for (int i = lineStart; i < at; i++) {
      char c = source.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        quotes++;
      }
    }
    return quotes % 2 == 1;
  }

  private static int line(String code, int at) {
    int n = 1;
    for (int i = 0; i < at; i++) {
      if (code.charAt(i) == '\n') {
        n++;
      }
    }
    return n;
  }
}
