package io.webindex.testkit.oracle;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Compares two dumps as sorted line sets and fails with the lines that differ. */
public final class DumpDiff {
  private DumpDiff() {}

  /** Fails unless {@code actual} holds exactly the lines of {@code expected} (order aside). */
  public static void assertSameLines(List<String> expected, List<String> actual, String what) {
    List<String> e = new ArrayList<>(expected);
    List<String> a = new ArrayList<>(actual);
    e.sort(null);
    a.sort(null);
    if (e.equals(a)) {
      return;
    }
    TreeSet<String> es = new TreeSet<>(e);
    TreeSet<String> as = new TreeSet<>(a);
    List<String> missing = e.stream().filter(l -> !as.contains(l)).limit(20).toList();
    List<String> extra = a.stream().filter(l -> !es.contains(l)).limit(20).toList();
    fail(
        what
            + ": expected "
            + e.size()
            + " lines, got "
            + a.size()
            + (es.size() != e.size() || as.size() != a.size() ? " (duplicate lines)" : "")
            + "\nmissing:\n  "
            + String.join("\n  ", missing)
            + "\nunexpected:\n  "
            + String.join("\n  ", extra));
  }
}
