package io.webindex.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The git commit this build was made from: the resource {@value #RESOURCE}, written by the build
 * (asking git: cli/pom.xml). A build outside a git checkout (a source tarball) has none, and the
 * commit reads {@value #UNKNOWN}.
 *
 * @param commit the full commit id, or {@value #UNKNOWN}
 * @param shortCommit its first ten hex digits, or {@value #UNKNOWN}
 * @param commitTime when it was committed (ISO-8601), or empty
 */
public record BuildInfo(String commit, String shortCommit, String commitTime) {
  /** The class path resource the build writes. */
  public static final String RESOURCE = "/io/webindex/cli/git.properties";

  /** What the commit reads when the build did not know it. */
  public static final String UNKNOWN = "unknown";

  private static final BuildInfo CURRENT = load();

  /** The build of the code on the class path. */
  public static BuildInfo current() {
    return CURRENT;
  }

  /** The line {@code bin/webindex version} prints after the versions. */
  public String describe() {
    return commit.equals(UNKNOWN)
        ? "built from commit unknown (not built from a git checkout)\n"
        : "built from commit " + commit + " (" + commitTime + ")\n";
  }

  static BuildInfo parse(Properties p) {
    String full = p.getProperty("git.commit.id.full", "").strip();
    if (!full.matches("[0-9a-f]{7,64}")) {
      return new BuildInfo(UNKNOWN, UNKNOWN, "");
    }
    String abbrev = p.getProperty("git.commit.id.abbrev", "").strip();
    return new BuildInfo(
        full,
        abbrev.isEmpty() ? full.substring(0, Math.min(10, full.length())) : abbrev,
        p.getProperty("git.commit.time", "").strip());
  }

  private static BuildInfo load() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // unreadable: as if the build had not known the commit
    }
    return parse(p);
  }
}
