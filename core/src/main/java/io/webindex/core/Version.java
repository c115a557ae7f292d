package io.webindex.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of webindex this code is, and the versions of Accumulo, Fluo and Hadoop it was built
 * against: the one place that knows them. The build writes them into the resource {@value
 * #RESOURCE} (Maven resource filtering of the root pom's properties), so nothing here is a literal
 * version.
 *
 * <p>{@link #current()} is what {@code bin/webindex --version} prints and what every run record,
 * Fluo seed and Fluo application records as the version that wrote it.
 */
public record Version(String webindex, String accumulo, String fluo, String hadoop) {
  /** The class path resource the build writes. */
  public static final String RESOURCE = "/io/webindex/core/version.properties";

  private static final Version CURRENT = load();

  public Version {
    for (String v : new String[] {webindex, accumulo, fluo, hadoop}) {
      if (v == null || v.isEmpty() || v.contains("${")) {
        throw new IllegalStateException(
            "webindex was built without its version resource "
                + RESOURCE
                + " (got '"
                + v
                + "'): build it with Maven");
      }
    }
  }

  /** The version of the code on the class path. */
  public static Version current() {
    return CURRENT;
  }

  /** The webindex version alone, e.g. {@code 1.0.0}: what records and seeds carry. */
  @Override
  public String webindex() {
    return webindex;
  }

  /**
   * What {@code bin/webindex --version} prints: webindex's version, then the stacks', one per line.
   */
  public String describe() {
    return "webindex "
        + webindex
        + "\nbuilt against Accumulo "
        + accumulo
        + ", Fluo "
        + fluo
        + ", Hadoop "
        + hadoop
        + "\n";
  }

  static Version parse(Properties p) {
    return new Version(
        p.getProperty("webindex.version"),
        p.getProperty("accumulo.version"),
        p.getProperty("fluo.version"),
        p.getProperty("hadoop.version"));
  }

  private static Version load() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "webindex was built without its version resource "
                + RESOURCE
                + ": build it with Maven");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return parse(p);
  }
}
