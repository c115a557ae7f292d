package io.webindex.store.frontier;

import io.webindex.core.frontier.ops.QueueState;
import io.webindex.core.schema.Cell;
import io.webindex.core.schema.FrontierOpsSchema;
import io.webindex.core.schema.FrontierOpsSchema.QueueKey;
import io.webindex.core.schema.FrontierOpsSchema.ServiceState;
import io.webindex.store.Cells;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.accumulo.core.client.Scanner;
import org.apache.accumulo.core.data.Key;
import org.apache.accumulo.core.data.Range;
import org.apache.accumulo.core.data.Value;
import org.apache.hadoop.io.Text;

/**
 * The reads of the frontier service's operational table ({@link FrontierOpsSchema}) that the
 * service itself and the listings of the frontier share: the service row and the queue rows of a
 * crawl, decoded. The caller makes the scanner (and chooses isolation) and closes it.
 */
public final class OpsRows {
  private OpsRows() {}

  /** The frontier-wide settings (row {@link FrontierOpsSchema#SERVICE_ROW}). */
  public static ServiceState service(Scanner s) {
    List<Cell> cells = new ArrayList<>();
    s.setRange(Range.exact(FrontierOpsSchema.SERVICE_ROW));
    for (Map.Entry<Key, Value> e : s) {
      cells.add(Cells.fromEntry(e.getKey(), e.getValue()));
    }
    return FrontierOpsSchema.decodeService(cells);
  }

  /**
   * Every queue row of {@code crawl} (null: of every crawl), with its state; only the cells of
   * {@code family} when it is not null.
   */
  public static SortedMap<QueueKey, QueueState> crawl(Scanner s, String crawl, String family) {
    SortedMap<String, List<Cell>> rows = new TreeMap<>();
    String prefix =
        crawl == null ? FrontierOpsSchema.QUEUE_PREFIX : FrontierOpsSchema.crawlPrefix(crawl);
    s.setRange(Range.prefix(prefix));
    if (family != null) {
      s.fetchColumnFamily(new Text(family));
    }
    for (Map.Entry<Key, Value> e : s) {
      Cell c = Cells.fromEntry(e.getKey(), e.getValue());
      rows.computeIfAbsent(c.row(), r -> new ArrayList<>()).add(c);
    }
    SortedMap<QueueKey, QueueState> out =
        new TreeMap<>(Comparator.comparing(QueueKey::crawl).thenComparing(QueueKey::queue));
    rows.forEach(
        (row, cells) ->
            out.put(FrontierOpsSchema.queueOfRow(row), FrontierOpsSchema.decode(cells)));
    return out;
  }
}
