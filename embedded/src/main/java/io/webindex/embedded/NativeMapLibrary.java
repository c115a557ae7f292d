package io.webindex.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Accumulo's native in-memory map library ({@code libaccumulo.so}) as this module's build made it
 * from Accumulo's published C++ sources, for the platform of the build machine: a resource {@value
 * #RESOURCE_DIR}{@code <os.name>-<os.arch>/libaccumulo.so} (docs/stack.md).
 *
 * <p>The tablet server loads it from a directory named in its {@code LD_LIBRARY_PATH}: from the
 * build's {@code target/classes} that is the resource's own directory; from a jar (the release
 * tarball's {@code lib/}) the library is copied once into a cache directory named after its
 * content, {@code $XDG_CACHE_HOME/webindex/native/<accumulo version>-<sha-256 prefix>/} ({@code
 * ~/.cache/...} when the variable is not set), so that every cluster of one build shares it and no
 * two builds meet.
 */
final class NativeMapLibrary {
  /** Where the build puts the library, per platform. */
  static final String RESOURCE_DIR = "io/webindex/embedded/native/";

  private NativeMapLibrary() {}

  /** This JVM's platform as the build names its directory: {@code <os.name>-<os.arch>}. */
  static String platform() {
    return System.getProperty("os.name") + "-" + System.getProperty("os.arch");
  }

  /** The library's file name on this platform ({@code libaccumulo.so} on Linux). */
  static String fileName() {
    return System.mapLibraryName("accumulo");
  }

  /** The library's resource for this platform, null when the build made none for it. */
  static URL resource() {
    return NativeMapLibrary.class
        .getClassLoader()
        .getResource(RESOURCE_DIR + platform() + "/" + fileName());
  }

  /**
   * The directory that holds the library, ready for the tablet server's {@code LD_LIBRARY_PATH};
   * empty when this build has none for this platform.
   *
   * @throws IOException when the library cannot be copied into the cache directory
   */
  static Optional<Path> directory() throws IOException {
    URL url = resource();
    if (url == null) {
      return Optional.empty();
    }
    if ("file".equals(url.getProtocol())) {
      try {
        return Optional.of(Paths.get(url.toURI()).getParent());
      } catch (URISyntaxException e) {
        throw new IOException("bad resource URL " + url, e);
      }
    }
    byte[] bytes;
    try (InputStream in = url.openStream()) {
      bytes = in.readAllBytes();
    }
    Path dir =
        cacheRoot()
            .resolve(
                org.apache.accumulo.core.Constants.VERSION
                    + "-"
                    + HexFormat.of().formatHex(sha256(bytes), 0, 8));
    Path lib = dir.resolve(fileName());
    if (!Files.isRegularFile(lib) || Files.size(lib) != bytes.length) {
      Files.createDirectories(dir);
      // another JVM may copy it at the same time: each writes its own file and renames it
      Path tmp = Files.createTempFile(dir, fileName(), ".tmp");
      try {
        Files.write(tmp, bytes);
        Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
    return Optional.of(dir);
  }

  /** {@code $XDG_CACHE_HOME/webindex/native}, or {@code ~/.cache/webindex/native}. */
  static Path cacheRoot() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Paths.get(xdg)
            : Paths.get(System.getProperty("user.home"), ".cache");
    return base.resolve("webindex").resolve("native");
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JDK", e);
    }
  }
}
