package io.webindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The commit read from the build's git.properties, and "unknown" without one. */
class BuildInfoTest {
  @Test
  void aCommit() {
    Properties p = new Properties();
    p.setProperty("git.commit.id.full", "ad890ea4863eaee4cc4cb28ae3a461c2e4419000");
    p.setProperty("git.commit.id.abbrev", "ad890ea486");
    p.setProperty("git.commit.time", "2026-11-26T03:04:35Z");
    BuildInfo b = BuildInfo.parse(p);
    assertEquals(
        new BuildInfo(
            "ad890ea4863eaee4cc4cb28ae3a461c2e4419000", "ad890ea486", "2026-11-26T03:04:35Z"),
        b);
    assertEquals(
        "built from commit ad890ea4863eaee4cc4cb28ae3a461c2e4419000 (2026-11-26T03:04:35Z)\n",
        b.describe());
  }

  @Test
  void noCommitIsUnknown() {
    BuildInfo none = BuildInfo.parse(new Properties());
    assertEquals(new BuildInfo("unknown", "unknown", ""), none);
    assertEquals("built from commit unknown (not built from a git checkout)\n", none.describe());
    // what an unfiltered or broken file would hold
    Properties p = new Properties();
    p.setProperty("git.commit.id.full", "${git.commit.id.full}");
    assertEquals("unknown", BuildInfo.parse(p).commit());
  }
}
