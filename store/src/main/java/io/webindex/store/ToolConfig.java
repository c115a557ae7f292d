package io.webindex.store;

import io.webindex.core.config.WebindexConfig;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The webindex configuration of a Hadoop {@code Tool}: the {@code --webindex-conf} file (else the
 * environment), overridden by the {@code webindex.*} properties of the tool's Hadoop configuration
 * ({@code -D}, {@code -conf}) except those under the tool's own internal prefixes.
 */
public final class ToolConfig {
  private ToolConfig() {}

  /**
   * @param file the {@code --webindex-conf} file, or null
   * @param internalPrefixes {@code webindex.*} prefixes the tool's jobs use for themselves
   */
  public static WebindexConfig load(Configuration conf, String file, String... internalPrefixes) {
    Map<String, String> overrides = new HashMap<>();
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith("webindex.") && !internal(e.getKey(), internalPrefixes)) {
        overrides.put(e.getKey(), e.getValue());
      }
    }
    return file == null
        ? WebindexConfig.fromMap(overrides, System.getenv())
        : WebindexConfig.load(Paths.get(file), overrides);
  }

  private static boolean internal(String key, String[] prefixes) {
    for (String p : prefixes) {
      if (key.startsWith(p)) {
        return true;
      }
    }
    return false;
  }
}
