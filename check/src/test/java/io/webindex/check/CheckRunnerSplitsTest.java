package io.webindex.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The MapReduce check's row ranges and reduce tasks from the tables' split points. */
class CheckRunnerSplitsTest {
  @Test
  void singleTabletTablesGetTheRowPrefixesAsRangesAndOneReducer() {
    TreeSet<String> none = new TreeSet<>();
    assertEquals(List.of("d:", "p:", "t:"), CheckRunner.boundaries(none));
    assertEquals(1, CheckRunner.reducers(none));
  }

  @Test
  void splitPointsAddRangesAndOneReducerPerTabletUpToEight() {
    TreeSet<String> two = new TreeSet<>(List.of("p:com.b", "p:com.m"));
    assertEquals(List.of("d:", "p:", "p:com.b", "p:com.m", "t:"), CheckRunner.boundaries(two));
    assertEquals(3, CheckRunner.reducers(two));
    TreeSet<String> many = new TreeSet<>();
    for (int i = 0; i < 20; i++) {
      many.add(String.format("p:com.%02d", i));
    }
    assertEquals(8, CheckRunner.reducers(many));
  }
}
