package io.webindex.fluo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.webindex.core.Version;
import org.junit.jupiter.api.Test;

class VersionMismatchTest {
  @Test
  void versionsCompareNumberByNumber() {
    assertTrue(WebindexApp.olderThan("0.9.0", "1.0.0"));
    assertTrue(WebindexApp.olderThan("1.2.0", "1.10.0"), "10 is not before 2");
    assertTrue(WebindexApp.olderThan("1.0", "1.0.1"));
    assertFalse(WebindexApp.olderThan("1.0.0", "1.0.0"));
    assertFalse(WebindexApp.olderThan("1.10.0", "1.2.0"));
    assertFalse(WebindexApp.olderThan("2.0.0", "1.99.99"));
  }

  @Test
  void anOlderApplicationIsSentToTheUpgradeAndANewerOneToItsOwnVersion() {
    String cur = Version.current().webindex();
    String older = WebindexApp.versionMismatch("Fluo application a", "initialised", "0.0.1");
    assertEquals(
        "Fluo application a was initialised by webindex 0.0.1, and this is webindex "
            + cur
            + ": a version runs only the applications it initialised, from runs it recomputed;"
            + " upgrade as docs/operations.md (Upgrading webindex) says: recompute a run with "
            + cur
            + " and reconcile to it, then start "
            + cur
            + "'s services, which serve the new application; until then run the old version's"
            + " services and loader for this one",
        older);
    assertTrue(
        WebindexApp.versionMismatch("Fluo application a", "initialised", "")
            .startsWith(
                "Fluo application a was initialised by a webindex older than "
                    + cur
                    + " (which recorded no version)"));
    assertTrue(
        WebindexApp.versionMismatch("Fluo application a", "initialised", "999.0.0")
            .endsWith(
                "run it with webindex 999.0.0, or reconcile to a run that " + cur + " recomputed"));
  }
}
