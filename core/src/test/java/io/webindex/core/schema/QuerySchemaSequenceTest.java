package io.webindex.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link QuerySchema#sequencePageRow}: page rows of placeholder keys, in the order of n. */
class QuerySchemaSequenceTest {
  @Test
  void pageRowsOfASequenceSortAsTheirNumbers() {
    assertEquals("p:000000000000000", QuerySchema.sequencePageRow(0));
    assertEquals("p:000000000000042", QuerySchema.sequencePageRow(42));
    assertTrue(QuerySchema.sequencePageRow(9).compareTo(QuerySchema.sequencePageRow(10)) < 0);
    assertEquals(
        new QuerySchema.Row.Page("000000000000007"),
        QuerySchema.parseRow(QuerySchema.sequencePageRow(7)));
  }
}
