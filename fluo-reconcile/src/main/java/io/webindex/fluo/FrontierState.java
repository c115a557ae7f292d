package io.webindex.fluo;

import io.webindex.core.frontier.FrontierInputs;
import io.webindex.core.frontier.Frontiers;
import io.webindex.core.index.FrontierCells;
import io.webindex.core.schema.CellChange;
import io.webindex.core.schema.FluoSchema;
import java.util.List;
import org.apache.fluo.api.client.TransactionBase;
import org.apache.fluo.api.data.Column;
import org.apache.fluo.api.data.RowColumn;

/**
 * A URI's frontier inputs in the Fluo table ({@code f:<uri> fr:in}, {@link FrontierInputs}): its
 * urc and its history's next fetch. Only the observer of the {@code um:} queue writes them ({@link
 * UriQueue}): the loader sends a new next fetch through the queue with the URI's deltas, so the
 * observer, which reads the cell and writes it back in one transaction ({@link #update}), never
 * collides with the loader; the frontier-table changes it exports are computed from the values read
 * in the transaction that commits.
 */
final class FrontierState {
  /** The column of a URI's frontier inputs. */
  static final Column IN = new Column(FluoSchema.FAM_FRONTIER, FluoSchema.QUAL_IN);

  private FrontierState() {}

  /** The cell of a URI's frontier inputs. */
  static RowColumn cell(String uriKey) {
    return new RowColumn(FluoSchema.frontierRow(uriKey), IN);
  }

  /** The inputs a cell's value holds; an absent cell holds {@link FrontierInputs#NONE}. */
  static FrontierInputs decode(String held) {
    return held == null ? FrontierInputs.NONE : FluoSchema.decodeFrontierInputs(held);
  }

  /**
   * The value to store for {@code inputs}, or null when there is nothing to keep (urc 0 and never
   * crawled, as a URI without a cell): the cell is then deleted.
   */
  static String stored(FrontierInputs inputs) {
    return inputs.urc() == 0 && !inputs.crawled() ? null : FluoSchema.encodeFrontierInputs(inputs);
  }

  /**
   * The frontier-table changes when a URI's inputs go from {@code before} to {@code after}: those
   * of its frontier entry ({@link Frontiers#entry(String, FrontierInputs)}), none when it did not
   * change.
   */
  static List<CellChange> changes(String uriKey, FrontierInputs before, FrontierInputs after) {
    return FrontierCells.changes(Frontiers.entry(uriKey, before), Frontiers.entry(uriKey, after));
  }

  /**
   * Writes {@code after} in place of {@code before}, the inputs read from the cell in {@code tx}
   * (nothing when equal), and returns the frontier-table changes to export in the same transaction.
   */
  static List<CellChange> update(
      TransactionBase tx, String uriKey, FrontierInputs before, FrontierInputs after) {
    if (before.equals(after)) {
      return List.of();
    }
    String value = stored(after);
    if (value == null) {
      tx.delete(FluoSchema.frontierRow(uriKey), IN);
    } else {
      tx.set(FluoSchema.frontierRow(uriKey), IN, value);
    }
    return changes(uriKey, before, after);
  }
}
