package io.webindex.fluo;

import io.webindex.core.frontier.FrontierInputs;
import io.webindex.core.frontier.Frontiers;
import io.webindex.core.index.FrontierCells;
import io.webindex.core.schema.CellChange;
import java.util.List;

/**
 * A URI's frontier entry in the Fluo application: derived from its sum in the {@code um:} queue
 * ({@link UriQueue}: its urc and its history's next fetch), whose observer exports the change of
 * the entry whenever the sum changes, computed from the sums it read and wrote in the transaction
 * that commits.
 */
final class FrontierState {
  private FrontierState() {}

  /**
   * The frontier-table changes when a URI's inputs go from {@code before} to {@code after}: those
   * of its frontier entry ({@link Frontiers#entry(String, FrontierInputs)}), none when it did not
   * change.
   */
  static List<CellChange> changes(String uriKey, FrontierInputs before, FrontierInputs after) {
    return FrontierCells.changes(Frontiers.entry(uriKey, before), Frontiers.entry(uriKey, after));
  }
}
