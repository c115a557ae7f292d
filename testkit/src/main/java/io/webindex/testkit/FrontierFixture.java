package io.webindex.testkit;

import io.webindex.core.schema.Cell;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.accumulo.core.client.BatchWriter;
import org.apache.accumulo.core.client.BatchWriterConfig;
import org.apache.accumulo.core.client.Connector;
import org.apache.accumulo.core.data.Mutation;
import org.apache.accumulo.core.data.Value;

/**
 * The worked example's frontier table (docs/tables.md), written cell by cell as the frontier table
 * holds it, for the readers' tests (the frontier command, the web API and the frontier page). Every
 * cell is written out literally here, not built by the codec under test. By hand:
 *
 * <pre>
 * queue   due (hex16 of epoch ms)                      urc (inverted)        URL
 * a.com   000001a292e4d500 = 2026-12-20T10:00:00Z      7fffffffffffffff = 0  http://a.com/page1
 * b.com   000001a292e5bf60 = 2026-12-20T10:01:00Z      7ffffffffffffffe = 1  http://b.com/
 * c.com   0 (never crawled: due at once)               7ffffffffffffffc = 3  http://c.com/
 * c.com   0 (never crawled: due at once)               7ffffffffffffffe = 1  http://c.com/page1
 * d.com   000001a292e6a9c0 = 2026-12-20T10:02:00Z      7fffffffffffffff = 0  http://d.com/
 * </pre>
 *
 * (0x1a292e4d500 = 1797760800000 ms; b.com +60000, d.com +120000.)
 */
public final class FrontierFixture {
  private FrontierFixture() {}

  /** The cells, in key order. */
  public static List<Cell> cells() {
    return List.of(
        cell("q:a.com", "000001a292e4d500:7fffffffffffffff:com.a/page1", "http://a.com/page1"),
        cell("q:b.com", "000001a292e5bf60:7ffffffffffffffe:com.b", "http://b.com/"),
        cell("q:c.com", "0000000000000000:7ffffffffffffffc:com.c", "http://c.com/"),
        cell("q:c.com", "0000000000000000:7ffffffffffffffe:com.c/page1", "http://c.com/page1"),
        cell("q:d.com", "000001a292e6a9c0:7fffffffffffffff:com.d", "http://d.com/"));
  }

  private static Cell cell(String row, String qualifier, String url) {
    return new Cell(row, "due", qualifier, url);
  }

  /** Writes {@code cells} into {@code table}. */
  public static void write(Connector connector, String table, List<Cell> cells) throws Exception {
    try (BatchWriter w = connector.createBatchWriter(table, new BatchWriterConfig())) {
      for (Cell c : cells) {
        Mutation m = new Mutation(c.row());
        m.put(c.family(), c.qualifier(), new Value(c.value().getBytes(StandardCharsets.UTF_8)));
        w.addMutation(m);
      }
    }
  }
}
