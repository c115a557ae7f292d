package io.webindex.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of webindex this code is: the project version, written into a resource by the build.
 * Recorded in every run record, seed and Fluo application it writes; an application written by
 * another version is refused (docs/operations.md, upgrading).
 */
public final class Version {
  private static final String RESOURCE = "version.properties";
  private static final String CURRENT = load();

  private Version() {}

  /** The version of this code, e.g. {@code 1.0.0}. */
  public static String current() {
    return CURRENT;
  }

  private static String load() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the build left out " + RESOURCE + " of " + Version.class);
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    String v = p.getProperty("version", "").strip();
    if (v.isEmpty() || v.startsWith("${")) {
      throw new IllegalStateException(RESOURCE + " was not filled in by the build: " + v);
    }
    return v;
  }
}
