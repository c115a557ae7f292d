package io.webindex.core.index;

import io.webindex.core.frontier.FrontierEntry;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.FrontierSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The frontier table's cells of a URI, and the changes from one frontier entry to another. */
public final class FrontierCells {
  private FrontierCells() {}

  /**
   * The changes that turn the frontier table's cell of {@code before} into that of {@code after}
   * (either may be absent: the URI not in the frontier): nothing when equal, else a delete of the
   * old column and a put of the new cell (the column moves when the due time or urc changes).
   */
  public static List<CellChange> changes(
      Optional<FrontierEntry> before, Optional<FrontierEntry> after) {
    List<CellChange> out = new ArrayList<>(2);
    if (Objects.equals(before, after)) {
      return out;
    }
    before.ifPresent(b -> out.add(new CellChange.Delete(FrontierSchema.column(b))));
    after.ifPresent(a -> out.add(CellChange.put(FrontierSchema.cell(a))));
    return out;
  }
}
