package io.webindex.store;

import io.webindex.core.args.Args;
import io.webindex.core.config.WebindexConfig;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The webindex configuration of a Hadoop {@code Tool}: the {@code --webindex-conf} file (else the
 * environment), overridden by the {@code webindex.*} properties of the tool's Hadoop configuration
 * ({@code -D}, {@code -conf}) except those under the tool's own internal prefixes.
 */
public final class ToolConfig {
  /** The option naming the webindex configuration file, which every Tool takes. */
  public static final String CONF_OPTION = "webindex-conf";

  private ToolConfig() {}

  /**
   * A Tool's own arguments (what {@code ToolRunner} left after the generic {@code -D}, {@code
   * -conf}, …): its options and {@code --webindex-conf FILE}, no positional arguments.
   *
   * @throws io.webindex.core.args.ArgsException for arguments the Tool cannot read
   */
  public static Args args(String[] args, Set<String> valueOptions, Set<String> flags) {
    Set<String> values = new HashSet<>(valueOptions);
    values.add(CONF_OPTION);
    return Args.parse(args, values, flags).noPositionals();
  }

  /**
   * The configuration of a Tool run with {@code args}: the {@code --webindex-conf} file, overridden
   * by {@code webindex.*} Hadoop properties; a webindex password in the Hadoop configuration is
   * refused ({@link JobSecrets#refuse}). The process then logs in to Kerberos as configured ({@link
   * KerberosLogin}), before its first connection or job.
   */
  public static WebindexConfig load(Configuration conf, Args args, String... internalPrefixes) {
    JobSecrets.refuse(conf);
    WebindexConfig cfg = load(conf, args.value(CONF_OPTION).orElse(null), internalPrefixes);
    KerberosLogin.login(cfg.security(), conf);
    return cfg;
  }

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
