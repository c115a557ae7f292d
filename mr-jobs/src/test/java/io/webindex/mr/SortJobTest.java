package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.webindex.mr.io.CellKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The sort job's partitioner: the query cells follow the query table's tablets, the Fluo seed
 * entries and the frontier cells each have one reducer of their own, after those of the tablets.
 */
class SortJobTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void eachTableHasItsOwnReducers() {
    Configuration c = new Configuration(false);
    c.set(SortJob.QUERY_SPLITS, SplitSampling.encode(List.of(b("p:com.b"), b("t:"))));
    SortJob.TablePartitioner p = new SortJob.TablePartitioner();
    p.setConf(c);
    // three tablets (0, 1, 2), then the Fluo seed (3) and the frontier (4)
    int reducers = 5;
    assertEquals(0, p.getPartition(CellKey.of(CellKey.QUERY, "d:com.a", "f", "q"), null, reducers));
    assertEquals(0, p.getPartition(CellKey.of(CellKey.QUERY, "p:com.b", "f", "q"), null, reducers));
    assertEquals(1, p.getPartition(CellKey.of(CellKey.QUERY, "p:com.c", "f", "q"), null, reducers));
    assertEquals(2, p.getPartition(CellKey.of(CellKey.QUERY, "t:1", "f", "q"), null, reducers));
    assertEquals(3, p.getPartition(CellKey.of(CellKey.FLUO, "um:d:1", "f", "q"), null, reducers));
    assertEquals(3, p.getPartition(CellKey.of(CellKey.FLUO, "q:a.com", "f", "q"), null, reducers));
    // a frontier row sorts among the query rows, yet never goes to a tablet's reducer
    assertEquals(
        4, p.getPartition(CellKey.of(CellKey.FRONTIER, "q:a.com", "due", "x"), null, reducers));
    assertEquals(4, p.getPartition(CellKey.of(CellKey.FRONTIER, "a", "due", "x"), null, reducers));
  }
}
