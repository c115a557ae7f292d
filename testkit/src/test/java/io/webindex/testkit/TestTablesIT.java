package io.webindex.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Whose tables are dropped when: a test's own (named by {@link AccumuloITBase#newTableName} in it,
 * and those under such a name as a prefix, as the commands name a configuration's tables) once the
 * test ended; the class's (named in {@code @BeforeAll} or by {@link
 * AccumuloITBase#newClassTableName}) not before the next class.
 */
@SharedCluster
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestTablesIT extends AccumuloITBase {
  private static String classTable;
  private static String sharedLater;
  private static String lookalike;
  private static final List<String> firstTests = new ArrayList<>();

  @BeforeAll
  static void createTheClassTable() {
    classTable = createTable("cls");
  }

  @Test
  @Order(1)
  void aTestCreatesTablesOfItsOwnAndOneForTheClass() throws Exception {
    String prefix = newTableName("own");
    firstTests.add(createTable("plain"));
    for (String t : List.of(prefix, prefix + "_meta", prefix + "_r1")) {
      connector().tableOperations().create(t);
      firstTests.add(t);
    }
    sharedLater = newClassTableName("later");
    connector().tableOperations().create(sharedLater);
    // a name that only begins with the digits of this test's name is not under it
    lookalike = prefix + "0";
    connector().tableOperations().create(lookalike);
  }

  @Test
  @Order(2)
  void theTestsTablesAreDroppedAfterItAndTheClasssStay() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Set<String> left = remaining();
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(200);
      left = remaining();
    }
    assertEquals(Set.of(), left, "the first test's tables, dropped after it");
    for (String t : List.of(classTable, sharedLater, lookalike)) {
      assertTrue(connector().tableOperations().exists(t), t + " stays");
    }
  }

  private static Set<String> remaining() {
    Set<String> left = new TreeSet<>(connector().tableOperations().list());
    left.retainAll(firstTests);
    return left;
  }
}
