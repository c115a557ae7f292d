package io.webindex.mr;

import io.webindex.core.schema.Cell;
import io.webindex.mr.io.CellKey;
import io.webindex.mr.io.CellValue;
import java.nio.charset.StandardCharsets;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.data.RowColumnValue;

/** Turns core cells and Fluo seed entries into shuffle keys and values. */
final class CellKeys {
  private CellKeys() {}

  static CellKey query(Cell c) {
    return CellKey.of(CellKey.QUERY, c.row(), c.family(), c.qualifier());
  }

  static CellKey frontier(Cell c) {
    return CellKey.of(CellKey.FRONTIER, c.row(), c.family(), c.qualifier());
  }

  static CellValue value(Cell c) {
    return CellValue.ofFinal(c.value().getBytes(StandardCharsets.UTF_8));
  }

  static CellKey fluo(RowColumnValue rcv) {
    Column col = rcv.getColumn();
    return new CellKey(
        CellKey.FLUO,
        rcv.getRow().toArray(),
        col.getFamily().toArray(),
        col.getQualifier().toArray());
  }
}
